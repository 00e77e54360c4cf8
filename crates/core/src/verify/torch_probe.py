# What `gpumeter verify --python` asks the interpreter: is torch there, can it use CUDA, and
# which GPU architectures was it built for. One line on stdout, after the marker, as JSON;
# whatever else an import prints is not read.
import json
import sys

out = {"torch": None, "import_error": None, "cuda": None, "available": None,
       "error": None, "arch_list": None, "devices": None}


def said(e):
    return (type(e).__name__ + ": " + str(e))[:400]


def probe():
    try:
        import torch
    except ModuleNotFoundError as e:
        if e.name != "torch":
            out["import_error"] = said(e)
        return
    except Exception as e:  # a broken install raises whatever its libraries raise
        out["import_error"] = said(e)
        return
    out["torch"] = str(getattr(torch, "__version__", "unknown"))
    version = getattr(torch, "version", None)
    cuda = getattr(version, "cuda", None)
    out["cuda"] = None if cuda is None else str(cuda)
    try:
        out["available"] = bool(torch.cuda.is_available())
    except Exception as e:
        out["available"] = False
        out["error"] = said(e)
    if not out["available"]:
        return
    try:
        out["arch_list"] = [str(a) for a in torch.cuda.get_arch_list()]
        out["devices"] = [
            {"name": str(torch.cuda.get_device_name(i)),
             "capability": [int(c) for c in torch.cuda.get_device_capability(i)]}
            for i in range(torch.cuda.device_count())
        ]
    except Exception as e:
        out["error"] = said(e)


probe()
sys.stdout.write("gpumeter-torch-probe " + json.dumps(out) + "\n")

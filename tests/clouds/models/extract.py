"""Writes the official SDK models of the Alibaba Cloud and Tencent Cloud actions the adapters
call, as one JSON file, for the loopback peers to check requests and replies against.

Everything comes from the installed SDK packages by introspection: the Alibaba request's wire
names from what the SDK client itself puts in the query (its `*_with_options` run against a
stubbed `call_api`, so lists are flattened as it flattens them: `Tag.1.Key`), the reply's from
the models' `to_map`; Tencent's from each model's documented `:type Name: ...` lines.

A node is {"kind": "scalar", "type": "string|integer|boolean|number|any"},
{"kind": "object", "fields": {name: node}} or {"kind": "list", "item": node}.

Usage: python extract.py OUT.json (exits 3 when the SDK packages are not installed)
"""

import importlib
import inspect
import json
import re
import sys
import typing

# The actions the adapters call (src/provider/alibaba, src/provider/tencent), by product.
ALIBABA = {
    ("ecs", "alibabacloud_ecs20140526", "2014-05-26"): [
        "DescribeInstances", "DeleteInstance", "StopInstance", "StartInstance",
        "ModifyInstanceAutoReleaseTime",
        "DescribeDisks", "DescribeSnapshots", "CreateSnapshot", "DeleteSnapshot",
        "DescribeImages", "DescribeImageSharePermission", "DetachDisk", "DeleteDisk",
        "DeleteImage", "DescribeRegions",
    ],
    ("vpc", "alibabacloud_vpc20160428", "2016-04-28"): [
        "DescribeEipAddresses", "ReleaseEipAddress", "UnassociateEipAddress",
    ],
    ("slb", "alibabacloud_slb20140515", "2014-05-15"): [
        "DescribeLoadBalancers", "DescribeHealthStatus", "DeleteLoadBalancer",
    ],
}
TENCENT = {
    ("cvm", "2017-03-12"): [
        "DescribeInstances", "StopInstances", "StartInstances", "TerminateInstances",
        "DescribeInstancesActionTimer", "ImportInstancesActionTimer",
        "DeleteInstancesActionTimer", "DescribeImages", "DescribeImageSharePermission",
        "DeleteImages", "DescribeRegions",
    ],
    ("cbs", "2017-03-12"): [
        "DescribeDisks", "DescribeSnapshots", "DescribeSnapshotSharePermission", "DetachDisks",
        "TerminateDisks", "DeleteSnapshots",
    ],
    ("vpc", "2017-03-12"): ["DescribeAddresses", "DisassociateAddress", "ReleaseAddresses"],
    ("clb", "2018-03-17"): ["DescribeLoadBalancers", "DescribeTargetHealth", "DeleteLoadBalancer"],
}

SCALARS = {str: "string", int: "integer", bool: "boolean", float: "number"}
# Sample values that say their type once the SDK has turned them into query text.
SAMPLES = {str: "s", int: 7, bool: True, float: 1.5}
TEXT_TYPES = {"s": "string", "7": "integer", "True": "boolean", "1.5": "number"}


def scalar(kind):
    return {"kind": "scalar", "type": kind}


# --- Alibaba -------------------------------------------------------------------------------


def dara_fields(cls):
    """The model's fields and their types, as its constructor declares them."""
    hints = typing.get_type_hints(cls.__init__)
    return [(n, hints.get(n)) for n in inspect.signature(cls.__init__).parameters if n != "self"]


def comments_before(cls):
    """Each field's comment block in the constructor (where "required" and "JSON array" are)."""
    out, block = {}, []
    for line in inspect.getsource(cls.__init__).splitlines():
        text = line.strip()
        if text.startswith("#"):
            block.append(text.lstrip("# "))
        elif m := re.match(r"self\.(\w+) = \w+", text):
            out[m.group(1)] = " ".join(block)
            block = []
        else:
            block = []
    return out


def is_model(t):
    return inspect.isclass(t) and hasattr(t, "to_map") and hasattr(t, "from_map")


def sample(t):
    """A value of type `t`, every field of a model filled."""
    origin = typing.get_origin(t)
    if origin in (list, typing.List):
        return [sample(typing.get_args(t)[0])]
    if origin in (dict, typing.Dict):
        return {"k": "s"}
    if is_model(t):
        obj = t()
        for name, ft in dara_fields(t):
            setattr(obj, name, sample(ft))
        return obj
    return SAMPLES.get(t, "s")


def dara_node(t):
    origin = typing.get_origin(t)
    if origin in (list, typing.List):
        return {"kind": "list", "item": dara_node(typing.get_args(t)[0])}
    if origin in (dict, typing.Dict) or t is typing.Any:
        return scalar("any")
    if is_model(t):
        base = t().to_map() or {}
        fields = {}
        for name, ft in dara_fields(t):
            obj = t()
            setattr(obj, name, sample(ft))
            changed = [k for k, v in (obj.to_map() or {}).items() if base.get(k) != v]
            for key in changed:
                fields[key] = dara_node(ft)
        return {"kind": "object", "fields": fields}
    return scalar(SCALARS.get(t, "any"))


class Captured(Exception):
    pass


def sent(client, method, request):
    """The query and form the SDK client sends for `request`."""
    from darabonba.runtime import RuntimeOptions

    seen = {}

    def call_api(params, req, runtime):
        seen.update(req.query or {})
        if isinstance(req.body, dict):
            seen.update(req.body)
        raise Captured()

    client.call_api = call_api
    try:
        getattr(client, method)(request, RuntimeOptions())
    except Captured:
        pass
    return seen


def flat_key(key):
    return re.sub(r"\.\d+(?=\.|$)", ".N", key)


def alibaba_action(package, action):
    models = importlib.import_module(f"{package}.models")
    client_cls = importlib.import_module(f"{package}.client").Client
    client = client_cls.__new__(client_cls)
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", action).lower()
    method = f"{snake}_with_options"
    request_cls = getattr(models, f"{action}Request")
    notes = comments_before(request_cls)
    params = {}
    for name, t in dara_fields(request_cls):
        req = request_cls()
        setattr(req, name, sample(t))
        query = sent(client, method, req)
        if not query:
            continue
        top = next(iter(query)).split(".")[0]
        node = dara_node(t)
        note = notes.get(name, "")
        node["required"] = "This parameter is required" in note
        if node["kind"] == "scalar" and node["type"] == "string" and "JSON array" in note:
            node["json_list"] = True
        node["flat"] = {flat_key(k): TEXT_TYPES.get(str(v), "string") for k, v in query.items()}
        params[top] = node
    response = dara_node(getattr(models, f"{action}ResponseBody"))
    return {"request": params, "response": response}


# --- Tencent -------------------------------------------------------------------------------

TYPE_LINE = re.compile(r":type (\w+): (.+)")
CLASS_REF = re.compile(r":class:`[\w.]+\.(\w+)`")
TENCENT_SCALARS = {"str": "string", "int": "integer", "bool": "boolean", "float": "number"}


def tencent_node(models, text, depth=0):
    text = text.strip()
    if m := CLASS_REF.fullmatch(text):
        return tencent_struct(models, m.group(1), depth)
    if text.startswith("list of "):
        item = text[len("list of "):].split()[0]
        if item in TENCENT_SCALARS:
            return {"kind": "list", "item": scalar(TENCENT_SCALARS[item])}
        return {"kind": "list", "item": tencent_struct(models, item, depth)}
    return scalar(TENCENT_SCALARS.get(text, "any"))


def tencent_struct(models, name, depth=0):
    cls = getattr(models, name, None)
    if cls is None or depth > 12:
        return scalar("any")
    fields = {}
    for field, kind in TYPE_LINE.findall(cls.__init__.__doc__ or ""):
        fields[field] = tencent_node(models, kind, depth + 1)
    return {"kind": "object", "fields": fields}


def tencent_action(models, action):
    request = tencent_struct(models, f"{action}Request")["fields"]
    response = tencent_struct(models, f"{action}Response")
    return {"request": request, "response": response}


def main(out):
    doc = {"alibaba": {}, "tencent": {}}
    for (product, package, version), actions in ALIBABA.items():
        for action in actions:
            entry = alibaba_action(package, action)
            doc["alibaba"][action] = {"product": product, "version": version, **entry}
    for (service, version), actions in TENCENT.items():
        stamp = version.replace("-", "")
        models = importlib.import_module(f"tencentcloud.{service}.v{stamp}.models")
        for action in actions:
            entry = tencent_action(models, action)
            doc["tencent"][action] = {"service": service, "version": version, **entry}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    try:
        import alibabacloud_ecs20140526, alibabacloud_slb20140515, alibabacloud_vpc20160428  # noqa
        import tencentcloud.cbs, tencentcloud.clb, tencentcloud.cvm, tencentcloud.vpc  # noqa
    except ImportError as e:
        print(f"the official SDKs are not installed: {e}", file=sys.stderr)
        sys.exit(3)
    main(sys.argv[1])

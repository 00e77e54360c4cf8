# gpumeter's English messages: what each verify check says of the card, the machine and its
# software. The English text is also what JSON and the ledger keep.

# verify --python: the interpreter's torch
verify-torch-not-installed = torch is not installed for { $python }: nothing was checked against the card (install torch, or name the interpreter that has it with --python PATH)
verify-torch-import-failed = import torch fails in { $python }: { $error }
verify-torch-cpu-only = torch { $version } is a CPU-only build and cannot use the GPU: install a CUDA wheel ({ $pip })
verify-torch-sees = torch { $version } (CUDA { $cuda }) sees { $count ->
        [one] 1 GPU
       *[other] { $count } GPUs
    }: { $name }
verify-torch-driver-older = torch { $version } is built for CUDA { $cuda } but the driver supports CUDA up to { $driver }: install a torch wheel for CUDA { $driver } or older, or a newer driver
verify-torch-no-cuda = torch { $version } (CUDA { $cuda }) cannot use the GPU ({ $error }): a driver or CUDA build mismatch, or the GPU hidden from this process (CUDA_VISIBLE_DEVICES, a container started without GPUs); a wheel for this card: { $pip }
verify-torch-arch-exact = torch has { $arch } kernels for the { $model }
verify-torch-arch-compatible = torch's { $arch } kernels run on { $sm } ({ $model })
verify-torch-arch-ptx = torch has no { $sm } kernels: the driver compiles its { $ptx } PTX at first use (minutes at start, kernels maybe slower)
verify-torch-arch-none = torch { $version } has no kernels for { $sm } ({ $model }); it has { $archs }: wheels with { $sm }: { $wheels } ({ $pip })
verify-torch-arch-none-no-wheel = torch { $version } has no kernels for { $sm } ({ $model }); it has { $archs }: no PyTorch 2.7 wheel has { $sm }: use a newer release, or build with TORCH_CUDA_ARCH_LIST={ $cc }

# verify --bandwidth URL
verify-net-pass = the best second downloaded at { $peak } Mbps, { $pct } % of the { $promised } Mbps the plan promises
verify-net-warn = the best second downloaded at { $peak } Mbps, { $pct } % of the { $promised } Mbps the plan promises: the far server or the route may be the limit; try an address nearer the provider
verify-net-fail = the best second downloaded at only { $peak } Mbps, { $pct } % of the { $promised } Mbps the plan promises (below { $bar } % fails)

# verify's flags in --help
cli-verify-arg-python = Check the torch this interpreter imports against the cards: CUDA available, and built for their architecture [default: python3]
cli-verify-arg-bandwidth = Download from this address (10 s or 1 GiB at most) and judge the best second against the Mbps the plan promises (the sheet's network.fixed_bandwidth_mbps, or the config's [instance] bandwidth_mbps)

# verify --bandwidth: the address given
verify-bandwidth-bad-url = --bandwidth: `{ $url }` is not an http or https address

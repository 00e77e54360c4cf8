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

# The report: a check that could not be read, the headline, the summary the cockpit shows
verify-unread = { $what } could not be read ({ $reason })
verify-headline-gpu = GPU { $index }: { $message }
verify-headline-read-pass = the { $count } checks read pass: { $summary }
verify-headline-all-pass = all { $count } checks pass: { $summary }
verify-headline-none = no check could be judged
verify-headline-unread = ; { $count ->
        [one] { $count } check
       *[other] { $count } checks
    } could not be read ({ $codes })
verify-list-sep = {"; "}
verify-summary = { $speed }, { $word }
verify-summary-rated = { $pct } % of rated
verify-summary-rated-of = { $pct } % of rated { $name }
verify-summary-no-rating = no rating to compare
verify-summary-not-benchmarked = not benchmarked
verify-figure-bandwidth = bandwidth
verify-word-mig = MIG slice
verify-word-shared = shared
verify-word-sliced = sliced memory
verify-word-wrong-model = wrong model
verify-word-gpus-missing = GPUs missing
verify-word-prohibited = prohibited
verify-word-power-capped = power-capped
verify-word-throttled = throttled
verify-word-memory-errors = memory errors
verify-word-pcie = PCIe degraded
verify-word-cuda = CUDA mismatch
verify-word-dedicated = dedicated
verify-word-no-sharing-seen = no sharing seen
verify-word-sharing-unknown = sharing not known

# What could not be read
verify-what-mig = the MIG mode
verify-what-vgpu = the virtualization mode
verify-what-compute-mode = the compute mode
verify-what-power-limit = the power limit
verify-what-default-power-limit = the default power limit
verify-what-clock-events = the clock-event reasons
verify-what-pcie = the PCIe link
verify-what-ecc-counts = the ECC error counts
verify-what-ecc-mode = the ECC mode
verify-what-driver-cuda = the driver's CUDA version
verify-what-cc = the compute capability
verify-what-cc-build = whether CUDA can build for the card
verify-what-model = the GPU's model
verify-what-rated = what the card is rated for
verify-what-memory = the memory total
verify-what-memory-expected = the memory the card should have
verify-what-foreign-memory = the memory held by others
verify-what-foreign-util = the utilisation while none of this machine's processes ran
verify-what-torch = torch in the interpreter
verify-what-download = the download rate

# MIG, vGPU, the compute mode
verify-mig-on = MIG is on: a slice, not the card
verify-mig-on-sees = MIG is on: a slice, not the card (this machine sees { $sizes })
verify-mig-off = MIG is off: the whole card
verify-mig-none = the card has no MIG: the whole card
verify-vgpu-vgpu = a vGPU: a hypervisor's share of a card, not the whole card
verify-vgpu-bare-metal = bare metal: the whole card
verify-vgpu-passthrough = passthrough: the whole card in a virtual machine
verify-vgpu-host-vgpu = the host side of vGPUs: this machine owns the card
verify-vgpu-host-vsga = the host side of vSGA: this machine owns the card
verify-mode-prohibited = compute mode Prohibited: no process may use the card
verify-mode-default = compute mode Default: processes may share the card
verify-mode-exclusive-process = compute mode Exclusive Process: one process at a time
verify-mode-exclusive-thread = compute mode Exclusive Thread: one thread at a time

# The power limit and the clock-event reasons
verify-power-capped = capped at { $limit } W of { $reference } W: a capped card is a slower card
verify-power-ok = { $limit } W, { $what }
verify-power-ok-board = { $limit } W, { $what } (the model is rated up to { $board } W)
verify-power-of-default = the card's default
verify-power-of-board = the rated board power
verify-clock-idle = GPU idle
verify-clock-app-clocks = application clocks pinned
verify-clock-sw-power = SW power cap
verify-clock-hw-slowdown = HW slowdown (clocks cut by half or more)
verify-clock-sync-boost = sync boost
verify-clock-sw-thermal = SW thermal slowdown
verify-clock-hw-thermal = HW thermal slowdown
verify-clock-power-brake = HW power brake (the host's power supply)
verify-clock-display = display clock setting
verify-clock-other = other ({ $bits })
verify-clock-none = no clock-event reason: clocks as high as they go
verify-clock-held-by = clocks held back by { $names }
verify-clock-held-by-tail = clocks held back by { $names }: { $tail }
verify-clock-at-lowered-limit = at a lowered limit (see the power check)
verify-clock-at-own-limit = at the card's own limit, as under full load
verify-clock-ran-at = ; the SMs ran at { $ran } of { $max } MHz under load

# The PCIe link and memory errors
verify-pcie-slot = the slot runs the card at { $runs } (the card can do { $can })
verify-pcie-under-load = under load the link ran at { $ran } of its { $of }
verify-pcie-as-rated = { $link } as the card is rated
verify-pcie-slower = { $problems }: host transfers run slower
verify-ecc-uncorrected = { $count ->
        [one] { $count } uncorrected ECC error
       *[other] { $count } uncorrected ECC errors
    } since the driver loaded
verify-ecc-remap-pending = a row remap waits for a GPU reset
verify-ecc-remap-failed = the row remapper has failed: no spare rows left
verify-ecc-pages-pending = retired pages wait for a GPU reset
verify-ecc-failing = { $fails }: the card's memory is failing
verify-ecc-off-expected = ECC is off on this { $model }: memory errors go unnoticed
verify-ecc-off = ECC is off, as this card ships
verify-ecc-corrected-unread = corrected errors not read
verify-ecc-corrected = { $count } corrected since the driver loaded
verify-ecc-ok = no uncorrected memory errors ({ $corrected })

# CUDA and the compute capability
verify-cuda-needs = it needs CUDA { $from } or later
verify-cuda-dropped-major = CUDA { $until } dropped it: use a CUDA { $major } image
verify-cuda-dropped = CUDA { $until } dropped it: use a CUDA image older than { $until }
verify-cuda-driver-ok = the driver supports CUDA up to { $have }, you need { $required }
verify-cc-cannot-build = CUDA { $cuda } cannot build for { $sm } ({ $model }): { $why }
verify-cc-builds = CUDA { $cuda } builds for { $sm } ({ $model })
verify-cc-unknown = which CUDA builds for { $sm } is not known here
verify-cc-plain = { $sm } ({ $model })
verify-cc-mismatch = the card reports { $reported } but { $model } cards are { $expected }: it may not be the model it claims

# The cards against the SKU and the rated table
verify-count-ok = { $count } × { $model } as the SKU states
verify-model-ok = { $model } as the SKU states
verify-model-wrong = paying for { $paid }, NVML reports { $seen }
verify-no-rated-figures = no rated figures for { $model }
verify-no-rated-figure = no rated { $name } for { $model }
verify-memory-short-sku = the SKU promises { $of } GiB per GPU, NVML reports { $gib } GiB
verify-memory-sliced = NVML reports { $gib } GiB of a { $of } GB { $model }: the memory is sliced (software slicing, a MIG or vGPU profile)
verify-memory-as-sku = { $gib } GiB, as the SKU states
verify-memory-whole = { $gib } GiB, the whole of a { $of } GB { $model }
verify-memory-no-reference = neither a SKU nor the rated table gives this card's memory

# Another tenant
verify-no-idle = no idle reading was taken
verify-ours-ran = a process of this machine ran during every idle reading
verify-foreign-memory = another tenant holds { $gib } GiB of the card's memory
verify-foreign-memory-unseen = another tenant holds { $gib } GiB of the card's memory ({ $count ->
        [one] { $count } process this machine cannot see
       *[other] { $count } processes this machine cannot see
    })
verify-foreign-memory-none = { $mib } MiB beyond this machine's processes: no other tenant's memory
verify-foreign-busy = the card is { $pct } % busy with work this machine cannot see
verify-foreign-idle = { $pct } % busy while none of this machine's processes ran

# The benchmark's figures
verify-bench-error = no benchmark ({ $error }): the verdict rests on what NVML reports alone
verify-bench-not-asked = the benchmark was not run: the verdict rests on what NVML reports alone
verify-bench-no-figures = no benchmark figures for this GPU: its throughput is not known
verify-kind-bandwidth = memory bandwidth
verify-kind-fp32 = FP32 throughput
verify-kind-bf16 = BF16 throughput
verify-kind-fp16 = FP16 throughput
verify-kind-gemm = BF16 GEMM (cuBLAS) throughput
verify-kind-rated-bandwidth = the rated memory bandwidth
verify-kind-rated-fp32 = the rated FP32 throughput
verify-kind-rated-bf16 = the rated BF16 throughput
verify-kind-rated-fp16 = the rated FP16 throughput
verify-kind-rated-gemm = the rated BF16 GEMM (cuBLAS) throughput
verify-work-memory = memory-bound work
verify-work-fp32 = FP32 work
verify-work-training = training
verify-figure-impossible = the benchmark reported an impossible { $name } ({ $value })
verify-figure-failed = the { $name } kernel failed: { $reason }
verify-figure-beyond = the benchmark measured { $value } { $unit }, { $pct } % of the rated { $rated } { $unit }: more than the card can do, so its timing cannot be trusted
verify-figure-pass = { $value } { $unit }, { $pct } % of the rated { $rated } { $unit }
verify-figure-pass-boost = { $value } { $unit }, { $pct } % of the rated { $rated } { $unit } (clocks above the rated boost)
verify-figure-short = { $value } { $unit } of a rated { $rated }: { $shortfall }
verify-caveat = { $message } ({ $caveat })
verify-caveat-derived = rated figure derived, not published
verify-caveat-unverified = rated figure unverified
verify-short-not-compared = { $name } could not be compared with its rating
verify-short-none = at { $pct } % of rated { $name }, the card does almost none of the work
verify-short-hours = at { $pct } % of rated { $name }, each hour of { $work } costs you about { $hours } hours
verify-short-money = : { $hour } an hour buys what { $buys } buys on a healthy card (each hour of work costs about { $costs })

# The download
verify-net-too-short = the download lasted { $seconds } s ({ $bytes } bytes), less than the one-second window: name a larger file
verify-net-no-promise = no promised Mbps: the sheet's network.fixed_bandwidth_mbps or the config's [instance] bandwidth_mbps
verify-bench-no-driver = the CUDA driver (libcuda.so.1) could not be loaded
verify-bench-no-device = the CUDA driver sees no GPU
verify-bench-cuda = a CUDA call failed
verify-bench-timeout = the benchmark ran out of time
verify-name-sep = {", "}

# What the telemetry's findings decide, in verify's words
verify-cuda-too-old = the driver supports CUDA up to { $have }, you need { $required }: update the driver or choose an image with a newer one
verify-count-short = paying for { $paid }, NVML reports { $seen ->
        [one] { $seen } GPU
       *[other] { $seen } GPUs
    }
verify-count-short-working = paying for { $paid }, NVML reports { $seen ->
        [one] { $seen } working GPU
       *[other] { $seen } working GPUs
    }
verify-count-extra = paying for { $paid }, NVML reports { $seen } GPUs

# the text table's readings (the JSON keeps the words as they are here)
verify-value-on = on
verify-value-off = off
verify-value-unsupported = unsupported
verify-value-bare-metal = bare_metal
verify-value-passthrough = passthrough
verify-value-vgpu = vgpu
verify-value-host-vgpu = host_vgpu
verify-value-host-vsga = host_vsga
verify-value-bare-metal-or-passthrough = bare_metal or passthrough
verify-value-default = default
verify-value-prohibited = prohibited
verify-value-not-prohibited = not prohibited
verify-value-exclusive-process = exclusive_process
verify-value-exclusive-thread = exclusive_thread
verify-value-errors = { $count } errors

# why verify read no GPU or the benchmark ended, and its alert
verify-nvml-thread-stopped = the thread reading NVML stopped
verify-nvml-stopped-answering = NVML stopped answering
verify-bench-no-answer = no answer from the driver within { $seconds } s
verify-bench-stopped = the benchmark stopped before it finished
verify-alert-title = verify: the GPU is not what you pay for
verify-config-foreign-pct = [verify] foreign_utilisation: { $pct } is not a percentage from 0 to 100

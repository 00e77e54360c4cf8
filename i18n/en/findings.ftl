## What the GPUs found against what is paid for (the cockpit's GPU panel, status)
## JSON keeps these in English: each is the `message` of its finding.

# $gpus lists the GPUs: "0, 1".
finding-gpu-lost = NVML says a GPU has fallen off the bus (GPU { $gpus }): it does no work until the instance is restarted or the card is replaced
# $working is `yes` when some GPU fell off the bus and the rest are counted as working.
finding-gpu-count-short = paying for { $count } × { $model }, NVML reports { $seen }{ $working ->
        [yes] {" "}working
       *[no] {""}
    } { $seen ->
        [one] GPU
       *[other] GPUs
    }
finding-gpu-count-extra = paying for { $count } × { $model }, NVML reports { $seen } GPUs
finding-gpu-model-mismatch = paying for { $count } × { $model }, NVML reports { $reported } (GPU { $gpus })
finding-gpu-memory-short = the SKU promises { $promised } GiB per GPU, NVML reports { $reported } GiB (GPU { $gpus })
# $count is the number of MIG instances whose sizes are known, $sizes lists them.
finding-gpu-mig-slice = GPU { $gpu } runs in MIG mode: processes get a slice, not the whole card{ $count ->
        [0] {""}
        [one] {" "}({ $count } instance: { $sizes })
       *[other] {" "}({ $count } instances: { $sizes })
    }
finding-gpu-vgpu = GPU { $gpu } is a vGPU: a hypervisor's share of a card, not the whole card
finding-cuda-too-old = the driver supports CUDA up to { $have }, you need { $required }: update the driver or choose an image with a newer one
finding-cuda-unknown = cannot read the driver's CUDA version ({ $why }); you need { $required }
finding-cpu-bound = GPUs idle (at most { $busiest } % utilisation) while the CPU averaged { $cpu } % for { $minutes } min: the job may be running on the CPU
finding-gpu-unreadable = paying for { $count } × { $model }, but no GPU can be read: { $why }
# $climbing is `yes` when the memory stayed above $above % for the whole window and still grows.
finding-gpu-memory-full = GPU { $gpu }'s memory { $climbing ->
        [yes] has stayed above { $above } % for { $minutes } min and is still climbing
       *[no] is full
    } ({ $used } of { $total } MiB): the next allocation may fail with out-of-memory; save a checkpoint, or lower the batch size

# How grave a finding is, as status lists it.
finding-grade-info = info
finding-grade-warning = warning
finding-grade-critical = critical

## A data finding without its resource, as the details view lists it under the resource

finding-said = { $grade } { $what }; { $fix }

## What a total leaves out because the sheet cannot price it (JSON keeps the English)

unpriced-no-gpu = compute without GPUs: billing.no_gpu_per_hour unknown
unpriced-licence = licence: extras.license_per_hour unknown
unpriced-egress = egress: network.egress_per_unit unknown
unpriced-fixed-bandwidth = fixed bandwidth: its Mbps unknown (network.fixed_bandwidth_mbps or the config's instance.bandwidth_mbps)
unpriced-never-listed = instance: no longer listed, so what it cost before its release is unknown
unpriced-leftover = { $kind } { $id }: no price in the sheet
# $key is the sheet's key that holds no price.
unpriced-resource = { $kind } { $id }: { $key } unknown
# $class is the instance type whose compute the sheet does not price.
unpriced-compute = { $kind } { $id }: compute of { $class } unknown

## Where the prices come from, when it is not the instance's own region (status, checklist)

spend-estimate-line = prices: sheet { $sheet } ({ $region }) used as an estimate for { $instance_region }

## The first line of a dialog said on the command line (release, stop, cleanup prompts)

summary-title = { $title }: { $target }

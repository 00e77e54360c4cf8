## What the GPUs found against what is paid for (the cockpit's GPU panel, status)
## JSON keeps these in English: each is the `message` of its finding.

# $gpus lists the GPUs: "0, 1".
finding-gpu-lost = NVML 报告有 GPU 已从总线上掉线（GPU { $gpus }）：在重启实例或更换显卡之前，它不做任何工作
# $working is `yes` when some GPU fell off the bus and the rest are counted as working.
finding-gpu-count-short = 付费购买 { $count } × { $model }，NVML 只报告 { $seen } 块{ $working ->
        [yes] 可用的 GPU
       *[no] {" "}GPU
    }
finding-gpu-count-extra = 付费购买 { $count } × { $model }，NVML 报告 { $seen } 块 GPU
finding-gpu-model-mismatch = 付费购买 { $count } × { $model }，NVML 报告的是 { $reported }（GPU { $gpus }）
finding-gpu-memory-short = SKU 承诺每块 GPU { $promised } GiB 显存，NVML 报告 { $reported } GiB（GPU { $gpus }）
# $count is the number of MIG instances whose sizes are known, $sizes lists them.
finding-gpu-mig-slice = GPU { $gpu } 运行在 MIG 模式：进程只能用到一个切片，而不是整块显卡{ $count ->
        [0] {""}
       *[other] （{ $count } 个实例：{ $sizes }）
    }
finding-gpu-vgpu = GPU { $gpu } 是 vGPU：由虚拟化层分出的一部分显卡，而不是整块显卡
finding-cuda-too-old = 驱动最高支持 CUDA { $have }，你需要 { $required }：请更新驱动，或选择驱动更新的镜像
finding-cuda-unknown = 无法读取驱动支持的 CUDA 版本（{ $why }）；你需要 { $required }
finding-cpu-bound = GPU 空闲（利用率最高 { $busiest } %），而 CPU 在 { $minutes } 分钟内平均占用 { $cpu } %：任务可能在 CPU 上运行
finding-gpu-unreadable = 付费购买 { $count } × { $model }，但读不到任何 GPU：{ $why }
# $climbing is `yes` when the memory stayed above $above % for the whole window and still grows.
finding-gpu-memory-full = GPU { $gpu } 的显存{ $climbing ->
        [yes] 已连续 { $minutes } 分钟高于 { $above } % 且仍在上涨
       *[no] 已满
    }（{ $used } / { $total } MiB）：下一次分配可能因显存不足而失败；请保存检查点，或减小 batch size

# How grave a finding is, as status lists it.
finding-grade-info = 提示
finding-grade-warning = 警告
finding-grade-critical = 严重

## A data finding without its resource, as the details view lists it under the resource

finding-said = { $grade } { $what }；{ $fix }

## What a total leaves out because the sheet cannot price it (JSON keeps the English)

unpriced-no-gpu = 无 GPU 模式下的计算：价格表缺少 billing.no_gpu_per_hour
unpriced-licence = 许可证：价格表缺少 extras.license_per_hour
unpriced-egress = 出网流量：价格表缺少 network.egress_per_unit
unpriced-fixed-bandwidth = 固定带宽：带宽（Mbps）未知（network.fixed_bandwidth_mbps 或配置中的 instance.bandwidth_mbps）
unpriced-never-listed = 实例：已不在列表中，释放前花了多少无从得知
unpriced-leftover = { $kind } { $id }：价格表中没有它的价格
# $key is the sheet's key that holds no price.
unpriced-resource = { $kind } { $id }：价格表缺少 { $key }
# $class is the instance type whose compute the sheet does not price.
unpriced-compute = { $kind } { $id }：价格表缺少 { $class } 的计算价格

## Where the prices come from, when it is not the instance's own region (status, checklist)

spend-estimate-line = 价格：以价格表 { $sheet }（{ $region }）估算 { $instance_region } 的费用

## The first line of a dialog said on the command line (release, stop, cleanup prompts)

summary-title = { $title }：{ $target }

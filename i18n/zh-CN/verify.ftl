# gpumeter 的简体中文消息：verify 各检查项对显卡、本机及其软件的说明。每个 id 都必须在 i18n/en/ 下的
# 同名文件中存在且参数相同。JSON 和账本始终保存英文。

# verify --python：解释器中的 torch
verify-torch-not-installed = { $python } 中未安装 torch：未对照显卡检查任何内容（请安装 torch，或用 --python PATH 指定装有它的解释器）
verify-torch-import-failed = 在 { $python } 中 import torch 失败：{ $error }
verify-torch-cpu-only = torch { $version } 是仅支持 CPU 的版本，无法使用 GPU：请安装 CUDA 版 wheel（{ $pip }）
verify-torch-sees = torch { $version }（CUDA { $cuda }）看到 { $count } 块 GPU：{ $name }
verify-torch-driver-older = torch { $version } 为 CUDA { $cuda } 构建，但驱动最高只支持 CUDA { $driver }：请安装 CUDA { $driver } 或更早版本的 torch wheel，或升级驱动
verify-torch-no-cuda = torch { $version }（CUDA { $cuda }）无法使用 GPU（{ $error }）：可能是驱动与 CUDA 构建不匹配，或 GPU 对本进程不可见（CUDA_VISIBLE_DEVICES，或容器启动时未挂载 GPU）；适合这块卡的 wheel：{ $pip }
verify-torch-arch-exact = torch 含有适用于 { $model } 的 { $arch } 内核
verify-torch-arch-compatible = torch 的 { $arch } 内核可在 { $sm }（{ $model }）上运行
verify-torch-arch-ptx = torch 没有 { $sm } 内核：驱动会在首次使用时编译其 { $ptx } PTX（启动要花几分钟，内核也可能更慢）
verify-torch-arch-none = torch { $version } 没有适用于 { $sm }（{ $model }）的内核；它只有 { $archs }：含 { $sm } 的 wheel：{ $wheels }（{ $pip }）
verify-torch-arch-none-no-wheel = torch { $version } 没有适用于 { $sm }（{ $model }）的内核；它只有 { $archs }：没有任何 PyTorch 2.7 wheel 含 { $sm }：请使用更新的版本，或以 TORCH_CUDA_ARCH_LIST={ $cc } 自行构建

# verify --bandwidth URL
verify-net-pass = 下载最快的一秒达到 { $peak } Mbps，为套餐承诺的 { $promised } Mbps 的 { $pct } %
verify-net-warn = 下载最快的一秒达到 { $peak } Mbps，为套餐承诺的 { $promised } Mbps 的 { $pct } %：瓶颈可能在远端服务器或线路；请换一个离云服务商更近的地址
verify-net-fail = 下载最快的一秒只有 { $peak } Mbps，仅为套餐承诺的 { $promised } Mbps 的 { $pct } %（低于 { $bar } % 判为失败）

# verify 的参数（--help）
cli-verify-arg-python = 用此解释器导入的 torch 对照显卡检查：CUDA 是否可用，以及是否为其架构构建 [默认：python3]
cli-verify-arg-bandwidth = 从此地址下载（最多 10 秒或 1 GiB），以最快的一秒对照套餐承诺的 Mbps（价格表的 network.fixed_bandwidth_mbps，或配置的 [instance] bandwidth_mbps）

# verify --bandwidth：给出的地址
verify-bandwidth-bad-url = --bandwidth：`{ $url }` 不是 http 或 https 地址

# 报告：无法读取的检查项、标题行，以及驾驶舱显示的摘要
verify-unread = 无法读取{ $what }（{ $reason }）
verify-headline-gpu = GPU { $index }：{ $message }
verify-headline-read-pass = 已读取的 { $count } 项检查均通过：{ $summary }
verify-headline-all-pass = 全部 { $count } 项检查通过：{ $summary }
verify-headline-none = 没有任何检查项能够判定
verify-headline-unread = ；{ $count } 项检查无法读取（{ $codes }）
verify-list-sep = {"；"}
verify-summary = { $speed }，{ $word }
verify-summary-rated = 达到额定值的 { $pct } %
verify-summary-rated-of = { $name } 仅达额定值的 { $pct } %
verify-summary-no-rating = 无额定值可比
verify-summary-not-benchmarked = 未做基准测试
verify-figure-bandwidth = 带宽
verify-word-mig = MIG 切片
verify-word-shared = 与他人共用
verify-word-sliced = 显存被切分
verify-word-wrong-model = 型号不符
verify-word-gpus-missing = GPU 数量不足
verify-word-prohibited = 禁止计算
verify-word-power-capped = 功率受限
verify-word-throttled = 降频
verify-word-memory-errors = 显存错误
verify-word-pcie = PCIe 降级
verify-word-cuda = CUDA 不匹配
verify-word-dedicated = 独占
verify-word-no-sharing-seen = 未见共用
verify-word-sharing-unknown = 是否共用未知

# 无法读取的内容
verify-what-mig = MIG 模式
verify-what-vgpu = 虚拟化模式
verify-what-compute-mode = 计算模式
verify-what-power-limit = 功率上限
verify-what-default-power-limit = 默认功率上限
verify-what-clock-events = 时钟事件原因
verify-what-pcie = PCIe 链路
verify-what-ecc-counts = ECC 错误计数
verify-what-ecc-mode = ECC 模式
verify-what-driver-cuda = 驱动的 CUDA 版本
verify-what-cc = 计算能力
verify-what-cc-build = CUDA 能否为这块卡构建
verify-what-model = GPU 型号
verify-what-rated = 这块卡的额定指标
verify-what-memory = 显存总量
verify-what-memory-expected = 这块卡应有的显存
verify-what-foreign-memory = 他人占用的显存
verify-what-foreign-util = 本机进程都未运行时的利用率
verify-what-torch = 解释器中的 torch
verify-what-download = 下载速率

# MIG、vGPU、计算模式
verify-mig-on = MIG 已开启：你拿到的是切片，不是整卡
verify-mig-on-sees = MIG 已开启：你拿到的是切片，不是整卡（本机看到 { $sizes }）
verify-mig-off = MIG 未开启：整卡
verify-mig-none = 这块卡不支持 MIG：整卡
verify-vgpu-vgpu = vGPU：虚拟机管理程序分出的一份，不是整卡
verify-vgpu-bare-metal = 裸金属：整卡
verify-vgpu-passthrough = 直通：虚拟机中的整卡
verify-vgpu-host-vgpu = vGPU 的宿主机一侧：本机拥有这块卡
verify-vgpu-host-vsga = vSGA 的宿主机一侧：本机拥有这块卡
verify-mode-prohibited = 计算模式为 Prohibited：任何进程都不能使用这块卡
verify-mode-default = 计算模式为 Default：多个进程可共用这块卡
verify-mode-exclusive-process = 计算模式为 Exclusive Process：同一时间只允许一个进程
verify-mode-exclusive-thread = 计算模式为 Exclusive Thread：同一时间只允许一个线程

# 功率上限和时钟事件原因
verify-power-capped = 功率被限制在 { $limit } W（共 { $reference } W）：功率受限的卡就是更慢的卡
verify-power-ok = { $limit } W，{ $what }
verify-power-ok-board = { $limit } W，{ $what }（该型号额定最高 { $board } W）
verify-power-of-default = 即该卡的默认值
verify-power-of-board = 即额定板卡功率
verify-clock-idle = GPU 空闲
verify-clock-app-clocks = 应用时钟被固定
verify-clock-sw-power = 软件功率上限
verify-clock-hw-slowdown = 硬件降速（时钟减半或更多）
verify-clock-sync-boost = 同步加速
verify-clock-sw-thermal = 软件温度降速
verify-clock-hw-thermal = 硬件温度降速
verify-clock-power-brake = 硬件功率制动（主机电源）
verify-clock-display = 显示时钟设置
verify-clock-other = 其他（{ $bits }）
verify-clock-none = 没有时钟事件原因：时钟已达上限
verify-clock-held-by = 时钟被压低，原因：{ $names }
verify-clock-held-by-tail = 时钟被压低，原因：{ $names }：{ $tail }
verify-clock-at-lowered-limit = 处于被调低的上限（见功率检查）
verify-clock-at-own-limit = 处于该卡自身的上限，满载时正常如此
verify-clock-ran-at = ；负载下 SM 运行在 { $ran } MHz（最高 { $max } MHz）

# PCIe 链路和显存错误
verify-pcie-slot = 插槽让这块卡运行在 { $runs }（卡本身可达 { $can }）
verify-pcie-under-load = 负载下链路只运行在 { $ran }（最高 { $of }）
verify-pcie-as-rated = { $link }，与额定一致
verify-pcie-slower = { $problems }：与主机之间的传输会变慢
verify-ecc-uncorrected = 驱动加载以来有 { $count } 个不可纠正的 ECC 错误
verify-ecc-remap-pending = 有一行显存重映射等待 GPU 重置
verify-ecc-remap-failed = 行重映射已失败：没有备用行了
verify-ecc-pages-pending = 有退役页面等待 GPU 重置
verify-ecc-failing = { $fails }：这块卡的显存正在损坏
verify-ecc-off-expected = 这块 { $model } 的 ECC 已关闭：显存错误不会被发现
verify-ecc-off = ECC 已关闭，这块卡出厂即如此
verify-ecc-corrected-unread = 未读取可纠正错误数
verify-ecc-corrected = 驱动加载以来纠正了 { $count } 个
verify-ecc-ok = 没有不可纠正的显存错误（{ $corrected }）

# CUDA 和计算能力
verify-cuda-needs = 需要 CUDA { $from } 或更新版本
verify-cuda-dropped-major = CUDA { $until } 已不再支持它：请使用 CUDA { $major } 镜像
verify-cuda-dropped = CUDA { $until } 已不再支持它：请使用早于 { $until } 的 CUDA 镜像
verify-cuda-driver-ok = 驱动最高支持 CUDA { $have }，你需要 { $required }
verify-cc-cannot-build = CUDA { $cuda } 无法为 { $sm }（{ $model }）构建：{ $why }
verify-cc-builds = CUDA { $cuda } 可为 { $sm }（{ $model }）构建
verify-cc-unknown = 此处不知道哪些 CUDA 版本能为 { $sm } 构建
verify-cc-plain = { $sm }（{ $model }）
verify-cc-mismatch = 这块卡报告 { $reported }，但 { $model } 应为 { $expected }：它可能不是所声称的型号

# 显卡对照 SKU 和额定表
verify-count-ok = { $count } × { $model }，与 SKU 一致
verify-model-ok = { $model }，与 SKU 一致
verify-model-wrong = 你付费的是 { $paid }，NVML 报告的是 { $seen }
verify-no-rated-figures = 没有 { $model } 的额定指标
verify-no-rated-figure = 没有 { $model } 的额定{ $name }
verify-memory-short-sku = SKU 承诺每块 GPU { $of } GiB，NVML 报告 { $gib } GiB
verify-memory-sliced = NVML 报告 { $gib } GiB，而 { $model } 应有 { $of } GB：显存被切分（软件切分、MIG 或 vGPU 配置）
verify-memory-as-sku = { $gib } GiB，与 SKU 一致
verify-memory-whole = { $gib } GiB，即 { $of } GB { $model } 的全部显存
verify-memory-no-reference = SKU 和额定表都没有给出这块卡的显存

# 其他租户
verify-no-idle = 没有进行空闲读数
verify-ours-ran = 每次空闲读数时都有本机进程在运行
verify-foreign-memory = 其他租户占用了这块卡 { $gib } GiB 显存
verify-foreign-memory-unseen = 其他租户占用了这块卡 { $gib } GiB 显存（{ $count } 个本机看不到的进程）
verify-foreign-memory-none = 本机进程之外占用 { $mib } MiB：没有其他租户的显存
verify-foreign-busy = 这块卡有 { $pct } % 忙于本机看不到的任务
verify-foreign-idle = 本机进程都未运行时忙碌 { $pct } %

# 基准测试数据
verify-bench-error = 没有基准测试（{ $error }）：结论只依据 NVML 的报告
verify-bench-not-asked = 未运行基准测试：结论只依据 NVML 的报告
verify-bench-no-figures = 这块 GPU 没有基准测试数据：吞吐量未知
verify-kind-bandwidth = 显存带宽
verify-kind-fp32 = FP32 吞吐量
verify-kind-bf16 = BF16 吞吐量
verify-kind-fp16 = FP16 吞吐量
verify-kind-gemm = BF16 GEMM（cuBLAS）吞吐量
verify-kind-rated-bandwidth = 额定显存带宽
verify-kind-rated-fp32 = 额定 FP32 吞吐量
verify-kind-rated-bf16 = 额定 BF16 吞吐量
verify-kind-rated-fp16 = 额定 FP16 吞吐量
verify-kind-rated-gemm = 额定 BF16 GEMM（cuBLAS）吞吐量
verify-work-memory = 受显存带宽限制的任务
verify-work-fp32 = FP32 计算
verify-work-training = 训练
verify-figure-impossible = 基准测试报告了不可能的{ $name }（{ $value }）
verify-figure-failed = { $name }内核失败：{ $reason }
verify-figure-beyond = 基准测试测得 { $value } { $unit }，为额定 { $rated } { $unit } 的 { $pct } %：超出这块卡的能力，计时不可信
verify-figure-pass = { $value } { $unit }，为额定 { $rated } { $unit } 的 { $pct } %
verify-figure-pass-boost = { $value } { $unit }，为额定 { $rated } { $unit } 的 { $pct } %（时钟高于额定加速频率）
verify-figure-short = { $value } { $unit }，额定 { $rated }：{ $shortfall }
verify-caveat = { $message }（{ $caveat }）
verify-caveat-derived = 额定值为推算，非官方公布
verify-caveat-unverified = 额定值未经核实
verify-short-not-compared = { $name }无法与额定值比较
verify-short-none = 仅达额定{ $name }的 { $pct } %，这块卡几乎不干活
verify-short-hours = 仅达额定{ $name }的 { $pct } %，每小时的{ $work }大约要花 { $hours } 小时
verify-short-money = ：每小时 { $hour } 只买到健康卡上 { $buys } 的算力（每小时工作量约花 { $costs }）

# 下载
verify-net-too-short = 下载只持续了 { $seconds } 秒（{ $bytes } 字节），不足一秒的测量窗口：请换一个更大的文件
verify-net-no-promise = 没有承诺的 Mbps：价格表的 network.fixed_bandwidth_mbps 或配置的 [instance] bandwidth_mbps
verify-bench-no-driver = 无法加载 CUDA 驱动（libcuda.so.1）
verify-bench-no-device = CUDA 驱动看不到任何 GPU
verify-bench-cuda = 某个 CUDA 调用失败
verify-bench-timeout = 基准测试超时
verify-name-sep = {"、"}

# 遥测发现所判定的，用 verify 自己的话说
verify-cuda-too-old = 驱动最高支持 CUDA { $have }，你需要 { $required }：请升级驱动，或选择带更新驱动的镜像
verify-count-short = 你付费的是 { $paid }，NVML 只报告了 { $seen } 块 GPU
verify-count-short-working = 你付费的是 { $paid }，NVML 只报告了 { $seen } 块正常工作的 GPU
verify-count-extra = 你付费的是 { $paid }，NVML 报告了 { $seen } 块 GPU

# 文本表格中的读数（JSON 保留英文原词）
verify-value-on = 开启
verify-value-off = 关闭
verify-value-unsupported = 不支持
verify-value-bare-metal = 裸金属
verify-value-passthrough = 直通
verify-value-vgpu = vGPU
verify-value-host-vgpu = 宿主机 vGPU
verify-value-host-vsga = 宿主机 vSGA
verify-value-bare-metal-or-passthrough = 裸金属或直通
verify-value-default = 默认
verify-value-prohibited = 禁止
verify-value-not-prohibited = 未禁止
verify-value-exclusive-process = 独占进程
verify-value-exclusive-thread = 独占线程
verify-value-errors = { $count } 个错误

# verify 读不到 GPU 或基准测试结束的原因，以及它的警报
verify-nvml-thread-stopped = 读取 NVML 的线程已停止
verify-nvml-stopped-answering = NVML 不再响应
verify-bench-no-answer = 驱动在 { $seconds } 秒内没有响应
verify-bench-stopped = 基准测试在完成前停止了
verify-alert-title = verify：这块 GPU 不是你付费购买的那块
verify-config-foreign-pct = [verify] foreign_utilisation：{ $pct } 不是 0 到 100 之间的百分比

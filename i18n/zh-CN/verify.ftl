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

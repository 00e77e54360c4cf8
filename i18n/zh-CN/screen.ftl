# gpumeter 的简体中文消息：驾驶舱的各个面板（标题行、GPU、主机、进程、关联资源、详情、机群、
# 事件、余额）。每个 id 在 i18n/en/ 下的同名文件里也有，参数相同。消息两端的空格留在代码里，
# 因为 Fluent 会去掉它们。

# 标题行。
header-no-watchdog = ⚠ 无看门狗：本驾驶舱退出后，没有谁执行截止时间
header-no-provider = 未配置云服务商
header-no-instance = 没有实例
header-reading = 正在读取云服务商…
header-up = 已运行
header-read-only = 只读
header-live-price = 实时价格
header-other-region = ≈ 价格表 { $sheet }（用于 { $region }）
header-sheet = 价格表 { $sheet }
header-cost-unknown = 费用未知：无价格表
state-running = 运行中
state-no-gpu = 无卡模式运行中
state-stopped = 已关机
state-released = 已释放
mode-on-demand = 按量
mode-monthly = 包月
mode-spot = 竞价
mode-compute-units = 算力单位

# GPU 下方的主机行。
host-host = 主机
host-load = 负载
host-ram = 内存
host-net = 网络

# 进程视图。
processes-of-gpu = GPU { $index }：进程
processes-none = 没有进程在使用 GPU
processes-other-namespace = （其他命名空间）
processes-user = 用户
processes-gpu-mem = 显存
processes-command = 命令

# GPU 面板。
gpus-hide-processes = 隐藏进程
gpus-more = { $at }/{ $n }，另有 { $more } 块
gpus-not-running = 实例{ $state }：GPU 不在工作
gpus-waiting = 正在等待第一次采样…
gpus-none-reported = NVML 已启动，但没有报告任何 GPU
gpus-count = { $count } 块 GPU
gpus-driver = 驱动
gpus-got-what-you-pay-for = ✓ 已拿到所付费的 { $count } × { $model }
gpus-more-findings = （另有 { $count } 条）
gpus-verified = { $at } 已验证：{ $summary }
gpus-no-nvidia = 没有 NVIDIA GPU：{ $why }
gpus-press = 按
gpus-to-retry = 重试
gpus-meter-keeps-working = 费用计量、倒计时和检查清单照常工作
nvml-library-not-found = 找不到 NVIDIA 库（libnvidia-ml.so.1）
nvml-driver-not-loaded = NVIDIA 驱动未加载
nvml-no-permission = 没有使用 NVIDIA 设备的权限
nvml-version-mismatch = NVIDIA 驱动与库的版本不一致
nvml-other = NVML 启动失败
gpu-util = 利用
gpu-load = 负载
gpu-fan = 风扇
gpu-mem = 显存
gpu-util-short = 利用
gpu-load-short = 负载
gpu-mem-short = 显存
chart-caption = 最近 { $shown } · 每列 { $column }

# 事件面板。
events-newest = 最新
events-waiting-for = 正在等待 { $provider }
events-nothing-yet = 暂无事件

# 屏幕上的日期：一周之内的时刻，和更远的时刻。花括号里不带 `$` 的消息名会拿到同样的参数
# （几号和月份名）。
date-month-day = { $month }{ $day }日
date-this-week = { date-month-day } { $weekday } { $time }
date-far = { $year }年{ date-month-day } { $time }
month-1 = 1月
month-2 = 2月
month-3 = 3月
month-4 = 4月
month-5 = 5月
month-6 = 6月
month-7 = 7月
month-8 = 8月
month-9 = 9月
month-10 = 10月
month-11 = 11月
month-12 = 12月
weekday-mon = 周一
weekday-tue = 周二
weekday-wed = 周三
weekday-thu = 周四
weekday-fri = 周五
weekday-sat = 周六
weekday-sun = 周日

# 关联资源表。
resources-kind = 类型
resources-id = ID
resources-name = 名称
resources-size = 大小
resources-state = 状态
resources-on-release = 释放时
resources-per-month = /月
resources-shown-of = { $shown }/{ $n }
resources-none = 没有关联资源
resources-deleted = 随实例删除
resources-no-price = 无价格
resources-survives = 保留
kind-short-system-disk = 系统盘
kind-short-load-balancer = 负载均衡
kind-short-network-volume = 网络卷

# 关联资源的详情（Enter）。
details-deletes = 删除
details-gone = 云服务商已不再列出它：已删除或已移走
details-critical = 严重
details-warning = 警告
details-id = ID
details-name = 名称
details-kind = 类型
details-created-label = 创建于
details-size = 大小
details-class = 规格
details-state = 状态
details-attached-to = 挂载到
details-per-month = 每月
details-on-release = 释放时
details-data-label = 数据
details-backs-image-label = 所属镜像
details-created = { $at }，{ $age } 前
details-unpriced-sheet = 未定价：价格表 { $sheet } 没有它的价格
details-unpriced = 未定价：无价格表
details-attached-to-nothing = 无
details-backs-image = { $image }：随该镜像一起删除
details-encrypted = 已加密
details-unencrypted = 未加密
details-encryption-not-said = 未说明是否加密
details-sharing-not-said = 未说明共享情况
details-private = 仅本账号可见
details-shared-with = 已共享给 { $count } 个其他账号
details-public = 公开
details-data = { $encrypted }，{ $shared }
details-deleted-with-instance = 随实例一起删除
details-survives = 保留，删除前一直计费：{ $why }
details-why-disk = 云服务商在释放后仍保留这块磁盘（不随实例删除）
details-why-snapshot = 快照与实例分开存储
details-why-image = 镜像与实例分开存储
details-why-public-ip = 该地址仍分配在账号下
details-why-load-balancer = 负载均衡是独立的资源
details-why-network-volume = 网络存储卷比挂载它的实例活得更久
details-why-stopped-instance = 云服务商在关机期间仍对其计算计费：释放它，或开机使用

# 机群视图（F）。
fleet-how-to-add = 在配置里加 [[fleet]]，其他账号的实例就会列在这里
fleet-accounts = { $count } 个账号
fleet-accounts-instances = { $accounts } 个账号（{ $instances } 个实例）
fleet-reading = 正在读取 { $what }…
fleet-not-read = { $what }，尚未读取
fleet-seconds-ago = { $seconds } 秒前
fleet-ago = { $span } 前
fleet-read = { $what }，读取于 { $ago }
fleet-reading-again = 正在重新读取…
fleet-title = 机群 · { $count } · 最贵的在前
fleet-back = 返回
fleet-no-instance = 还没有实例：正在等待云服务商
fleet-account = 账号
fleet-instance = 实例
fleet-name = 名称
fleet-state = 状态
fleet-up = 已运行
fleet-deadline = 截止
fleet-left-per-month = 残留/月
fleet-flags = 标记
fleet-in = { $span } 后
fleet-unreadable = 无法读取
flag-forgotten = 被遗忘
flag-idle = 空闲
flag-overlap = 重叠
flag-leftovers = 有残留
flag-unreachable = 无法访问
flag-unpriced = 未定价

# 费用面板的余额格：剩余时长，是上限时前面带 "≤ "。
balance-left = 还剩 { $bound }{ $left }
balance-no-burn = 无消耗

# 费用面板的状态、快照挑选，以及终端太小时的提示。
cost-waiting-inventory = 正在等待实例的资源清单…
cost-nothing-to-price = 暂无可计价的实例：配置云服务商（自动检测、`gpumeter init` 或 --provider）后即可；`gpumeter estimate` 可在租用前为方案估价
cost-no-sheet = 此实例没有价格表
cost-hint-by-type = 实例规格即 SKU，待实例和地域确定后按该地域的价格表计价：在实例上运行，或传入 --instance 和 --region；价格表未列出的规格需要设置 [pricing] sheet（`gpumeter pricing list` 可列出）
cost-hint-name-sheet = 在配置中指定价格表和 SKU；`gpumeter pricing list` 可列出
confirm-newest = 最新
screen-too-small = gpumeter 至少需要 { $need }（当前 { $now }）

nvml-not-started = NVML 尚未启动

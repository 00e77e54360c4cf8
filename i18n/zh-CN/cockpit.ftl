# gpumeter 的简体中文消息：仪表盘。每个 id 都必须在 i18n/en/ 下的同名文件中存在且参数相同，
# 且不在两个文件中重复，否则测试失败。消息首尾的空格留在代码里，因为 Fluent 会去掉它们。

# Keys: the help overlay lists what each key does.
key-help = 显示或隐藏本帮助
key-quit = 退出（实例继续运行）
key-close = 关闭对话框
key-focus = 在面板之间切换焦点
key-up = 选择上一行
key-down = 选择下一行
key-left = 上一个面板 / 对话框选项
key-right = 下一个面板 / 对话框选项
key-details = 显示所选关联资源的详情
key-processes = 显示 GPU 进程
key-fleet = 显示机群：全部实例，按费用排序
key-top = 第一行 / 最后一行（事件：最早 / 最新）
key-page = 将焦点列表上 / 下翻一页
key-extend = 按配置的步长延长截止时间
key-extend-prompt = 按输入的时长延长截止时间
key-retry-gpu = 重新读取 GPU（NVML）
key-release = 释放实例
key-stop = 关机（停止实例）
key-start = 重新开机（启动已停止的实例）
key-snapshot-clean = 删除旧快照
key-cleanup = 删除所选关联资源
help-title = 按键
help-asks-first = （先确认）
help-read-only = 只读：会改动云上资源的按键已关闭
help-capitals = 大写字母会改动云上资源，且先询问；{ $confirm } 确认
help-more = … 还有 { $count } 行：终端再高一些即可全部显示
help-or = 或
help-closes = 关闭

# The footer: short names beside the keys.
hint-help = 帮助
hint-focus = 焦点
hint-select = 选择
hint-processes = 进程
hint-extend-by = 延长…
hint-release = 释放
hint-stop = 关机
hint-clean-snapshots = 清理快照
hint-quit = 退出

# Panel titles.
panel-cost = 费用
panel-release = 释放
panel-events = 事件
panel-gpus = GPU
panel-resources = 关联资源
panel-welcome = 欢迎

# The welcome, while no provider is configured.
welcome-no-provider = 尚未配置或检测到云服务商。
welcome-host-works = 主机监控现已可用。
welcome-gpu-works = GPU 与主机监控现已可用。
welcome-demo = 模拟试用每个面板
welcome-doctor = 哪些可用，缺了什么
welcome-init = 为本机写一份配置

# The extend prompt.
prompt-title = 延长截止时间
prompt-deadline-now = 当前截止时间：{ $at }
prompt-no-deadline = 尚未设置截止时间
prompt-how-long = 延长多久？例如 45m、2h 或 1h30m
prompt-editing = Ctrl-U 清空 · Ctrl-W 删除一个词
prompt-extends-or-edit = 延长 · 按其他键继续编辑
prompt-extends = 延长
prompt-cancels = 取消

# Confirmations.
confirm-title-release = 释放实例
confirm-title-stop = 关机（停止实例）
confirm-title-start = 开机（启动实例）
confirm-title-snapshot-clean = 删除旧快照
confirm-title-set-deadline = 设置截止时间
confirm-title-cleanup = 删除仍在计费的资源
verb-release = 释放
verb-stop = 关机
verb-start = 开机
verb-snapshot-clean = 清理快照
verb-set-deadline = 设置截止时间
verb-cleanup = 清理
confirm-target = 目标
confirm-costs = 费用
confirm-per-hour-now = 当前 { $amount }/小时
confirm-no-sheet = 未知（无价格表）
confirm-picks = 选择
confirm-confirms = 确认
confirm-cancels = 取消
confirm-choose = 切换
confirm-cancel = 取消
confirm-more-lines = … 还有 { $count } 行：终端再高一些即可显示
confirm-kept-stop = 关机期间仍在计费
confirm-kept-start = 照常计费
confirm-kept-snapshot-clean = 保留，继续计费
confirm-kept-cleanup = 保留，继续计费
confirm-kept-release = 释放后保留，继续计费
confirm-total-stop = 关机期间合计
confirm-total-start = 合计
confirm-total-snapshot-clean = 保留合计
confirm-total-cleanup = 保留合计
confirm-total-release = 释放后合计
confirm-deleted = 将被删除
confirm-per-month = 每月
confirm-saves-per-month = 每月节省
confirm-and-more = … 另有 { $count } 项
confirm-no-snapshots = 没有可删除的快照
confirm-pick-title = 选择要删除的
confirm-age = 时长
confirm-more-scroll = … 还有 { $count } 项：↑ ↓ 滚动
confirm-pick-deletes = 删除 { $count } 个：每月节省 { $amount }
confirm-pick-keeps = 保留 { $count } 个：每月 { $amount }

# The release countdown and its guards.
countdown-released-at = 已于 { $at } 释放
countdown-nothing-left = 没有需要倒计时的了
countdown-nothing-to-guard = 暂无可守护的对象：未配置云服务商
countdown-no-deadline-press = 未设截止时间 — 按
countdown-forced-release = { $provider } 将在 { $left } 后释放（关机满 { $days } 天）并清除磁盘；开机可重新计时
countdown-to-set-one = 设置
countdown-deadline = 截止
countdown-overdue = 已超时：
countdown-at-zero = 归零时：
countdown-not-enforced = — 无人执行
countdown-held-by-provider = ✓ 由云服务商执行
countdown-held-provider = ✓ 云服务商
countdown-not-held = 云服务商未托管
watchdog-down = 看门狗已停止
watchdog-restarting = 看门狗重启中
watchdog-checked-ago = 看门狗 ✓ { $seconds } 秒前
watchdog-alive = ✓ 看门狗
watchdog-silent = 看门狗无响应
watchdog-none = 无看门狗
expiry-alert-long = 仅提醒，继续计费
expiry-alert = 仅提醒
expiry-stop-long = 关机（停止实例）
expiry-stop = 关机
expiry-release-long = 释放实例
expiry-release = 释放

# Another deadline is already set.
guard-choice-title = 已有另一个截止时间
guard-choice-policy = { $at }，然后{ $action }
guard-choice-instance = 实例
guard-choice-shared = 共享
guard-choice-set-by = 由 { $who } 于 { $at } 设置
guard-choice-asked = 请求
guard-choice-note = 看门狗为使用此账本的每个驾驶舱执行共享的截止时间。替换它会对所有驾驶舱生效。
guard-choice-keep = 保留共享
guard-choice-replace = 替换
guard-choice-replaces = 替换
guard-choice-keeps = 保留
guards-not-enforced-no-provider = 无人执行：未配置云服务商
guards-or = 或
guards-gives-it-one = 可配置一个

# What keeps billing after a release, on the resources panel.
leftover-no-sheet = 无价格表：保留的资源未合计
leftover-nothing-billing = 没有在计费的资源
leftover-nothing-after-release = 释放后没有继续计费的资源
leftover-still-billing = 仍在计费：{ $amount }/月
leftover-after-release-long = 释放后继续计费：{ $amount }/月
leftover-billing-short = 计费：{ $amount }/月
leftover-after-release-short = 释放后：{ $amount }/月
leftover-per-month = { $amount }/月
leftover-unknown-long = + { $count } 项未知：不完整
leftover-unknown = + { $count } 项未知

# Kinds of resource.
kind-system-disk = 系统盘
kind-data-disk = 数据盘
kind-snapshot = 快照
kind-image = 镜像
kind-public-ip = 公网 IP
kind-load-balancer = 负载均衡
kind-network-volume = 网络存储卷
kind-stopped-instance = 已关机实例

# The cost panel.
cost-compute = 计算
cost-committed = 包月
cost-bandwidth = 带宽
cost-storage = 存储
cost-extras = 其他
cost-total = 合计
cost-burn = 消耗
cost-billed = 已计费
cost-so-far = 至今
cost-per-hour = 每小时
cost-per-hour-short = /时
cost-budget = 预算
cost-balance = 余额
cost-last-hour = 近一小时
cost-per-min = /分
cost-total-incomplete = ! 合计不完整，未知：{ $unknown }
cost-incomplete-count = ! 不完整：{ $count } 项未知
cost-at-deadline = 截止时 { $at }
cost-deadline = 截止时
cost-by-midnight-long = 今晚 24:00 合计
cost-by-midnight = 24:00 前
cost-step-second = 按秒
cost-step-minute = 按分钟
cost-step-hour = 按小时
cost-step-seconds = 每 { $seconds } 秒
cost-step-minimum = { $step }，最少 { $minimum }
cost-budget-over = >999%，共 { $amount }
cost-budget-share = { $percent }%，共 { $amount }
cost-budget-currency = 预算币种 { $budget }，计量币种 { $meter }

# The GPU panel while the instance runs without its GPUs.
gpus-none-by-choice = 无 GPU，符合预期：实例以无卡模式运行，按无卡模式价格计费

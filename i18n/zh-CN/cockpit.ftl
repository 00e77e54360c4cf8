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
key-confirm = 确认打开的对话框
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

# 守护规则的布防情况、空闲规则的状态，以及退出时的提示（在核心里生成）。
policy-alert = 提醒
policy-stop = 关机
policy-release = 释放
list-separator = ，
list-or = 或
idle-stopped = 已关机 · 空闲 { $after } 后{ $action }，等待开机
idle-active = 运行中 · 空闲 { $after } 后{ $action }
idle-without-gpus = 无卡 · 空闲 { $after } 后{ $action }，等待 GPU 恢复
idle-idle = 空闲 { $idle_for }/{ $after } → { $at } { $action }
armed = 已布防：{ $rules }
armed-deadline = 截止 { $at } → { $action }
armed-idle = 空闲 { $after } → { $action }
armed-budget = 预算 { $limit }
armed-nothing = 未布防任何规则
duty-deadline = { $at } { $action }
duty-idle = 空闲 { $after } 后{ $action }
duty-none = 没有截止时间或空闲规则
grace-releasing = { $left } 后释放 — 按任意键取消
grace-stopping = { $left } 后关机 — 按任意键取消
how-to-guard = `gpumeter init` 可写一份配置，或用 --provider 启动
quit-no-provider = 未配置云服务商：没有可守护的对象，未启动看门狗；{ $how }
quit-released = 实例已释放：没有需要守护的了
quit-watchdog-guards = 看门狗（pid { $pid }）继续守护：{ $duties }；`gpumeter watchdog --stop` 可结束它
quit-unguarded-acts = 现在没有任何东西守护此实例：没有运行看门狗，因此{ $duties }不会发生
quit-unguarded = 现在没有任何东西守护此实例：没有运行看门狗
unguarded-deadline = { $at } 的{ $action }
unguarded-idle = 空闲 { $after } 后的{ $action }
unguarded = 无人执行{ $what }：未配置云服务商；`gpumeter init` 或 --provider 可配置一个

# 在核心里生成的确认对话框内容：目标、仍在计费的各行、说明，以及命令行提示里用的纯文本行。
confirm-price-unknown = 价格未知
confirm-resources = { $count } 个资源
confirm-the-instance = 该实例
confirm-stopped-compute-unknown = 关机期间的计算费用（取决于云服务商）
confirm-stopped-compute = 关机期间的计算费用（每小时 { $per_hour } 的 { $percent }%）
note-cleanup = 按此顺序永久删除，每一项都会回读确认；磁盘先卸载，地址先解绑。
note-release = 计算费用将永久停止。保留下来的资源每月继续计费，直到你删除它们。
note-snapshot-clean = 保留最新的 { $keep } 个快照（时间相同时保留 ID 较大的）；其余永久删除。
note-snapshot-image = 被镜像使用的快照会保留，且不计入。
note-start-priced = 开机起重新计算费用：每小时另加 { $per_hour }。
note-start = 开机起重新计算费用。
note-the-platform = 该平台
note-stop-released-after = { $provider } 会释放关机满 { $days } 天的实例并清除其磁盘。其间 GPU 可能被他人租走：届时开机要等到宿主机有空闲的 GPU。
note-stop-unknown = 关机后是否继续收取计算费用取决于云服务商。
note-stop-free = 计算费用停止；关机期间磁盘、快照和 IP 继续计费。
note-stop-full = 实例关机期间 { $provider } 仍收取计算费用：释放它才能停止付费。
note-stop-share = 关机的实例仍收取 { $share } 的计算费用，外加磁盘和 IP。
summary-costs-now = 当前费用：每小时 { $cost }
summary-deleted = 将删除：
summary-saves-line = 每月节省 { $amount }
summary-saves = 节省：每月 { $amount }
summary-keeps-billing = 之后继续计费：
summary-per-month = 每月 { $amount }
summary-total-after = 之后合计：每月 { $amount }
summary-exposed = 他人可读取的数据：
pick-image-uses-it = 镜像 { $image } 在使用它
note-pick = 只删除所选的快照，每一项都会回读确认。

# 核心记录的事件（其中一些也会作为桌面通知发出）。
event-wait-running = 请稍候：{ $action } 仍在进行
event-cannot = { $provider } 不支持{ $action }
event-nothing-picked = { $action }：未选择任何项，未删除任何资源
event-sent = { $action }：已发送给 { $provider }
event-cancelled = { $action }：已取消
event-done = { $action }：完成，云服务商报告 { $summary }
event-not-confirmed = { $action }：未确认，云服务商报告 { $summary }
event-failed = { $action } 失败（{ $kind }）：{ $fix }。{ $error }
event-may-hold-old = { $provider } 可能仍保留旧的截止时间，并会在那时释放实例；重新读取后倒计时会显示它保留的时间
event-select-resource = 要{ $verb }关联资源，请按 Tab 切到关联资源面板并选中它（j/k）
event-verb-see = 查看
event-verb-delete = 删除
event-cleanup-gone = 清理：{ $id } 已不再列出
event-read-only-no-delete = 只读：此驾驶舱不会删除所选的关联资源
event-cleanup-why = 清理：{ $why }
event-cleanup-refused = 清理：未删除 { $id }：{ $why }
event-cleanup-goes-with-instance = 清理：未删除 { $id }：它随实例一起删除，释放（R）实例时会一并删除
event-watchdog-restarted = 看门狗已重新启动（pid { $pid }）
event-watchdog-starting-again = { $why }：正在重新启动
event-no-watchdog = 无看门狗：{ $why }。本驾驶舱退出后，没有谁执行截止时间或空闲规则；详见数据目录中的 watchdog.log
event-watchdog-recovered = 看门狗已恢复守护（pid { $pid }）
event-extended = 截止时间已延长 { $by }，至 { $to }
event-read-only-keeps-deadline = 只读：保留 { $by } 设置的截止时间 { $existing }；未应用：{ $wanted }
event-shared-deadline = 共享截止时间 { $existing }，由 { $by } 设置
event-deadline-replaced = 截止时间已替换：现为 { $wanted }，原为 { $by } 设置的 { $existing }
event-kept-deadline = 保留了 { $by } 设置的截止时间 { $existing }；未应用：{ $wanted }
policy-text = { $at }（到期：{ $action }）
policy-action = 操作
event-grace-cancelled = 已按键取消截止时的{ $action }
event-deadline-moved = 截止时间被 { $by } 改为 { $at }
event-deadline-cleared = 截止时间被 { $by } 清除
event-watchdog-own-idle = 看门狗（pid { $pid }）执行它自己的空闲规则：空闲 { $after } 后{ $action }；先 `gpumeter watchdog --stop` 再重启驾驶舱，才能应用本驾驶舱的规则
prompt-ask-extend = 延长 { $by }，至 { $to }？y/N
prompt-not-a-duration = `{ $input }` 不是时长：试试 45m、2h 或 1h30m
event-read-only-key = 只读：此驾驶舱不会{ $what }
event-retrying-nvml = 正在重试 NVML
event-quit-after-answer = 等{ $action }有了答复就退出；再按一次退出键立即离开
event-minutes-left = 距截止时间还有 { $minutes } 分钟
event-deadline-reached = 已到截止时间：到期操作 → { $action }
event-checkpoint-error = 检查点：{ $error }
event-checkpoint-missing = 检查点：没有文件匹配 { $pattern }
event-checkpoint-stale = 检查点：最新的 { $path } 已是 { $minutes } 分钟前的
event-checkpoint-ephemeral = 检查点：{ $path } 在 { $mount } 上，这块磁盘会随实例删除
event-spot-interruption = 竞价实例中断：云服务商将在 { $at } 回收此实例；请立即保存检查点
event-budget-forecast = 预算{ $scope }：按当前速度，{ $limit } 的预算将在 { $at } 用完
budget-this-month = （本月）
event-budget-error = 预算{ $scope }：{ $error }
event-budget-crossed = 预算{ $scope }：已用 { $level }%（{ $spent }，共 { $limit }）
event-no-answer-within = { $seconds } 秒内没有答复；它可能仍在进行，或已部分完成
spot-due-now = ⚠ 竞价实例中断：即将回收 — 请立即保存检查点
spot-reclaimed-in = ⚠ 竞价实例中断：{ $left } 后回收 — 请立即保存检查点
not-now-no-resource-to-show = 没有可查看的关联资源
not-now-no-resource-to-delete = 没有可删除的关联资源
not-now-no-provider = 未配置云服务商：`gpumeter init` 可写一份配置
not-now-cannot-start = 无法从这里启动此云服务商的实例
not-now-not-known-stopped = 不确定实例已关机
not-now-already-released = 实例已经释放
not-now-released-nothing-to-stop = 实例已释放：没有可关机的
not-now-already-stopped = 实例已经关机
not-now-already-running = 实例已在运行
not-now-released-nothing-to-start = 实例已释放：没有可开机的
not-now-released-no-deadline = 实例已释放：没有可调整的截止时间

# 演示模式的头两条事件。
demo-ready = 演示云已就绪：{ $id }（{ $name }）
demo-outlive = 有 3 个快照和一块 2000 GiB 的磁盘会在释放后保留

# 驾驶舱重新启动看门狗、或放弃它的原因。已结束的看门狗的原因跟在它的 pid 后面。
watchdog-cannot-start = 无法启动看门狗：{ $error }
watchdog-pid-why = 看门狗（pid { $pid }）{ $why }
watchdog-did-not-take-up = 看门狗（pid { $pid }）在 { $seconds } 秒内没有接手守护
watchdog-lock-free = 看门狗（pid { $pid }）已消失：没有进程持有它的锁
watchdog-went-silent = 看门狗（pid { $pid }）无响应：已 { $seconds } 秒没有检查
watchdog-after-restarts = { $why }，{ $minutes } 分钟内已重启 { $restarts } 次
watchdog-ended = 已结束（{ $status }）
watchdog-not-waited = 无法等待其结束（{ $error }）
watchdog-process-ended = 已消失：其进程已结束

# 倒计时下方：为什么没有谁执行截止时间，以及怎样才会有。
unenforced-no-provider = 未配置云服务商，没有谁能关机或释放实例
unenforced-fix-provider = `gpumeter init` 可写一份配置，或传入 --provider
unenforced-down = 没有运行看门狗：{ $why }
unenforced-not-running = 它的看门狗（pid { $pid }）没有在运行
unenforced-no-watchdog = 没有运行看门狗
unenforced-fix-watchdog = 用 `{ $command }` 启动一个（或保持驾驶舱开着）

# 不完整的合计（带或不带币种）；说明里两句话之间的分隔。
partial-total = ≥ { $known } + { $count } 项未知
partial-total-currency = ≥ { $known } { $currency } + { $count } 项未知
sentence-gap = {""}

# The GPU panel while the instance runs without its GPUs.
gpus-none-by-choice = 无 GPU，符合预期：实例以无卡模式运行，按无卡模式价格计费

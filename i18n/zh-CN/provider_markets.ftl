# Lambda、Vast、RunPod、command 适配器，以及所有适配器共用的部分：它们自己说的话，包括回读、删除与失败。

# 适配器自己没有办法时的默认说法
prov-unsupported-sweep = 扫描整个账号（此适配器尚未实现）
prov-unsupported-instances = 列出账号的实例（请改在 [[fleet]] instances 中逐一列出）
prov-unsupported-delete = 删除{ $kind }（此适配器尚未实现）

# 单密钥云的 JSON API：拒绝、与文档不符的响应、回读
prov-api-key-rejected = { $provider } 拒绝了 API 密钥（HTTP { $status }）：请检查 { $var }
prov-api-malformed-call = { $call }：响应不是文档所述的 JSON（{ $what }）
prov-api-malformed = 响应不是文档所述的 JSON（{ $what }）
# $key 是响应中的 JSON 键（data、pods、volumes）
prov-answer-no-list = 没有 { $key } 列表
prov-answer-no-field = 没有 { $key }
# $verb 是云服务商自己的操作名（terminate、destroy、stop）
prov-read-back-failed = { $verb } 已受理，但回读失败：{ $error }
prov-removal-gone = 删除已受理；{ $provider } 已不再列出该{ $what }
prov-removal-still-listed = { $provider } 仍列出该{ $what }
prov-removal-read-back-failed = 删除已受理，但回读失败：{ $error }
# 报告或 --dry-run 计划中的一次调用，以及如何回读
prov-call-read-back = { $call }   （回读）
prov-call-read-back-until = { $call }   （回读，直到不再列出 { $id }）
prov-no-instance = { $name }：未指定{ $what }：请传入 --instance ID、设置 [instance] id，或在{ $inside }内运行（{ $var }）
prov-no-instance-fix = 请传入 --instance ID 或设置 [instance] id（在{ $inside }内，由 { $var } 指明）
# 密钥无权进行的列举：什么未知，以及原因
prov-gap = { $what }：{ $error }
prov-no-snapshots = 管理快照（{ $why }）
prov-no-deadline = 托管释放截止时间（{ $provider } 没有服务端截止时间）

# 清理：逐个删除，共用一个时限
prov-cleanup-image-stayed = 未尝试：使用它的镜像 { $image } 未被删除
prov-cleanup-ran-out = 未尝试：清理的 { $seconds } 秒时限在轮到 { $id } 之前已用完
prov-cleanup-no-answer = 在整个清理的时限 { $seconds } 秒内，删除 { $id } 没有得到响应：它可能仍在进行；`gpumeter sweep` 会显示云服务商现在列出的内容
prov-cleanup-not-confirmed = { $id }：未确认：{ $summary }
prov-cleanup-failed = { $id }：{ $error }
prov-cleanup-summary = { $total } 项中已删除并回读确认 { $done } 项
prov-cleanup-summary-first = { $summary }；{ $first }
prov-cleanup-and-more = { $summary }（另有 { $more } 项）
prov-cleanup-not-here = 以一次调用完成清理（清理逐个删除）

# 删除实例可能在用的资源：先解除占用，再证明其已不存在。
# $what 是资源的描述（disk d-1），$free 和 $delete 是云服务商的调用名。
prov-free-unlisted-user = { $what } 现在由 { $on } 使用，而云服务商并未将其列为实例：未解除占用，未删除
prov-free-shown-free = 未被占用
prov-free-shown-on = 挂在 { $instance } 上
prov-free-moved = { $what } 现在由实例 { $on }（{ $state }）使用，而计划中显示它{ $shown }：未解除占用，未删除
prov-free-in-use = { $what } 正被实例 { $on } 使用，该实例处于 { $state }：未解除占用，未删除
# 如何证明它已不存在
prov-gone-not-found = 云服务商对其 ID 回答 not found
prov-gone-unlisted = 云服务商连续 { $reads } 次读取都未列出它
prov-gone-state = 云服务商回读其状态为 `{ $state }`
# 云服务商的表现，接在“云服务商”之后
prov-said-listed = 仍列出它（{ $state }）
prov-said-gone = 显示它已不存在（{ $how }）
prov-said-unread = 回读失败（{ $error }）
prov-delete-unread = 删除前无法读取 { $what }（{ $error }）：未发送任何请求
prov-delete-user-unread = { $what } 由 { $on } 使用，而无法读取其状态（{ $error }）：未解除占用，未删除
prov-free-accepted = 从 { $on } { $free } 已受理
prov-free-failed = 从 { $on } { $free } 失败（{ $error }）
prov-free-not-freed = { $outcome }，但云服务商{ $said }：{ $what } 未删除
prov-delete-not-found = { $what } 已不存在：云服务商对 { $delete } 回答 not found（{ $error }）
prov-deleted = { $what } 已删除：{ $how }
prov-delete-accepted-but = { $delete } 已受理，但云服务商{ $said }
prov-deleted-unclear = { $what } 已删除：{ $delete } 没有明确的响应（{ $error }），但{ $how }
prov-delete-failed = { $delete } 失败（{ $error }）；云服务商{ $said }

# 演示云
prov-demo-reset-fix = 用 `gpumeter --demo --reset` 重新开始
prov-demo-not-a-cloud = { $path } 不是演示云（{ $error }）；请用 `gpumeter --demo --reset` 重新开始
prov-demo-io-fix = 请检查 { $path } 是否可写（--data-dir），或用 `gpumeter --demo --reset` 重新开始
prov-demo-cleanup-one-at-a-time = 清理一次删除一个资源
prov-demo-already-released = 已经释放
prov-demo-released = 已释放
# “未在运行”/“未停止”，以及停止或启动的结果
prov-demo-was-running = 运行
prov-demo-was-stopped = 停止
prov-demo-stopped = 已停止
prov-demo-started = 已启动
prov-demo-not = 实例并未{ $was }（{ $state }）
prov-demo-deadline-cancelled = 已取消截止时间
prov-demo-deadline = 截止时间 { $at }
prov-demo-snapshots-cleaned = 删除了 { $deleted } 个快照，保留 { $kept } 个
prov-demo-no-such = 演示云中不存在 { $id }
prov-demo-in-use-running = { $id } 正被运行中的实例 { $instance } 使用
prov-demo-in-use-image = { $id } 正被镜像 { $image } 使用
prov-demo-the-instance = 演示实例
prov-demo-call-read-back = demo：回读 { $target }
prov-demo-call-detach = demo：将 { $id } 从 { $on } 卸载
prov-demo-call-delete = demo：删除{ $kind } { $id }
prov-demo-gone = { $id } 已不再列出
prov-demo-still-listed = { $id } 仍被列出

# 密钥对云的文件与环境变量、HTTP、INI 文件、未配置云服务商
prov-cli-file-unreadable = 无法读取 { $path }：{ $error }
prov-cli-file-malformed-at = { $path } 格式有误（第 { $line } 行，第 { $column } 列）：应为 { $expected }
prov-cli-file-malformed = { $path } 格式有误：应为 { $expected }
prov-cli-file-fix = 请修正或删除 { $path }
prov-base-url-not-http = { $var } 必须是 http:// 或 https:// URL，而不是 `{ $base }`
prov-base-url-fix = 请将 { $var } 设为 http:// 或 https:// URL，或取消设置
prov-http-timeout = { $after } 后超时
prov-http-connect = 无法连接：{ $error }
prov-http-failed = 请求失败：{ $error }
prov-http-no-attempt = 未进行任何尝试
prov-ini-bad-header = 节标题必须是 `[name]`
prov-ini-bad-line = 应为 `[section]` 或 `key = value`
prov-ini-no-name = 设置项在 `=` 之前需要名称
prov-ini-no-section = 设置项出现在任何 `[section]` 之前
prov-none-fix = 请在配置中设置 [instance] provider（可选 { $ids }），或试试 --demo

# 实例角色的密钥；主语是角色的服务（“the ECS RAM role at ...（……）”）
prov-role-not-a-name = 列出的角色名不是有效的角色名
prov-role-not-ready = 称角色密钥尚未就绪（Code `{ $code }`）
prov-role-status = 响应 HTTP { $status }
prov-role-field-empty = { $who } 发送的密钥有字段为空：应为 { $expected }
prov-role-not-expected = 发送的角色密钥不是 { $expected }
prov-role-no-expiry = { $no_expiry }：应为 { $expected }
prov-role-no-keys = 未提供任何密钥

# Lambda Cloud
lambda-no-instance = lambda：未指定实例：请传入 --instance ID 或在配置中设置 [instance] id（Lambda 没有元数据服务，也没有实例的主机名与本机相同）
lambda-no-instance-fix = 请传入 --instance ID 或在配置中设置 [instance] id
lambda-answer-no-instance = 没有实例
lambda-already-gone = 已经释放：Lambda 已不再列出此数据目录见过的实例
lambda-already-terminated = 已经释放（`terminated`）
lambda-terminated-gone = terminate 已受理；Lambda 已不再列出它
lambda-terminated = terminate 已受理；Lambda 回读为 `terminated`
lambda-reads-back = Lambda 回读为 `{ $status }`
lambda-plan-instance = <主机名与本机相同的实例>
lambda-no-stop = 停止或启动（Lambda Cloud 没有停止或暂停：实例在终止前一直计费）
lambda-no-snapshots = Lambda Cloud 没有快照
lambda-delete-unsupported = 删除{ $kind }（Lambda Cloud 在实例之外只对文件系统计费）

# Vast.ai
vast-word-instance = 实例
vast-word-container = 容器
vast-answer-no-id-or-status = 没有实例 ID 或状态
vast-answer-too-many-pages = 超过 { $pages } 页
vast-no-status = 无状态
vast-already-gone = 已经销毁：Vast 已不再列出此数据目录见过的实例
vast-destroyed-nothing-to = Vast 已不再列出该实例：它已被销毁；无需 { $verb }
vast-already-stopped = 已经停止（`{ $status }`）
vast-already-running = 已经在运行（`{ $status }`）
vast-destroyed = destroy 已受理；Vast 已不再列出它
vast-not-listed = Vast 已不再列出该实例
vast-accepted-reads-back = { $verb } 已受理；Vast 回读为 `{ $status }`
vast-reads-back = Vast 回读为 `{ $status }`
vast-gap-volumes = 卷未知（若有，销毁实例后仍会保留）
vast-gap-volumes-listing = 卷未知
vast-no-snapshots = Vast.ai 不对快照计费；其容器快照存入你自己的镜像仓库
vast-delete-unsupported = 单独删除{ $kind }（实例的存储随实例销毁而删除：请释放实例）
vast-sheet-source = { $source }；存储和带宽按 Vast.ai API 给出的该主机自定费率计

# RunPod；$action 是 RunPod 自己的操作（terminate、stop、start）
runpod-word-pod = Pod
runpod-answer-no-pod = 没有 Pod
runpod-gone-nothing-to = RunPod 已不再列出该 Pod：它已被终止；无需 { $action }
runpod-already-gone = 已经终止：RunPod 已不再列出此数据目录见过的 Pod
runpod-terminated-nothing-to = 已被终止；无需 { $action }
runpod-already-terminated = 已经终止（`TERMINATED`）
runpod-already-stopped = 已经停止（`EXITED`）
runpod-already-running = 已经在运行（`RUNNING`）
runpod-accepted-gone = { $action } 已受理；RunPod 已不再列出它
runpod-not-listed = RunPod 已不再列出该 Pod
runpod-accepted-reads-back = { $action } 已受理；RunPod 回读为 `{ $status }`
runpod-reads-back = RunPod 回读为 `{ $status }`
runpod-refused = { $action } 被拒绝（{ $error }）；{ $summary }
runpod-gap-volumes = 网络卷未知（若有，释放后仍会保留）
runpod-gap-volumes-listing = 网络卷未知
runpod-no-snapshots = RunPod 没有快照
runpod-delete-unsupported = 单独删除{ $kind }（Pod 的磁盘随 Pod 终止而删除：请释放 Pod）

# command 适配器；$key 是 [command] 的键（inventory、list_account），$action 是操作的标签
cmdp-no-start = 启动已停止的实例
cmdp-no-cancel = 取消截止时间（extend 命令只能设置截止时间）
cmdp-not-set = { $action }（请在配置中设置 [command] { $key }）
cmdp-no-inventory = 列出计费项（请在配置中设置 [command] inventory）
cmdp-no-delete = 删除{ $kind }（请在配置中设置 [command] delete）
cmdp-no-list-account = 扫描整个账号（请在配置中设置 [command] list_account）
cmdp-call-inventory = inventory 命令
cmdp-call-list-account = list_account 命令
cmdp-bad-json = { $key } 命令输出的 JSON 不符合格式：{ $error }
cmdp-bad-json-fix = 请让 [command] { $key } 输出文档所述的 JSON（见 docs/providers/command.md）
cmdp-not-an-account = 应为 {"{"}"resources": [...]{"}"}：{ $error }
cmdp-not-a-size = `{ $value }` 不是大小或金额
cmdp-not-an-amount = `{ $value }` 不是金额
cmdp-spawn-fix = 请检查配置中 [command] 的程序及其路径
cmdp-timeout-fix = 命令运行超过了 [command] timeout：请调大它，或查看命令在等待什么
cmdp-unfilled-instance = 没有实例 ID：请设置 [instance] id 或传入 --instance
# $slot 是原样写出的占位符（{keep}）
cmdp-unfilled = { $slot } 没有值
cmdp-cannot-run = （无法运行：{ $why }）
cmdp-run-spawn = 无法启动 `{ $program }`：{ $reason }
cmdp-run-timeout = `{ $program }` 未在 { $after } 内结束，已被终止
cmdp-run-failed = `{ $program }` 失败（{ $status }）
cmdp-run-failed-said = `{ $program }` 失败（{ $status }）：{ $stderr }
cmdp-run-empty = 命令为空
cmdp-run-signal = 被信号终止
cmdp-run-exit-status = 退出状态 { $code }
# 操作之后 inventory 命令显示的内容
cmdp-shows-no-instance = 没有实例
cmdp-shows-no-deadline = 没有截止时间
cmdp-shows-deadline = 截止时间 { $at }
cmdp-shows = { $instance }，{ $snapshots } 个快照，{ $deadline }
cmdp-call-read-back = { $key } 命令（回读）
cmdp-call-read-back-effect = { $call }（回读，直到显示出效果）
cmdp-call-read-back-until = { $call }（回读，直到不再列出 { $id }）
cmdp-done-unverified = { $action } 命令以 0 退出：按退出状态视为完成；未经验证（没有 [command] inventory 可供回读）
cmdp-confirmed = inventory 命令确认了 { $action }：{ $shows }
cmdp-exited-but-shows = { $action } 命令以 0 退出，但 inventory 命令显示 { $shows }
cmdp-failed-shows = { $error }；inventory 命令显示 { $shows }
cmdp-exited-read-back-failed = { $action } 命令以 0 退出，但回读失败（{ $error }）
cmdp-delete-unverified = delete 命令以 0 退出：按退出状态视为完成；无法验证（没有 [command] list_account 或 inventory 可供回读）
cmdp-delete-never-listed = delete 命令以 0 退出；无法验证：删除前 inventory 命令并未列出 { $id }（请设置 [command] list_account）
cmdp-delete-confirmed = 删除已确认：{ $key } 命令已不再列出它
cmdp-delete-still-listed = delete 命令以 0 退出，但 { $key } 命令仍列出它
cmdp-delete-read-back-failed = delete 命令以 0 退出，但回读失败（{ $error }）
prov-role-place-why = { $place }（{ $why }）

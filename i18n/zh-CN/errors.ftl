# gpumeter 的错误及修复方法的简体中文，即 stderr 上 `gpumeter: ` 之后的内容。云服务商自己的错误码和
# 消息、路径、参数、环境变量和命令保持原样。

# 程序
err-core-dumps-on = 警告：核心转储仍处于开启状态：{ $error }
# 输出：`gpumeter: 修复 (kind)：...`；kind 一词在所有语言中相同，便于脚本匹配
err-fix-line = 修复 ({ $kind })：{ $fix }
err-usage = 用法：{ $usage }（更多信息见 --help）
err-more-with-help = 更多信息见 --help

# 消息中的列表
err-list-sep = {"、"}
err-list-and = { $init } 和 { $last }

# 云服务商的错误：发生了什么
err-provider-missing = 缺少凭证：请设置 { $name }
err-provider-missing-looked = 缺少凭证：请设置 { $name }（已查找：{ $tried }）
err-provider-refused = { $provider } 拒绝了 { $what }{ $answer }；请检查 { $check }
err-provider-expired = { $provider } 称 { $what } 已过期{ $answer }；请更新 { $check }
err-provider-clock = { $provider } 拒绝了请求的时间{ $answer }；请检查本机时钟
err-provider-unsupported = { $provider } 无法执行：{ $what }
err-provider-state = 无法读取云服务商的状态：{ $detail }

# 云服务商的错误：如何修复
err-fix-missing = 请设置 { $name }
err-fix-missing-looked = 请设置 { $name }（已查找：{ $tried }）
err-fix-refused = 请检查 { $check }；{ $provider } 拒绝了 { $what }
err-fix-expired = 请更新 { $check }；{ $what } 已过期
err-fix-clock = 请校准本机时钟（NTP）；{ $provider } 拒绝了请求的时间
err-fix-permission = 密钥缺少 { $action } 权限；请在 { $policy } 中授予
err-fix-permission-call = 密钥无权调用 { $call }；请在 { $policy } 中授予
err-fix-permission-any = 密钥缺少某项权限；请在 { $policy } 中授予
err-fix-throttled-wait = 请等待 { $seconds } 秒后重试；{ $provider } 正在限制请求频率
err-fix-throttled = 请稍后重试；{ $provider } 正在限制请求频率
err-fix-instance-id = 请检查实例 ID（--instance 或 [instance] id）
err-fix-rejected = 请修改请求；{ $provider } 不接受当前的请求
err-fix-rejected-code = { $provider } 拒绝了请求（{ $code }）；详见其消息
err-fix-unsupported = 无需修复：{ $provider } 没有办法执行此操作
err-fix-state = { $provider } 的响应不符合 gpumeter 的预期：请重试，若持续出现请报告
err-fix-unreachable-code = { $provider } 自身出现故障（{ $code }）：请稍后重试，或查看其状态页
err-fix-unreachable = 请检查到 { $provider } 的网络，然后重试

# 各云服务商授予权限的位置
err-grant-at-aws = IAM
err-grant-at-alibaba = RAM
err-grant-at-tencent = CAM
err-grant-at-lambda = Lambda Cloud 控制台
err-grant-at-runpod = 该密钥的 RunPod 权限设置
err-grant-at-vast = 该密钥的 Vast.ai 权限设置
err-grant-at-autodl = AutoDL 账号的实名认证
err-grant-at-command = 该命令自身的配置
err-grant-at-demo = 演示设置
err-grant-at-unknown = 云服务商的访问设置

# 命令行自身的拒绝和输入错误
err-runtime = 无法启动运行时：{ $error }
err-no-bundled-sheet = --provider：没有名为 `{ $id }` 的内置价格表；内置价格表有 { $ids }
err-gpus-without-demo = --gpus 只能与 --demo 一起使用：不加 --demo 时，通过 NVML 读取真实的 GPU
err-sku-needs-sheet = --sku 需要价格表：请加上 --provider NAME 或 --sheet FILE
err-cockpit-needs-terminal = 驾驶舱需要终端；脚本请使用 `gpumeter status --json`
err-release-at = --release-at：`{ $text }` 不是 18:30 这样的时钟时间
err-flag-before-command = { $flag } 放在 `{ $name }` 之前不起作用：请放在后面，如 `gpumeter { $name } { $flag } ...`
err-flag-of-the-cockpit = { $flag } 是驾驶舱的参数（`gpumeter { $flag } ...`，不带子命令）；`{ $name }` 不接受它

# 时长，跟在接受它的参数或设置之后
err-duration-negative = `{ $text }` 是负数：时长必须大于等于 0
err-duration-too-large = `{ $text }` 太长：可接受的最长时长为 { $max }h（10 年）
err-duration-malformed = `{ $text }` 不是时长：请写成 8h、45m、90s 或 1h30m 这样的形式
err-duration-zero = `{ $text }` 为零：此时长必须大于零

# release、stop、start、snapshot-clean、cleanup、extend
err-read-only = 拒绝{ $action }：只读模式（--read-only 或配置中的 read_only）
err-read-only-extend = 拒绝延长：只读模式
err-verb-clean-up = 清理
err-no-terminal = 未经确认拒绝{ $action }：没有可供询问的终端；请加上 --yes
err-cannot-read-answer = 无法读取回答：{ $error }
err-cancelled = { $action }：已取消
err-nothing-to-do = { $action }：无需操作；按 { $provider } 当前的读数，{ $why }。`gpumeter checklist` 会显示仍在计费的资源。
err-action-failed = { $action }失败
err-not-confirmed = { $action }：未确认；云服务商报告 { $summary }
err-no-answer = { $action }：未确认；{ $provider } 在 { $seconds } 秒内没有回应。操作可能仍在进行，或只完成了一部分：`gpumeter checklist` 会显示云服务商当前的状态
err-extend-failed = 延长失败；账本保留原截止时间
err-extend-not-confirmed = extend：未确认；账本保留原截止时间；云服务商报告 { $summary }
err-nothing-to-extend = 无可延长：按 { $provider } 当前的读数，{ $why }
err-no-instance-to-extend = 没有可延长的实例：请用 --instance 指定

# 操作无需执行的原因
err-already-released = 实例已经释放
err-released-nothing-to-stop = 实例已释放：没有可关机的对象
err-already-stopped = 实例已经关机
err-already-running = 实例已经在运行
err-released-nothing-to-start = 实例已释放：没有可开机的对象
err-released-no-deadline = 实例已释放：没有可推迟的截止时间

# 配置文件：跟在 文件:行:列 和键名之后；TOML 解析器自己的措辞保持英文
err-config-read = 无法读取配置文件 { $path }：{ $error }
err-config-percent = `{ $value }` 不是百分比：应为 0 到 100 之间的数
err-config-clock-time = `{ $text }` 不是时钟时间：请写成 18:30 这样的形式
err-config-amount = `{ $text }` 不是金额：请写成 "12.50" 这样的形式
err-config-amount-float = 金额请写成字符串（"{ $value }"）或整数，不要写成浮点数，以保持精确
err-config-amount-zero = `{ $amount }` 不大于零：此值必须大于零
err-config-sheet-empty = 价格表为空：请填写内置价格表的名称或文件
err-config-release-both = release_in 和 release_at 只能设置一个
err-config-currency = 预算的币种是 { $budget }，但价格表 `{ $sheet }` 以 { $priced } 计价；应为 { $priced }（或不写币种，沿用价格表的）
err-config-refresh = { $refresh } 太快：刷新间隔至少为 100ms
err-config-secret-in-env = { $name } 含有凭证：请把密钥保存在云服务商的凭证文件中，并在此处写其 profile 名称（AWS_PROFILE、ALIBABA_CLOUD_PROFILE 等）
err-config-hooks-zero = 0 会让所有钩子都不触发：请写 1 或更大的数

# 价格表：跟在 文件:行:列 之后
sheet-cannot-read = 无法读取价格表：{ $error }
sheet-missing-key = 缺少键 `{ $key }`，应为{ $expected }
sheet-for-new-sku = { $expected }（新 SKU `{ $name }`）
sheet-not-a-number = `{ $key }` 为 { $written }，应为数字，例如 0.09 或 "0.09"
sheet-number-too-large = `{ $key }` 为 { $written }，应为不大于 { $max }、最多 28 位小数的数字
sheet-not-finite = `{ $key }` 为 { $written }，应为有限的数字
sheet-inexact-float = `{ $key }` = { $text } 有 { $digits } 位有效数字，超过 TOML 浮点数能精确保存的位数（{ $max }）；请把价格写在引号中："{ $text }"
sheet-negative-price = `{ $key }` 为 { $amount }，价格应大于等于 0
sheet-negative = `{ $key }` 为 { $amount }，应大于等于 0
sheet-zero = `{ $key }` 为 0，应为至少 1 的整数
sheet-empty-text = `{ $key }` 为空，应有文字
sheet-stop-policy-word = `stop_policy` 为 "{ $word }"，应为 "keep-charging"、"stop-charging"，或 0 到 1 之间的计算价格比例
sheet-stop-policy-fraction = `stop_policy` 的比例 { $fraction } 不在 0..=1 内，应为 "keep-charging"、"stop-charging"，或 0 到 1 之间的计算价格比例
sheet-unknown-unit = `network.unit` 中的单位 "{ $unit }" 未知，应为 "GiB"（2^30 字节）或 "GB"（10^9 字节）
sheet-not-a-date = `as_of` 不是日期，应为 2026-01-21 这样的日期
sheet-unknown-extends = `extends` 中的价格表 `{ $id }` 未知，应为以下之一：{ $known }
sheet-currency-changed = `currency` 为 { $currency }，但 `{ $base }` 以 { $priced } 计价；应为 { $priced }（继承其他价格表的价格表沿用其币种）
sheet-unit-changed = `network.unit` 为 "{ $unit }"，但 `{ $base }` 按 { $priced } 计价流量；应为 "{ $priced }"（继承其他价格表的价格表沿用其流量单位）
sheet-other-label = 一个名称，例如 "port mapping"
sheet-other-one-price = `[[extras.other]]` "{ $label }" 需要 `per_hour`（实例开机时）和 `per_month`（实例存在时）二者之一，且只能有一个
sheet-expect-discount = `months`（至少 1）和小于 1 的折扣比例 `off`，例如 months = 3, off = "0.15"
sheet-bad-discount = `[[billing.duration_discount]]` 对 { $months } 个月折扣 { $off }；折扣须小于 1，且每个月数只能出现一次
sheet-duplicate-sku = SKU `{ $name }` 出现了两次（第一次在第 { $line } 行），每个 SKU 名称只能出现一次
sheet-no-price = SKU `{ $name }` 没有价格，至少需要 `on_demand_per_hour`、`spot_per_hour`、`monthly` 或 `compute_units_per_hour` 之一

# 价格表中缺少的键应填写的内容
sheet-expect-id = 价格表 id
sheet-expect-provider = 云服务商名称，例如 "aws"
sheet-expect-currency = 币种代码，例如 "USD" 或 "CNY"
sheet-expect-as-of = 读取价格的日期，例如 2026-01-21
sheet-expect-source = 价格的来源（URL 或代码仓库）
sheet-expect-step = 以秒为单位的计费步长（1、60 或 3600）
sheet-expect-minimum = 以秒为单位的最低计费时长（没有则为 0）
sheet-expect-stop-policy = "keep-charging"、"stop-charging"，或 0 到 1 之间的比例
sheet-expect-egress = 发往互联网的每 GiB（或 GB）价格；出网免费时为 0，未知时为 "unknown"
sheet-expect-disk = 该类磁盘每 GiB 每月的价格
sheet-expect-sku-name = SKU 名称，例如 "g5.xlarge"
sheet-expect-gpu-model = GPU 型号
sheet-expect-gpu-count = GPU 数量
sheet-expect-gpu-memory = 每块 GPU 的显存，单位 GiB
sheet-expect-unit-price = 一个计算单位的价格，写在此 SKU 或 [billing] 中
sheet-expect-units = 此 SKU 每小时使用的计算单位数，因为它给出了 `compute_unit_price`

# 账本和数据目录
err-no-data-dir = 没有用户主目录可存放数据：请传入 --data-dir DIR 或设置 GPUMETER_DATA_DIR
err-not-recorded = { $action }未记入账本：{ $error }
err-ledger-busy = 账本 { $path } 被另一个进程锁定（等待 { $ms } ms 后仍忙）；是否有另一个 gpumeter 正在写入？文件保持原样
err-ledger-read-only = 账本 { $path } 是只读的，gpumeter 不会写入：请使其可写，或传入 --data-dir DIR 把历史记录保存到别处
err-ledger-corrupt = 账本 { $path } 已损坏（{ $detail }）；文件未被改动：请将其移走以开始新的历史记录，或恢复备份
err-ledger-newer = 账本 { $path } 的结构版本为 { $found }，比此 gpumeter 所知的（{ $known }）更新；文件未被改动：请升级 gpumeter，或传入 --data-dir DIR
err-ledger-not-a-ledger = { $path } 是 SQLite 数据库，但不是 gpumeter 账本；文件未被改动
err-ledger-io = 无法使用账本 { $path }：{ $error }
err-ledger-bad-value = 账本 { $path } 中有 gpumeter 无法读取的值：{ $detail }
err-ledger-sqlite = 账本 { $path }：{ $error }
err-ledger-writer-gone = 账本写入进程已停止；无法再记录任何内容

# estimate、report 和 audit
err-hours-per-day = --hours-per-day 必须在 0 到 24 之间，实际为 { $got }
err-days = --days 必须大于 0，实际为 { $got }
err-at-least-one = { $flag } 至少为 1
err-not-negative = { $flag } 不能为负数
err-checkpoint-zero = --checkpoint-every 必须大于 0，例如 30m 或 1h
err-inline-with-sheet = { $flag } 用于直接给出的价格，不能与价格表同时使用；请去掉它，或去掉 --provider/--sheet
err-sku-required = 使用价格表时必须给出 --sku；`gpumeter pricing list` 会列出 `{ $sheet }` 的 SKU
err-no-price = 没有价格：请给出 --rate、--monthly 或 --spot-rate，或用 --provider/--sheet 指定价格表并给出 --sku
err-currency-required = 直接给出价格时必须指定 --currency（例如 --currency USD）
err-inline-needs = 直接给出价格时，{ $flag } 需要 { $needs }：直接给出的参数只为计算、出网流量和存储计价
err-not-with-compare = { $flag } 只为一个价格表计价，不能与 --compare 同时使用
err-since-before-until = --since（{ $since }）必须早于 --until（{ $until }）
err-no-history = 还没有花费历史：{ $path } 不存在（驾驶舱运行时会记录；可试试 `gpumeter report --demo`）
err-no-ledger = 还没有账本：{ $path } 不存在（驾驶舱运行时会记录；可试试 `gpumeter audit --demo`）
err-audit-no-period = { $flag }：账单中没有可确定区间的账单行；请给出 --since 和 --until
err-tolerance = --tolerance：应为大于等于 0 的百分比

# verify、status、sweep、pricing、cleanup 和 init
err-seconds = --seconds：{ $seconds } 不在 1 到 { $max } 之间
err-percent = { $flag }：{ $pct } 不是 0 到 100 之间的百分比
err-fail-above-warn = 失败线（{ $fail } %）高于警告线（{ $warn } %）：指标不能在只应警告的地方判为失败
err-demo-only = { $flag } 只能与 --demo 一起使用
err-sheet-needs-sku = --provider 和 --sheet 需要配合 --sku
err-no-sheet-has-sku = 没有内置价格表含有 SKU `{ $name }`；请用 --provider 或 --sheet 指定价格表
err-sku-in-several-sheets = SKU `{ $name }` 出现在多个 GPU 不同的价格表中（{ $ids }）；请用 --provider 选择一个
err-all-regions-and-region = --all-regions 会扫描账号的所有地域：请只给出它或 --region 之一
err-provider-and-sheet = --provider 和 --sheet 都指定了价格表；请只给一个
err-cleanup-what = cleanup：请说明要删除什么：--id、--kind、--older-than、--tag、--unattached 或 --all（`gpumeter sweep` 会列出仍在计费的资源）
err-no-config-dir = 没有用户主目录可存放配置：请给出 --config PATH
err-config-exists = { $path } 已存在，保持原样：传入 --force 可替换它
err-more-than-zero = { $flag }：必须大于零
err-not-a-policy = { $flag }：`{ $text }` 不是 alert、stop、release 之一
err-deadline-clock = --deadline：`{ $text }` 不是时钟时间：请写成 18:30 这样的形式

# 消息中云服务商的名称（FOCUS 使用英文名称）
err-provider-name-demo = gpumeter 演示云
err-provider-name-aws = AWS
err-provider-name-alibaba = 阿里云
err-provider-name-tencent = 腾讯云
err-provider-name-lambda = Lambda Cloud
err-provider-name-runpod = RunPod
err-provider-name-vast = Vast.ai
err-provider-name-autodl = AutoDL
err-provider-name-command = 该命令

# cleanup 的拒绝，以及确认后发生变化的快照计划
err-cleanup-not-listed = 云服务商当前列出的资源中没有：{ $ids }
err-cleanup-an-instance = 实例要释放，而不是清理：`gpumeter release --instance { $id }` 会先提供为其磁盘做最终快照的选项
err-cleanup-attached-running = 挂载在正在运行的 { $on } 上：请先关机或释放它
err-cleanup-image-uses = 镜像 { $image } 使用它：请连同镜像一起删除（--id { $image }），或保留它
err-snapshots-changed = 自确认以来快照已发生变化
err-snapshots-also = ；现在还会删除 { $ids }
err-snapshots-no-longer = ；现在不再删除 { $ids }
err-snapshots-nothing-deleted = ；未删除任何快照：请重新查看并确认新的计划

# 云服务商没有列出、本数据目录也从未在该处见过的实例
err-seen-place = 地域 { $region }（{ $endpoint }）
err-seen-settings-region = --instance 和 --region（或配置中的 [instance] id 和 region）
err-seen-settings-endpoint = --instance（或配置中的 [instance] id）和 endpoint
err-seen-never = 实例 { $instance } 不在 { $place } 的列表中，本数据目录也从未见过它：不视为已释放，未做任何改动
err-seen-never-fix = 请检查 { $settings }：在 { $place } 查找了 { $instance }
err-seen-elsewhere = 实例 { $instance } 不在 { $place } 的列表中，本数据目录只在地域 { $regions } 见过它：不视为已释放，未做任何改动
err-seen-elsewhere-fix = 请检查 --region（或配置中的 [instance] region）：在地域 { $region } 查找了 { $instance }，但它出现在 { $regions }

# 违反规则的场景文件（--scenario）：每条都按文件中的写法给出键名
scenario-not-percent = { $key } = { $value } 不在 0 到 100 之间
scenario-negative = { $key } = { $value } 必须大于或等于 0
scenario-not-share = { $key } = { $value } 必须大于 0 且不超过 1
scenario-not-reach = { $key } = { $value } 不在 0 到 1.5 之间
scenario-not-width = { $key } = { $value } 不是 PCIe 链路宽度
scenario-between = { $key } 必须在 { $low } 到 { $high } 之间
scenario-at-most = { $key } 不能超过 { $high }
scenario-zero-or-more = { $key } 必须大于或等于 0
scenario-more-than = { $key } 大于 { $limit }
scenario-above = { $key } 高于 { $limit }
scenario-gen-up-to = card.pcie_gen 和 card.pcie_gen_max 最大为 { $high }
money-currency-mismatch = 无法把 { $left } 与 { $right } 合在一起计算：两种币种的金额

# gpumeter 命令行的简体中文：`--help` 和手册页。id 与 i18n/en/cli.ftl 相同：命令的路径，再加
# `about`、`after-help` 或 `arg-` 与参数的 id；`cli-common-arg-` 是在各命令中含义相同的参数。
# 示例中的命令、参数名、单位和取值保持原样。

# clap 自己的词
cli-clap-usage = 用法:
cli-clap-commands = 命令
cli-clap-options = 选项
cli-clap-arguments = 参数
cli-clap-help = 显示帮助
cli-clap-help-more = 显示帮助（'--help' 查看详细说明）
cli-clap-help-summary = 显示帮助（'-h' 查看摘要）
cli-clap-version = 显示版本
cli-clap-help-command = 显示本帮助或指定子命令的帮助
cli-clap-default = [默认：{ $value }]
cli-clap-values = [可选值：{ $values }]
cli-clap-env = [环境变量：{ $name }]
cli-man-name = 名称
cli-man-synopsis = 概要
cli-man-description = 描述
cli-man-extra = 附注
cli-man-version = 版本
cli-man-authors = 作者

# gpumeter
cli-about = 租用 GPU 的终端驾驶舱：实时遥测、分项计费表、释放倒计时，以及仍在计费资源的检查清单。
cli-after-help =
    示例：
      gpumeter --demo                          在模拟 GPU 和演示云上打开驾驶舱
      gpumeter --release-in 8h --on-expiry stop
                                               守护本实例：8 小时后关机
      gpumeter checklist --provider aws        释放后仍会计费的资源（如有则退出码 3）
      gpumeter estimate --sku p4d.24xlarge --provider aws-us-east-1 --hours-per-day 10 --days 30
      gpumeter report --since 30d              钱花在了哪里
      gpumeter completions bash > ~/.local/share/bash-completion/completions/gpumeter
cli-arg-demo = 在模拟 GPU 和模拟云上运行：无需 GPU、账号或配置
cli-arg-config = 配置文件 [默认：用户配置目录下的 config.toml]
cli-arg-theme = 驾驶舱的配色主题：dark、light、high-contrast，或主题文件
cli-arg-lang = gpumeter 显示的语言：en 或 zh-CN [默认：[ui] language，其次 LC_ALL、LC_MESSAGES、LANG]。JSON、CSV 和指标名在任何语言下都不变，带 --json 的运行全部使用英文
cli-arg-no-color = 驾驶舱不使用颜色（设置了环境变量 NO_COLOR 时也是如此）
cli-arg-data-dir = 账本和演示云状态的存放位置 [默认：用户数据目录]
cli-arg-read-only = 隐藏所有破坏性按键，并拒绝破坏性命令
cli-arg-reset = 与 --demo 一起使用：重新开始演示云
cli-arg-scenario = 与 --demo 一起使用：遥测场景（training、idle、cpu-bound、memory-leak、egress-burst、shared、mig-slice、power-capped、throttled、pcie-degraded），或以 .toml 结尾的场景文件 [默认：training]
cli-arg-gpus = 与 --demo 一起使用：模拟多少块 GPU，1 到 8 [默认：8]
cli-arg-release-in = 从现在起多久后为释放截止时间（8h、45m、90s、1h30m）；覆盖配置
cli-arg-release-at = 释放截止时间为下一个 18:30 这样的时刻，按配置的 `timezone` 的时钟（否则按 TZ，否则按系统时区）；覆盖配置
cli-arg-on-expiry = 到达截止时间时做什么：alert（告警）、stop（关机）或 release（释放）
cli-arg-grace = 截止时间过后，等多久再执行其策略（按任意键取消）[默认：2m]

# 多个命令共用的参数
cli-common-arg-cloud = 使用的云服务商 API：aws、alibaba、tencent、lambda、runpod、vast、autodl、command（[command] 一节），或 demo（等同于 --demo）
cli-common-arg-dry-run = 打印将要发出的确切调用及其后果，但不真正调用
cli-common-arg-gpus = 与 --demo 一起使用：多少块 GPU，1 到 8 [默认：1]
cli-common-arg-idle-after = 空闲（所有 GPU 和 CPU）持续这么久后执行空闲策略；覆盖 [idle]
cli-common-arg-instance = 实例 ID [默认：配置中的，否则为本机的，来自元数据服务]
cli-common-arg-json = 输出 JSON 而不是表格
cli-common-arg-kind = 只包括此类资源（可重复）
cli-common-arg-older-than = 只包括创建至少这么久的资源（30d、12h、90m）
cli-common-arg-on-idle = 实例空闲时做什么：alert（告警）、stop（关机）或 release（释放）；覆盖 [idle]
cli-common-arg-stopped-release-after = 实例停机持续这么久（如 3d、12h）后，经过宽限期将其释放；覆盖 [idle] stopped_release_after
cli-common-arg-provider = 在此内置价格表中查找 SKU（按 id，例如 aws-us-east-1）
cli-common-arg-region = 云服务商的地域 [默认：配置中的，否则为云服务商的环境变量，如 AWS_REGION]
cli-common-arg-sheet = 在此用户价格表中查找 SKU
cli-common-arg-tags = 只包括带有此标签的资源：KEY=VALUE，或只写 KEY 表示任意值（可重复；须全部匹配）
cli-common-arg-yes = 不询问：没有终端可供确认时必须加上

# gpumeter estimate
cli-estimate-about = 租用前的预算：按量、包月和竞价并列对比，并给出盈亏平衡点
cli-estimate-after-help =
    示例：
      gpumeter estimate --sku p4d.24xlarge --provider aws-us-east-1 --hours-per-day 10 --days 30
      gpumeter estimate --rate 2.50 --currency USD --gpus 8 --hours-per-day 24 --days 7
      gpumeter estimate --compare --gpu H100 --gpus 8 --hours-per-day 12 --days 30
cli-estimate-arg-provider = 按 id 指定的内置价格表（见 `gpumeter pricing list`）
cli-estimate-arg-sheet = 用户价格表（TOML）
cli-estimate-arg-sku = 按价格表计价的 SKU
cli-estimate-arg-instances = 该 SKU 的实例数
cli-estimate-arg-rate = 直接给出的每 GPU 小时按量价格（代替价格表）
cli-estimate-arg-monthly = 直接给出的每 GPU 每月包月价格（30 天，720 小时）
cli-estimate-arg-spot-rate = 直接给出的每 GPU 小时竞价价格
cli-estimate-arg-currency = 直接给出的价格所用币种（ISO 代码，例如 USD 或 CNY）；与 --compare 一起使用时，为排名合计所用的币种
cli-estimate-arg-gpus = 直接给出的价格所乘的 GPU 数；与 --compare 一起使用时，为 SKU 至少应有的 GPU 数
cli-estimate-arg-hours-per-day = 每天使用的小时数，0 到 24
cli-estimate-arg-days = 计划的天数
cli-estimate-arg-egress-gb = 整个计划期间的出网流量，单位 GB
cli-estimate-arg-egress-rate = 每 GB 出网流量的价格（覆盖价格表）
cli-estimate-arg-storage-gb = 整个计划期间保留的存储，单位 GB
cli-estimate-arg-storage-rate = 每 GB 每月的存储价格（覆盖价格表）
cli-estimate-arg-runs-per-day = 每天开机次数：每次按价格表的计费步长、最低计费和开机费计费，当天的小时数平均分配到每次
cli-estimate-arg-licenses = 运行期间按小时收费的许可证数 [默认：价格表为许可证定价时，每个实例一个]
cli-estimate-arg-bandwidth-mbps = 固定带宽，单位 Mbps（覆盖价格表的 network.fixed_bandwidth_mbps）
cli-estimate-arg-public-ips = 公网 IP：运行时绑定，其余时间闲置，覆盖整个计划
cli-estimate-arg-load-balancers = 负载均衡，计划内每小时计费
cli-estimate-arg-checkpoint-every = 竞价风险：任务多久保存一次检查点（90m、1h）；加上预期的重跑费用
cli-estimate-arg-reclaims-per-day = 每运行一天的竞价回收次数（覆盖价格表的 billing.reclaims_per_day）
cli-estimate-arg-compare = 用所有内置和已配置价格表中的每个 SKU 为计划计价，按合计排名
cli-estimate-arg-gpu = 与 --compare 一起使用：GPU 型号，宽松匹配（`A100 80GB`、`4090`）
cli-estimate-arg-fx = 汇率，FROM:TO=RATE（`USD:CNY=7.12`：1 USD = 7.12 CNY）；可重复

# gpumeter pricing
cli-pricing-about = 内置价格表和用户价格表

# gpumeter pricing list
cli-pricing-list-about = 列出内置价格表及其 SKU

# gpumeter pricing show
cli-pricing-show-about = 显示一个 SKU 的所有价格
cli-pricing-show-arg-provider = 只在此内置价格表中查找（按 id，例如 aws-us-east-1）
cli-pricing-show-arg-sheet = 在此用户价格表中查找，而不是内置价格表

# gpumeter pricing validate
cli-pricing-validate-about = 检查价格表；出错时打印文件、行、列以及期望的内容（退出码 2）

# gpumeter status
cli-status-about = GPU、主机的一次快照，以及所付费用与实际所得的对比
cli-status-after-help =
    示例：
      gpumeter status --sku p4d.24xlarge --provider aws-us-east-1 --require-cuda 12.4
      gpumeter --provider aws status --json
cli-status-arg-sku = 你租用的 SKU，用于与 NVML 报告的 GPU 对比
cli-status-arg-require-cuda = 任务需要的 CUDA 版本，例如 12.4；会报告过旧的驱动
cli-status-arg-scenario = 与 --demo 一起使用：内置场景（training、idle、cpu-bound、memory-leak、egress-burst、shared、mig-slice、power-capped、throttled、pcie-degraded），或以 .toml 结尾的场景文件 [默认：training]
cli-status-arg-gpu-model = 与 --demo 一起使用：NVML 所报的 GPU 型号 [默认：NVIDIA A100-SXM4-80GB]
cli-status-arg-seed = 与 --demo 一起使用：模拟器的种子 [默认：42]
cli-status-arg-at = 与 --demo 一起使用：自模拟开始以来的秒数 [默认：600]

# gpumeter verify
cli-verify-about = 你拿到的是付费的那块 GPU 吗：NVML 所见和一次简短基准测试，对照该卡的额定指标。退出码 0 通过，1 警告，3 失败，2 输入错误，4 没有 GPU
cli-verify-after-help =
    示例：
      gpumeter verify --sku p4de.24xlarge --provider aws-us-east-1
      gpumeter --provider aws verify --seconds 10 --json --on-fail release
      gpumeter verify --demo --scenario shared --on-fail release --dry-run
cli-verify-arg-sku = 你租用的 SKU：对照它检查 NVML 报告的 GPU，差额按其小时价计价。需要 --provider 或 --sheet
cli-verify-arg-seconds = 基准测试最长运行的秒数，1 到 600
cli-verify-arg-on-fail = 结论为失败时：alert（告警，输出到 stderr 和已配置的 webhook），或通过云服务商 stop（关机）或 release（释放）实例（对云实例，请在 `verify` 之前给出 --provider）
cli-verify-arg-dry-run = 与 --on-fail 一起使用：打印将要做什么，但什么都不做
cli-verify-arg-require-cuda = 任务需要的 CUDA 版本，例如 12.4：据此检查驱动和每块卡的计算能力
cli-verify-arg-fail-below = 指标低于该卡额定值的此百分比时判为失败 [默认：50]
cli-verify-arg-warn-below = 指标低于该卡额定值的此百分比时警告 [默认：70]
cli-verify-arg-scenario = 与 --demo 一起使用：场景（training、shared、mig-slice、power-capped、throttled、pcie-degraded 等），或以 .toml 结尾的场景文件 [默认：training]

# gpumeter checklist
cli-checklist-about = 释放后还有什么会继续计费（有则退出码 3，没有则 0）
cli-checklist-after-help =
    示例：
      gpumeter checklist --provider aws --instance i-0abc --region us-west-2
      gpumeter checklist --json

# gpumeter sweep
cli-sweep-about = 地域内没有运行中实例使用却仍在计费的一切，按费用排序（有则退出码 3）
cli-sweep-after-help =
    示例：
      gpumeter sweep --provider aws --region us-west-2
      gpumeter sweep --provider aws --json
      gpumeter sweep --provider aws --all-regions
      gpumeter sweep --kind snapshot --older-than 90d
      gpumeter sweep --tag project=llm
cli-sweep-arg-all-regions = 账号已启用的每个地域，各按自己的价格表计价，代替单个地域（没有地域的云服务商本来就只扫描一次）

# gpumeter cleanup
cli-cleanup-about = 删除仍在计费的资源：即 `sweep` 列出的，按 ID、类型、存在时长、标签或是否挂载选择。显示将删除什么、每项每月多少钱、什么会保留，然后询问（或 --yes），并逐一读回确认删除（全部确认时退出码 0，否则 1）
cli-cleanup-after-help =
    示例：
      gpumeter cleanup --unattached --kind disk --dry-run
      gpumeter cleanup --id vol-0abc --id eipalloc-0def --yes
      gpumeter cleanup --kind snapshot --older-than 30d
      gpumeter cleanup --tag project=llm --unattached --dry-run
cli-cleanup-arg-ids = 删除此资源（可重复）；即 `gpumeter sweep` 打印的 ID
cli-cleanup-arg-unattached = 只包括未挂载、未关联任何对象的资源
cli-cleanup-arg-all = sweep 列出的全部资源（仍会询问，除非 --yes）

# gpumeter watchdog
cli-watchdog-about = 无界面的守护进程：执行截止时间和空闲规则，关注竞价回收通知
cli-watchdog-after-help =
    示例：
      gpumeter watchdog --idle-after 30m --on-idle stop
      gpumeter watchdog --status
      gpumeter watchdog --install-service --dry-run
cli-watchdog-arg-status = 说明是否有看门狗守护该实例，以及它上次检查的时间（没有则退出码 1）
cli-watchdog-arg-stop = 停止该实例的看门狗
cli-watchdog-arg-interval = 检查间隔（5s、1m；100ms 到 1h）
cli-watchdog-arg-inventory-interval = 无事发生时多久向云端查询一次实例的资源清单（10m、1h；不会比检查更频繁）。执行操作后会立即读回；演示云是本地文件，每次检查都读取
cli-watchdog-arg-install-service = 写入一个 systemd 用户单元，开机时运行此看门狗（带这些参数），失败时重启；并说明如何启用
cli-watchdog-arg-uninstall-service = 删除 --install-service 写入的 systemd 用户单元
cli-watchdog-arg-dry-run = 与 --install-service 或 --uninstall-service 一起使用：打印将写入或删除的内容，不做任何更改
cli-watchdog-arg-foreground = 留在前台，附着在此终端（驾驶舱会以分离方式启动它）
cli-watchdog-arg-scenario = 与 --demo 一起使用：看门狗采样的遥测场景
cli-watchdog-arg-gpus = 与 --demo 一起使用：模拟多少块 GPU [默认：8]

# gpumeter release
cli-release-about = 释放（销毁）实例；保留下来的资源会继续计费
cli-release-after-help =
    示例：
      gpumeter release --dry-run               将要发出的调用，以及会保留什么
      gpumeter release --provider alibaba --yes

# gpumeter stop
cli-stop-about = 停止实例（关机）；磁盘（在部分云服务商处还有计算）继续计费
cli-stop-after-help =
    示例：
      gpumeter stop --dry-run

# gpumeter start
cli-start-about = 重新启动已停止的实例（AWS、阿里云、腾讯云、RunPod、Vast.ai、AutoDL 和演示云；不支持 Lambda Cloud 和 `command`）；从此时起计算重新计费
cli-start-after-help =
    示例：
      gpumeter start --provider aws --instance i-0abc --dry-run

# gpumeter snapshot-clean
cli-snapshot-clean-about = 删除最新 N 个之外的快照，或只删除用 --id 指定的快照
cli-snapshot-clean-after-help =
    示例：
      gpumeter snapshot-clean --keep 1 --final-snapshot --dry-run
      gpumeter snapshot-clean --id snap-0a --id snap-0b
cli-snapshot-clean-arg-keep = 保留最新快照的个数
cli-snapshot-clean-arg-final-snapshot = 先为系统盘创建一个快照
cli-snapshot-clean-arg-ids = 只删除该实例的这个快照（可重复），而不是除最新 N 个外的全部；`checklist` 会列出它们及其存在时长

# gpumeter extend
cli-extend-about = 推迟释放截止时间（8h、45m、90s、1h30m）
cli-extend-after-help =
    示例：
      gpumeter extend 2h

# gpumeter report
cli-report-about = 账本中的花费历史：按天和分项、空闲花费、能耗、操作，以及释放后仍在计费的资源
cli-report-after-help =
    示例：
      gpumeter report --since 30d
      gpumeter report --since 7d --csv > spend.csv
cli-report-arg-since = 起点：从现在往回的时长（7d、36h、90m）、日期（2026-05-01）、本地时间（2026-05-01 18:30）或 RFC 3339 时刻
cli-report-arg-until = 终点，形式同上 [默认：现在]
cli-report-arg-csv = 输出 CSV（每天每币种一行），供电子表格使用
cli-report-arg-focus = 将时间窗口输出为 FOCUS 1.0 数据集（CSV）：每个实例、费用项和小时一行，包含所有 FOCUS 列，供读取云账单导出的 FinOps 工具使用

# gpumeter audit
cli-audit-about = 云服务商账单与账本对账：释放后的收费、跨地域流量、重叠的实例、计费与计量不符的计算、无法解释的账单行。一致时退出码 0，发现问题时 3，无法读取账单时 2
cli-audit-after-help =
    示例：
      gpumeter audit --bill cur-2026-05.csv.gz --since 2026-05-01 --until 2026-06-01
      gpumeter audit --bill focus.csv --bill alibaba-bill.csv --json
      gpumeter audit --bill bill.csv --evidence refund-case
cli-audit-arg-bills = 账单导出：FOCUS 1.x CSV、AWS 成本和使用情况报告（CUR）CSV，或阿里云、腾讯云的账单明细 CSV，明文或 gzip（可重复）
cli-audit-arg-since = 对账区间的起点，形式同 `report` [默认：账单中的第一笔费用]
cli-audit-arg-until = 区间的终点 [默认：账单中的最后一笔费用]
cli-audit-arg-json = 输出 JSON 而不是文本
cli-audit-arg-tolerance = 账单中的计算费用与计量值允许相差多少，以计量值的百分比表示（至少为该币种的 0.01）
cli-audit-arg-evidence = 将退款材料写入 DIR：summary.md、actions.csv、minutes.csv、bill-lines.csv

# gpumeter serve
cli-serve-about = 在 /metrics 上提供 Prometheus 指标：遥测、费用、截止时间、遗留资源、守护状态
cli-serve-arg-listen = 监听的地址和端口；不是回环地址时会打印警告

# gpumeter completions
cli-completions-about = bash、zsh、fish、elvish 或 powershell 的 Shell 补全脚本，输出到 stdout
cli-completions-after-help =
    示例：
      gpumeter completions bash > ~/.local/share/bash-completion/completions/gpumeter
      gpumeter completions zsh > "${"{"}fpath[1]{"}"}/_gpumeter"
      gpumeter completions fish > ~/.config/fish/completions/gpumeter.fish

# gpumeter man
cli-man-about = 手册页（roff），输出到 stdout；使用 --dir 时，每个子命令一页，写入该目录
cli-man-after-help =
    示例：
      gpumeter man > gpumeter.1 && man ./gpumeter.1
      gpumeter man --dir ~/.local/share/man/man1
cli-man-arg-dir = 将 gpumeter.1 和每个子命令的 gpumeter-<subcommand>.1 写入 DIR

# gpumeter doctor
cli-doctor-about = 检查 gpumeter 在本机需要的一切，每项一行并附修复方法：NVML、云服务商和实例、密钥及其权限、看门狗、价格表、时钟和时区。已配置的截止策略所需的一切都正常时退出码 0，否则 1
cli-doctor-after-help =
    示例：
      gpumeter doctor
      gpumeter --provider aws doctor --json
cli-doctor-arg-json = 输出 JSON 而不是逐行文本：键名稳定，所有值为英文单词或数字

# gpumeter init
cli-init-about = 根据检测到的信息和你的选择写入带注释的配置；不经询问（或 --force）绝不替换已有配置
cli-init-after-help =
    示例：
      gpumeter init
      gpumeter --provider aws init --deadline 4h --at-zero stop --idle 30m --yes
cli-init-arg-deadline = 释放截止时间：从开始起的时长（4h、90m）或本地时钟时间（18:30）
cli-init-arg-at-zero = 截止时间归零时做什么
cli-init-arg-idle = 空闲（所有 GPU 和 CPU）持续这么久算作空闲 [默认：30m]
cli-init-arg-on-idle = 实例空闲时做什么 [默认：alert]
cli-init-arg-webhook = 接收告警的 webhook（按主机名识别 Slack、飞书/Lark、钉钉、企业微信；其他地址收到普通 JSON POST）
cli-init-arg-yes = 什么都不问：没有参数给出的取默认值
cli-init-arg-force = 不经询问替换已有配置

# gpumeter fleet
cli-fleet-about = 已配置的所有云服务商和账号下的每个实例和遗留资源，按费用排序
cli-fleet-after-help =
    示例：
      gpumeter fleet
      gpumeter fleet --tag team=vision --json
      gpumeter fleet --provider alibaba --region cn-hangzhou

    未列出实例的 [[fleet]] 表按列举读取：该账号在其地域持有的每个 GPU 实例，以及那里没有实例却仍在计费的一切。
cli-fleet-arg-tags = 只包括带有此标签的实例和孤立资源：KEY=VALUE，或只写 KEY 表示任意值（可重复；须全部匹配）
cli-fleet-arg-regions = 只包括此地域的账号（可重复）
cli-fleet-arg-providers = 只包括此云服务商的账号（可重复）

# clap 的错误，按 clap 保留的信息重写：被拒绝的命令行的第一行
cli-err-unknown-arg = 未知参数 '{ $arg }'
cli-err-unknown-command = 未知子命令 '{ $name }'
cli-err-invalid = '{ $arg }' 的值 '{ $value }' 无效
cli-err-no-value = '{ $arg }' 需要一个值，但没有给出
cli-err-possible = 可选值：{ $values }
cli-err-invalid-why = '{ $arg }' 的值 '{ $value }' 无效：{ $why }
cli-err-missing = 缺少必需的参数：{ $args }
cli-err-missing-command = '{ $name }' 需要一个子命令，但没有给出（子命令：{ $names }）
cli-err-twice = 参数 '{ $arg }' 不能重复使用
cli-err-conflict = 参数 '{ $arg }' 不能与 { $with } 同时使用
cli-err-conflict-any = 参数 '{ $arg }' 不能与已给出的其他参数同时使用
cli-err-conflict-command = 子命令 '{ $name }' 不能与 { $with } 同时使用
cli-err-conflict-others = 已给出的其他参数
cli-err-no-equals = 给 '{ $arg }' 赋值时需要等号
cli-err-too-many = '{ $arg }' 多出了值 '{ $value }'；它不接受更多的值
cli-err-too-few = '{ $arg }' 至少需要 { $wanted } 个值，只给出了 { $given } 个
cli-err-wrong-count = '{ $arg }' 需要 { $wanted } 个值，但给出了 { $given } 个
cli-err-utf8 = 参数中有无效的 UTF-8
cli-err-similar-command = { $count ->
       *[other] 相近的子命令：{ $names }
    }
cli-err-similar-arg = { $count ->
       *[other] 相近的参数：{ $names }
    }
cli-err-similar-value = { $count ->
       *[other] 相近的值：{ $names }
    }
cli-err-tip-as-value = 若要把 '{ $what }' 作为值传入，请使用 '{ $with }'
cli-err-tip-drop-dashes = 子命令 '{ $name }' 存在；若要使用它，请去掉它前面的 '--'
cli-err-tip-exists = '{ $flag }' 存在
cli-err-tip-sep = ；
# 值被拒绝的原因
cli-err-why-decimal = 应为小数，例如 12.5
cli-err-why-whole = 应为整数，例如 3
cli-err-why-too-large = 数字太大
cli-err-why-provider = `{ $given }` 不是以下之一：{ $ids }

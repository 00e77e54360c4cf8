# gpumeter 的简体中文消息：doctor、verify、init 和进度行打印的文字。每个 id 都必须在 i18n/en/ 下的
# 同名文件中存在且参数相同，且不在其他文件中出现。

# doctor
doctor-found-from = { $value }（来自 { $from }）
doctor-not-detected = 未检测到：{ $fix }
doctor-provider = 云服务商
doctor-provider-fix = 请给出 --provider，或设置 [instance] provider（gpumeter init 会写入）
doctor-instance = 实例
doctor-instance-fix = 请给出 --instance，或设置 [instance] id；在 AWS 上元数据服务会提供
doctor-region = 地域
doctor-region-fix = 请给出 --region，或设置 [instance] region
doctor-sku = SKU
doctor-sku-fix = 请把 [pricing] sku 设为实例规格
doctor-detection = 检测
doctor-policy-alert = 提醒
doctor-policy-stop = 关机
doctor-policy-release = 释放
doctor-deadline-none = 未设置
doctor-no-config = 没有配置文件：gpumeter init 会写入一个
doctor-config = 配置 { $path }
doctor-alerts-only = 只提醒：不需要云服务商密钥
doctor-acts-stop = 会执行操作：需要云服务商密钥、关机权限和看门狗
doctor-acts-release = 会执行操作：需要云服务商密钥、释放权限和看门狗
doctor-policy = 策略
doctor-policy-detail = 截止时间 { $deadline }，归零时 { $at_zero }，空闲时 { $on_idle }；{ $needs }；{ $config }
doctor-nvml-fix = { $why }；请安装 NVIDIA 驱动（libnvidia-ml.so.1），或试试 --demo
doctor-credentials = 凭据
doctor-no-provider = 没有需要登录的云服务商
doctor-demo-needs-none = 演示云不需要凭据
doctor-command-keys = 命令式云服务商运行你自己的命令，使用它们自己的密钥
doctor-not-looked-for = 未查找
doctor-credentials-found = 已找到：{ $from }
doctor-may-read = 可读取
doctor-may-stop = 可关机
doctor-may-release = 可释放
doctor-may-delete = 可删除
doctor-watchdog-service = 看门狗服务
doctor-service-installed = 已安装：{ $path }
doctor-service-missing = 未安装（驾驶舱会启动看门狗，但开机时不会）：gpumeter watchdog --install-service
doctor-service-no-systemd = 未安装，且这里没有 systemd 用户管理器：请在你自己的进程管理器下运行 `gpumeter watchdog`
doctor-sheet = 价格表
doctor-sheet-none = 此实例没有价格表：请设置 [pricing] sheet 和 sku
doctor-sheet-stale = { $id } 的日期为 { $as_of }，{ $age } 天前（超过 { $limit } 天）：请核对其价格，或更新 gpumeter
doctor-sheet-ok = { $id }，价格日期 { $as_of }（{ $age } 天前）
doctor-clock = 时钟
doctor-clock-synchronised = 已同步（{ $from }）
doctor-clock-not-synchronised = 未同步（{ $from }）：截止时间和签名请求都依赖它；sudo timedatectl set-ntp true
doctor-clock-unknown = 未知：timedatectl 和内核都没有给出
doctor-zone = 时区
doctor-zone-fix = { $why }：18:30 这样的截止时间会按 18:30 UTC 计算；请设置 TZ=Area/City

# init
init-wrote =
    已写入 { $path }（权限 0600）
    下一步：gpumeter doctor，然后 gpumeter
init-cannot-write = 无法写入 { $path }：{ $error }
init-replace = { $path } 已存在。要替换吗？[y/N]
init-cannot-read = 无法读取回答：{ $error }
init-ask-deadline = 截止时间（4h、18:30；留空表示不设）：
init-ask-at-zero = 归零时：alert（提醒）、stop（关机）还是 release（释放）？[alert]
init-ask-idle = 空闲多久后（30m）：
init-ask-on-idle = 空闲时：alert（提醒）、stop（关机）还是 release（释放）？[alert]
init-ask-webhook = Webhook URL（留空表示不设）：

# the progress line while a provider answers
progress-spinning = { $what }（{ $seconds } 秒）
progress-waiting = { $what }（已等待 { $seconds } 秒）

# verify
verify-verdict-pass = 通过
verify-verdict-incomplete = 不完整
verify-verdict-warn = 警告
verify-verdict-fail = 失败
verify-headline = verify：{ $verdict }：{ $headline }
verify-name-unknown = 名称未知
verify-gpu = GPU { $index }：{ $name }
verify-col-gpu = GPU
verify-col-check = 检查项
verify-col-measured = 实测
verify-col-rated = 额定
verify-col-ratio = 比例
verify-col-verdict = 结论
verify-machine = 本机
verify-gpu-label = GPU { $index }
verify-bench-not-run = 基准测试未运行：{ $why }
verify-not-available = 无
verify-no-gpu = verify：无法读取任何 GPU：{ $why }
doctor-from-flag = 命令行参数
doctor-from-config = 配置文件
verify-no-sku = 价格表 { $sheet } 中没有 SKU `{ $sku }`
doctor-deadline-at = { $time } 时
doctor-deadline-in = { $span } 后
doctor-nvml-found = { $count } × { $model }，驱动 { $driver }
doctor-driver-unknown = 未知
doctor-found-by-chain = 已通过云服务商的凭据链找到
doctor-not-checked = 未检查：{ $why }
doctor-command-not-checked = 命令式云服务商运行的是你自己的命令
doctor-only-ec2 = gpumeter 只向 EC2 请求试运行（dry run），不向 { $provider } 请求
doctor-no-dry-run = { $provider } 不支持试运行（dry run）
doctor-no-key = 没有可用于询问的密钥
doctor-no-endpoint = 没有 EC2 端点
doctor-no-instance-id = 没有实例 id（请给出 --instance，或设置 [instance] id）
doctor-no-volume = 实例没有可供询问的磁盘
doctor-asked-dry-run = ec2:{ $action }，以 DryRun 询问
doctor-zone-set-fix = 请在配置中设置 timezone = "Asia/Shanghai"（IANA 名称），或设置 TZ
doctor-zone-utc = UTC：没有 timezone 设置、没有 TZ，也没有 /etc/localtime：{ $fix }

# the zone times are read in, as doctor names it
zone-described = { $name }（来自{ $source }）
zone-unnamed = 未命名的时区
zone-from-setting = 配置的 `timezone`
zone-from-env = TZ
zone-from-env-not-understood = TZ，但它指定的时区本机不认识
zone-from-system = 系统时区
zone-this-zone = 此时区
zone-clock-moved = { $how ->
        [skips] { $day } 在 { $zone } 没有 { $time }：时钟会跳过它；截止时间为时钟跳过它的时刻 { $at } { $label }
       *[twice] { $day } 在 { $zone } 会出现两次 { $time }：截止时间取第一次，即 { $at } { $label }
    }

# verify --on-fail
verify-failed = verify 失败：{ $headline }
verify-alert-stderr = 提醒：已输出到 stderr；未配置 webhook（[notify]）
verify-alert-dry-run = 试运行：不发送任何内容。将提醒 { $hooks }
verify-alert-outcome = 提醒：{ $outcome }
verify-sheet-minimum = 价格表最低计费 { $minimum }
verify-ran-stopped = 运行 { $span } 后已关机
verify-ran-released = 运行 { $span } 后已释放
verify-under-minimum = ：价格表最低计费 { $minimum }
verify-past-minimum = ，已超过价格表的最低计费 { $minimum }
verify-so-costs = ，因此这台机器花费 { $cost }
verify-billed = ：这台机器的计算费用为 { $cost }
verify-minimum-hours = { $count } 小时
verify-minimum-minutes = { $count } 分钟
verify-minimum-seconds = { $count } 秒
verify-span-seconds = { $seconds } 秒
verify-span-minutes = { $minutes } 分钟
verify-span-hours = { $hours } 小时
verify-span-hours-minutes = { $hours } 小时 { $minutes } 分钟
verify-not-kept = verify：判定结果未能记入账本：{ $error }
verify-on-fail-not-kept = verify：--on-fail 所做的操作未能记入账本：{ $error }

# 查找云的元数据服务
detect-no-answer-within = { $from } 在 { $seconds } 内没有回答
detect-no-metadata-service = 通过元数据服务回答

# `gpumeter init` 写入的配置：每个键上方一行注释（写在 `# ` 之后）
init-tpl-head = gpumeter 配置，由 `gpumeter init` 写入。每个键都是可选的；完整列表见
init-tpl-head-2 = config.sample.toml。`gpumeter doctor` 会检查这个文件要求的内容。
init-tpl-nothing-detected = 没有检测到任何信息：请在这里写明云和实例；云是以下之一：{ $ids }。
init-tpl-from = { $what }（来自 { $from }）。
init-tpl-provider = 实例所在的云
init-tpl-instance = 被守护并执行操作的实例
init-tpl-region = 它的地域，决定使用哪张价格表
init-tpl-sku = 它在该地域价格表中的计价 SKU
init-tpl-command = command 云服务商需要配置它的命令：见 config.sample.toml 中的 [command]。
init-tpl-release-in = 截止时间：驾驶舱或看门狗启动后过这么久。
init-tpl-release-at = 截止时间：本地时钟下一次显示这个时刻时。
init-tpl-no-deadline = 没有截止时间：如需设置，请写 release_in = "4h" 或 release_at = "18:30"。
init-tpl-at-zero = 归零时做什么：alert（只提醒你）、stop（关机）或 release（释放）。
init-tpl-idle-after = 所有 GPU 和 CPU 空闲这么久，实例即视为空闲。
init-tpl-idle-then = 之后做什么：alert（只提醒你）、stop（关机）或 release（释放）。
init-tpl-webhook = 警报发送到哪里：url 是机密，gpumeter 只显示它的主机名。
doctor-said-fix = { $said }；修复：{ $fix }

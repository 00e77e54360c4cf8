## Why a fleet account could not be read (the fleet table and its stderr lines)
## JSON keeps these in English.

fleet-could-not-list = 无法列出实例：{ $error }
fleet-could-not-sweep = 无法清查该账户：{ $error }
# $seconds is how long the listing was given.
fleet-no-answer-instances = { $seconds } 秒内无应答（实例列表）
fleet-no-answer-sweep = { $seconds } 秒内无应答（清查）
fleet-no-answer = { $seconds } 秒内无应答
# $gaps lists the provider's listings the key may not make.
fleet-listed-without = 列表不完整，缺少：{ $gaps }

## A region the sweep could not read (JSON keeps the English)

sweep-not-a-region = 不是地域名称

## What became of an alert at the webhooks (the cockpit's log, the watchdog's log)

# $hook names the webhook as configured: "webhook slack #1 (hooks.slack.com)".
webhook-sent = { $hook }：已发送 { $key }
webhook-held = { $hook }：暂缓发送 { $key }：{ $why }
webhook-failed = { $hook }：{ $error }
webhook-send-stopped = 发送中断：{ $error }
webhook-no-answer = { $seconds } 秒内没有回应
webhook-held-repeat = 已于 { $since } 发送过，{ $until } 之前不再重复发送
webhook-held-busy = 每分钟已超过 { $count } 条
webhook-dropped = webhook：告警 { $key } 未发送即被丢弃：已有 { $count } 条更新的告警在排队
# Who sends an alert when no instance is watched, in its title: "gpumeter: the cockpit".
webhook-from-cockpit = 驾驶舱
webhook-no-runtime = webhook：{ $key } 未发送：没有异步运行时

## Where a credential or a region was looked for, and what a provider refused: the adapters'
## phrases inside a credential error. Names, variables and paths ($a, $b) stay as they are.

place-environment = 环境变量
place-instance-metadata = 实例元数据服务
place-aws-profile-region = ~/.aws/config 中该 profile 的 region
place-the-token-to-sts = 提交给 STS 的令牌
place-the-credentials = 凭证
place-the-credentials-to-sts = 提交给 STS 的凭证
place-the-access-key = 访问密钥
place-the-signature = 签名
place-the-sts-token = STS 令牌
place-the-api-key = API 密钥
place-the-session-token = 会话令牌
place-home-unset = { $a }（HOME 未设置）
place-ecs-ram-role-mode = { $a }（EcsRamRole）
place-no-such-profile = { $a }（没有这个 profile）
place-credential-source = { $a }（profile { $b } 的 credential_source）
place-role-arn = profile { $a } 的 role_arn
place-web-identity = { $a } 以及 profile { $b } 的 web_identity_token_file
place-instance-role-at = { $a } 上的实例角色
place-instance-role-off = 实例角色（已被 { $a } 关闭）
place-profile-in = { $b } 中的 profile `{ $a }`
place-region-id-of = { $a } 中的 region_id
place-oidc-role-at = { $b } 上的 OIDC 角色 { $a }
place-ecs-ram-role-at = { $a } 上的 ECS RAM 角色
place-cvm-role-at = { $a } 上的 CVM 角色
place-credential-process-in = { $a } 中的 credential_process
place-in = { $b } 中的 { $a }

## A prepaid balance and when it runs out, as status says it

# $vouchers are drawn on before the cash in $available.
balance-with-vouchers = { $available }（代金券 { $vouchers }）
# $bound is "≤ " and $at_least "≥ " where only this instance's burn is counted; $note says so.
balance-line = { $balance } · 按 { $at_least }{ $burn }/小时计，{ $bound }{ $left } 后用完{ $note }
balance-line-no-burn = { $balance } · 当前没有消耗
# The balance guard's alerts, in the cockpit's log and the watchdog's.
balance-alert-hours-left = 余额：按当前消耗已不足 { $hours } 小时（{ $available }，按 { $at_least }{ $burn }/小时计{ $note }）
balance-alert-floor = 余额：{ $available }，已不高于下限 { $floor }

## A data directory other users can look into (the cockpit's events, the watchdog's log)

files-dir-open = 数据目录 { $dir } 对其他用户开放（权限 { $mode }）；运行 `chmod 700 { $dir }` 后，连其中的文件名也只有你能看到
files-link-unreadable = 无法读取的位置
files-is-link = 它是一个符号链接（指向 { $to }），而 gpumeter 只把这个文件作为数据目录中的普通文件保存：请删除该链接，或使用 --data-dir DIR
files-is-dir = 它是一个目录，不是普通文件
files-is-fifo = 它是一个 FIFO（命名管道），不是普通文件
files-is-socket = 它是一个套接字，不是普通文件
files-is-char-device = 它是一个字符设备，不是普通文件
files-is-block-device = 它是一个块设备，不是普通文件
files-is-other = 它不是普通文件

## The cockpit's own ledger troubles, in its events

# $why is why the cockpit stopped writing this run's history.
record-stopped = { $why }；本次运行的花费历史不会被记录
record-no-session = 无法开始会话：{ $error }
record-writer-stopped = 写入线程已停止
cockpit-no-shared-deadline = 无法与看门狗共享截止时间：{ $error }

# 驾驶舱记录与 webhook 自己说的话
record-no-answer-before-quit = 驾驶舱退出前没有收到回答
webhook-not-sent-no-runtime = 未发送：没有异步运行时
ledger-not-a-database = 该文件不是数据库
ledger-malformed = 数据库磁盘映像已损坏

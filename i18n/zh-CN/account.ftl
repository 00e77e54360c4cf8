# 命令行的账户命令：sweep、cleanup、checklist、status、各项操作、extend 与 fleet。
# 消息两端的空格与对齐留在代码里。

## 操作：释放、关机、开机、清理快照

progress-reading-instance = 正在从 { $provider } 读取实例
dry-run-would-call = 演练：不做任何改动。将会调用：
action-done = { $action }：已完成；云服务商报告 { $summary }
action-waiting = { $action }：正在等待 { $provider } 确认（最多 { $seconds } 秒）
# 问句以“？[y/N]”结尾；其后的空格由代码加上。
action-prompt = { $question }？[y/N]

## sweep

progress-listing-regions = 正在列出 { $provider } 账户的地域
progress-sweeping = 正在清查 { $provider } 账户
progress-sweeping-regions = 正在清查 { $provider } 账户的 { $count } 个地域
progress-listing-stopped = 正在列出 { $provider } 上已关机的实例
sweep-not-checked = 未检查：{ $region }：{ $why }
sweep-nothing-regions = 已检查的 { $count } 个地域中，没有运行中的实例时不会有任何计费
sweep-nothing = 本地域没有运行中的实例时不会有任何计费
sweep-col-region = 地域
sweep-col-kind = 类型
sweep-col-id = ID
sweep-col-size = 大小
sweep-col-age = 存在
sweep-col-monthly = 每月
sweep-col-from = 来源
sweep-col-state = 状态
resource-kind-named = { $kind ->
    [system_disk] 系统盘
    [data_disk] 数据盘
    [snapshot] 快照
    [image] 镜像
    [public_ip] 公网 IP
    [load_balancer] 负载均衡
    [network_volume] 网络存储卷
    [stopped_instance] 已关机实例
   *[other] { $kind }
    }
sweep-age-days = { $days } 天
sweep-plus-unpriced = + { $count } 项未定价
sweep-total-unknown = 未知
sweep-and = {"、"}
sweep-bills = 每月计费 { $total }{ $more }

## status

status-deadline-line = { $at }，还剩 { $seconds } 秒，到时{ $on_expiry ->
    [release] 释放
    [stop] 关机
    [alert] 仅提醒
   *[other] { $on_expiry }
    }{ $held }
status-held-by-provider = ，由云服务商托管
status-enforced = 执行
status-enforced-watchdog = 由看门狗执行（pid { $pid }）
status-enforced-by = 由{ $by ->
    [provider] 云服务商
    [watchdog] 看门狗
   *[other] { $by }
    }执行（已回读确认）
status-not-enforced = 未执行：{ $reason }；{ $fix }
status-nothing-holds-it = 没有谁持有它
status-driver = 驱动 { $driver }，CUDA { $cuda }
status-state = { $state ->
    [running] 运行中
    [nogpu] 无卡模式运行中
    [stopped] 已关机
    [released] 已释放
   *[other] { $state }
    }
status-host-label = 主机
status-host = CPU { $cpu }，共 { $cores } 核，负载 { $load }，内存 { $memory }
status-mem-used = 已用 { $used } / { $total } GiB
status-net-label = 网络
status-net = 发送 { $sent }（{ $sent_rate }/s）  接收 { $received }（{ $received_rate }/s）
status-disk-label = 磁盘
status-disk = 已用 { $used }，共 { $total }，剩余 { $free }
status-balance = 余额
status-balance-unknown = 未知：{ $why }

## extend

extend-dry-run = 演练：不做任何改动。截止时间将改为 { $at }：
extend-ledger = 账本：{ $instance } 的守护记录
extend-moved = 截止时间已改为 { $at }；{ $what }
err-extend-ledger = extend：{ $provider } 现已托管 { $at }，但无法写入账本（{ $error }）；看门狗仍按旧的截止时间执行
extend-held = { $provider } 已托管，届时释放（删除）实例，已回读确认
extend-held-watchdog = { $held }；看门狗（pid { $pid }）届时{ $on_expiry ->
    [alert] 仅提醒
    [stop] 关机
   *[release] 释放实例
    }
extend-watchdog = 看门狗（pid { $pid }）届时{ $on_expiry ->
    [alert] 仅提醒
    [stop] 关机
   *[release] 释放实例
    }；{ $provider } 没有为此托管释放
extend-held-unenforced = { $held }；未执行：{ $reason }；{ $fix }
extend-unenforced = 未执行：届时没有谁会{ $on_expiry ->
    [alert] 提醒
    [stop] 关机
   *[release] 释放实例
    }：{ $reason }；{ $fix }；{ $provider } 没有为此托管释放

## cleanup 与 snapshot-clean

cleanup-refused = 未删除：{ $id }：{ $why }
cleanup-nothing = { $command }：{ $provider } 当前列出的资源中没有可删除的
cleanup-question = 删除这些
cleanup-deleting = { $command }：正在删除 { $provider } 上的 { $count } 项并逐项回读确认
cleanup-not-recorded = 有一次删除未记入账本：{ $error }
cleanup-deleted = 已删除 { $what }：{ $summary }
cleanup-not-confirmed = { $what }：未确认；云服务商报告 { $summary }
cleanup-failed = { $what }：未删除：{ $error }
cleanup-done = cleanup：{ $count } 项中已删除并回读确认 { $done } 项
cleanup-sweep-lists = `gpumeter sweep` 会列出它们
cleanup-checklist-lists = `gpumeter checklist` 会列出该实例的快照

## fleet（命令的表格；与驾驶舱机群界面相同的词沿用其条目）

fleet-no-gpu = 无卡模式
fleet-col-account = 账号
fleet-col-provider = 云服务商
fleet-col-instance = 实例
fleet-col-name = 名称
fleet-col-state = 状态
fleet-col-burn = 每小时
fleet-col-uptime = 已运行
fleet-col-deadline = 截止
fleet-col-after-release = 释放后每月
fleet-col-flags = 标记
fleet-per-month = { $amount }/月
fleet-more = 另有 { $count } 项（fleet --json 会全部列出）
fleet-bound = ≥ { $amount } + { $count } 项未知
fleet-unit-hour = /小时
fleet-unit-a-month = /月
fleet-unit-month = /月
fleet-totals = { $running } 个运行中：{ $burn }（按此速率 { $month }）；释放后的残留：{ $left }
fleet-unpriced = { $count } 个未定价：没有价格表为其定价，以上合计未计入
fleet-flagged = { $count } 个有标记：请先查看这些
fleet-account-error = { $provider } 上 { $region } 的账号 { $account }：{ $why }
fleet-default-region = 其默认地域
err-no-fleet = 没有机群：在配置中加入 [[fleet]] 表（或一个 [instance]），或试试 --demo
err-no-fleet-asked = 所问的云服务商与地域上没有 [[fleet]] 表

## 各账户命令加载的上下文

err-aws-settings = 无法读取 AWS 设置
err-no-price-sheet = 没有价格表
err-sku-not-in-sheet = 配置：SKU `{ $sku }` 不在价格表 `{ $sheet }` 中
err-costs-not-shown = { $error }；不显示费用
err-not-bearer-key = { $provider } 不是使用 bearer 密钥的云

## 保留资源中他人可读取的数据（checklist 与 sweep）

finding-line = { $grade } { $kind } { $id }：{ $what }；{ $fix }
finding-public = 公开：任何人都可以{ $image ->
        [yes] 用它启动实例
       *[no] 复制其中的数据
    }
finding-public-fix = 立即设为私有，或删除它
finding-shared = 已共享给其他 { $count } 个账号：{ $accounts }
finding-shared-fix = 移除不该拥有它的账号
finding-unencrypted = 未加密
finding-unencrypted-fix = 用完后删除，或复制一份加密的再删除这一份

## 账户命令较少见的失败

err-write-json = 无法写出 JSON：{ $error }
err-no-sku-in-sheet = 价格表 { $sheet } 中没有 SKU `{ $sku }`

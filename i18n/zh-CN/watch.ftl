# 看门狗、它的告警、serve 以及命令行记录的驾驶舱事件。

## watchdog --status

wd-status-running = { $instance } 的看门狗：运行中（pid { $pid }），上次检查在 { $seconds } 秒前
wd-status-not-running-since = { $instance } 的看门狗：未运行（pid { $pid }，上次检查于 { $at }）
wd-status-not-running = { $instance } 的看门狗：未运行
wd-status-deadline = 截止时间：{ $at }，还剩 { $seconds } 秒，到时{ $policy ->
    [alert] 提醒
    [stop] 关机
   *[release] 释放
    }，宽限 { $grace } 秒
wd-status-no-deadline = 截止时间：无（设置后将在宽限 { $grace } 秒后{ $policy ->
    [alert] 提醒
    [stop] 关机
   *[release] 释放
    }）
wd-status-idle-for = 已空闲 { $seconds } 秒
wd-status-active = 当前活跃
wd-status-idle-rule = 空闲规则：空闲 { $after } 秒后{ $policy ->
    [alert] 提醒
    [stop] 关机
   *[release] 释放
    }；{ $state }
wd-status-idle-none = 空闲规则：无人执行（没有运行看门狗）
wd-status-idle-unpublished = 空闲规则：此看门狗未公布（较旧的版本）
wd-budget-sheet-currency = 按价格表的币种
wd-budget-then = ，随后{ $policy ->
    [stop] 关机
    [release] 释放
   *[other] { $policy }
    }
wd-budget-instance = 每实例 { $amount }：看门狗在 80% 和 100% 时告警{ $then }
wd-budget-instance-unenforced = 每实例 { $amount }：未执行（没有运行看门狗）
wd-budget-month = 每月 { $amount }：看门狗在 80% 和 100% 时告警{ $then }
wd-budget-month-unenforced = 每月 { $amount }：驾驶舱会就此告警；但不会采取行动（没有运行看门狗）
wd-budget-none = 预算：无
wd-budget = 预算（{ $currency }）：{ $parts }
wd-budget-separator = {"；"}

## watchdog 命令

wd-already-guarded-pid = 已有看门狗（pid { $pid }）在守护此实例
wd-already-guarded = 已有看门狗在守护此实例
wd-ended-released = 实例已释放；看门狗结束
wd-ended-stopped = 看门狗已停止
wd-ended-unwatched = 演示驾驶舱已结束，没有需要执行的了
wd-never-guarded = 还没有看门狗守护过 { $instance }
wd-none-guards = 没有看门狗在守护 { $instance }
wd-asked-to-stop = 已请看门狗（pid { $pid }）停止
wd-not-running = 看门狗（pid { $pid }）没有在运行：{ $error }
wd-budget-unchecked = 警告：看门狗无法检查 [budget]：{ $why }
wd-budget-no-sheet = 没有价格表为该实例定价
wd-budget-no-month-start = 在该时区中找不到本月的起点
wd-no-instance = 云服务商没有列出可守护的实例

## serve

serve-listening = 正在 { $url } 上提供 Prometheus 指标

## 驾驶舱、看门狗或 serve 无法启动的原因

err-signals = 无法捕获信号：{ $error }
err-terminal-setup = 无法设置终端：{ $error }
err-terminal-failed = 终端出错：{ $error }

## 看门狗的日志行与告警（日志、账本事件与 webhook）

wd-action-done = { $action }：已完成（{ $reason }）；云服务商报告 { $summary }
wd-action-not-confirmed = { $action }：未确认（{ $reason }）；云服务商报告 { $summary }
wd-action-failed = { $action }失败（{ $reason }）：{ $error }；解决办法（{ $kind }）：{ $fix }
wd-ended = 看门狗 { $pid } 已结束：{ $why }
wd-end-other-pid = 另一个看门狗（pid { $pid }）在守护
wd-end-other = 另一个看门狗在守护
wd-end-released = 实例已释放
wd-end-stopped = 被要求停止，或已由另一个看门狗接管
wd-end-unwatched = 它的演示驾驶舱已关闭，没有需要它的了
wd-no-longer-checked = { $what ->
        [budget] 预算
        [balance] 余额
       *[other] { $what }
    }：{ $why }；看门狗不再检查它
wd-hook-finished = 钩子 { $name } 已完成
wd-hook-failed = 钩子 { $name }：{ $error }；继续执行
wd-idle-since = 自 { $at } 起空闲：每块 GPU 和 CPU 都低于空闲阈值
wd-spot = 抢占式实例中断：云服务商将在 { $at } 收回此实例
wd-action-at = { $at } { $action }
wd-nothing-alert-only = 什么也不做（仅提醒）
wd-deadline-reached = 已到截止时间
wd-grace = { $reached }：除非延长，否则{ $then }（在驾驶舱按任意键或运行 `gpumeter extend`）
wd-deadline-passed = 截止时间 { $at } 已过
wd-keeps-billing = { $reason }：实例继续计费（策略：仅提醒）
wd-then-unless-extended = 除非延长，届时{ $action }
wd-then-alert-only = 届时仅提醒
wd-minutes-left = 距截止时间（{ $at }）还剩 { $minutes } 分钟：{ $then }
wd-limit-then = { $text }；{ $rule }：宽限期过后{ $policy ->
        [stop] 关机
        [release] 释放
       *[other] { $policy }
    }，除非延长
wd-forced-release = 强制释放：{ $provider } 将在 { $left } 后（{ $at }）释放 { $id }，即关机满 { $days } 天时，并清除其磁盘；开机可保留它

## 驾驶舱启动时的事件与退出后的提示（命令一侧）

cockpit-unanswered-at-quit = 驾驶舱退出时 { $provider } 仍未答复{ $action }，因此未确认；它仍可能生效。`gpumeter checklist` 会显示云服务商当前的状态。
cockpit-release-at-read-in = 在 { $at } 释放，按 { $zone } 解读
cockpit-found-instance = 发现 { $provider } 实例 { $instance } { $region } { $kind }（来自 { $from }）

## watchdog --install-service 与 --uninstall-service

wd-service-would-write = 将写入 { $path }（权限 0600）：
wd-service-wrote =
    已写入 { $path }
    立即启动，并在每次开机时启动：
      systemctl --user daemon-reload
      systemctl --user enable --now { $unit }
    未登录时也保持运行（重启后、登录前亦然）：
      loginctl enable-linger
    其输出写入日志：journalctl --user -u { $unit }
    该单元不携带环境变量：看门狗读取配置文件和云服务商自己的凭据文件，而不是在此 shell 中设置的变量。
wd-service-none = { $path } 处没有单元：无需删除
wd-service-and = {"、"}
wd-service-would-remove = 将删除 { $paths }
wd-service-removed =
    已删除 { $paths }
    如果它正在运行，请停止它并通知 systemd：
      systemctl --user stop { $unit }
      systemctl --user daemon-reload
wd-service-no-home = 没有可存放该单元的主目录
wd-dry-run-needs-service = --dry-run 需与 --install-service 或 --uninstall-service 一起使用

## Webhook 告警

notify-level = { $level ->
        [info] 信息
        [warn] 警告
        [error] 错误
       *[done] 完成
    }

## 看门狗启动时的记录

wd-pid-guards = pid { $pid } 守护 { $instance }
wd-takes-over = 看门狗 { $pid } 接管了已消失的 { $other }
wd-warning = 警告：{ $warning }

## 看门狗与驾驶舱较少见的失败

err-env-not-utf8 = { $name } 不是 UTF-8
wd-bad-pid = 看门狗 pid { $pid } 无效
wd-service-no-exe = 无法确定 gpumeter 所在位置：{ $error }
wd-service-cannot-write = 无法写入 { $path }：{ $error }
wd-service-cannot-remove = 无法删除 { $path }：{ $error }

# 看门狗在日志里说出的账本故障，随后继续运行。
watchdog-ledger = 账本：{ $error }
watchdog-ledger-rule = 账本：{ $error }；{ $rule }无法设置截止时间

# 看门狗无法开始守护或停止的原因
wd-err-lock = 无法获取 { $at } 旁的看门狗锁：{ $error }
wd-err-look-at-ledger = 无法查看账本 { $path }：{ $error }
wd-err-ledger-replaced = 账本 { $path } 已被另一个文件替换；此看门狗停止，因为通过新文件没人能看到或停止它
wd-err-ledger-deleted = 账本 { $path } 已被删除；此看门狗停止，因为没人能看到或停止它

## stopped_release_after：关机过久的实例被释放

# 看门狗的理由，用于宽限期提示和操作记录。
sr-due = { $id } 已关机 { $after }（自 { $since } 起）
sr-started-again = stopped_release_after：{ $id } 已重新开机；取消释放，下次关机时重新计时
sr-refused-state = stopped_release_after：未释放 { $id }：重新读取显示它{ $state ->
    [running] 正在运行
    [nogpu] 正在无卡模式运行
    [released] 已释放
   *[other] 处于 { $state }
    }，而非关机；下次关机时重新计时
sr-refused-read = stopped_release_after：未释放 { $id }：释放前无法重新读取它（{ $error }）；下次读取后再试

## status

sr-status-label = 关机释放
sr-status-in = 将按 stopped_release_after 在 { $left } 后（{ $at }）释放：关机满 { $after } 会清除 { $erases }；开机可重新计时，计时起点为{ $from ->
    [watchdog] 看门狗首次发现其关机的时间
   *[provider] 云服务商记录的关机时间
    }
sr-status-due = 现在按 stopped_release_after 释放：宽限期过后看门狗将释放 { $erases }，除非实例已开机
sr-status-not-enforced = 未执行：没有看门狗执行 stopped_release_after；用 `gpumeter watchdog --stopped-release-after { $after }` 启动一个

## 驾驶舱的释放面板：已关机且无截止时间的实例

sr-countdown = stopped_release_after 将在 { $left } 后释放它（关机满 { $after }）并清除 { $erases }；开机可重新计时

## watchdog --status

sr-watchdog-status = 关机：关机满 { $after } 后释放（stopped_release_after），先经过宽限期
sr-watchdog-status-none = 关机：一直保留，直到手动处理（未执行 stopped_release_after）
sr-status-final-snapshot = 先为其磁盘做最终快照；服务商读回快照后才释放
sr-countdown-snapshot = stopped_release_after 将在 { $left } 后（停机 { $after }）先做最终快照，再释放并清除 { $erases }；开机即重新计时
sr-snapshot-taken = stopped_release_after：{ $id } 的最终快照已读回（{ $summary }）；开始释放
sr-snapshot-refused = stopped_release_after：{ $id } 没有做成最终快照（{ $why }）：实例保持停机，磁盘继续计费。请自行释放（gpumeter release），或设置 [idle] stopped_release_snapshot = false
sr-snapshot-unsupported = { $provider } 不支持通过 gpumeter 做快照
sr-snapshot-unconfirmed = 未读回：{ $summary }

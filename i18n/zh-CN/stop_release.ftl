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

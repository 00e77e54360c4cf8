# `audit --evidence DIR`：退款申请的 summary.md，一封给客服看的 Markdown 信。
# 金额、时间、ID 和账单自己的文字传入时已格式化。

# 信的开头；数字和时间传入时已格式化
evidence-title = 账单争议：账单对照计量记录
evidence-period = 审计期间：{ $since } 至 { $until }（UTC）。
evidence-read = 读取的账单行：{ $read } 行，其中在此期间收费：{ $in_span } 行。容差：计量金额的 { $percent } % 或该币种 { $floor }，取较大者。

# 实例表：标题、各列以及未见释放
evidence-heading-instances = 实例
evidence-column-instance = 实例
evidence-column-provider = 服务商
evidence-column-region = 地域
evidence-column-type = 规格
evidence-column-started = 首次见到运行
evidence-column-stopped = 停止
evidence-column-released = 释放
evidence-not-released = 未释放

# 发现：每项一个列表条目，`$kind` 是发现的类别词（标识符）
evidence-heading-findings = 发现
evidence-agrees = 无：账单与计量在容差之内一致。
evidence-finding = **{ $kind }**：{ $what }（{ $amounts }；bill-lines.csv 中的账单行：{ $lines } 行）
evidence-no-amount = 账单上没有金额
evidence-in-question = 存疑金额合计：{ $amounts }。

# 本该停止计费之后仍被收费的资源；`$what` 是其类别
evidence-leftover-itself = 实例本身
evidence-leftover = { $why ->
        [after_release] { $resource }（{ $what }，属于 { $instance }）在实例释放之后仍被收费，自 { $since } 起
        [after_gone] { $resource }（{ $what }，属于 { $instance }）在看到已删除之后仍被收费，自 { $since } 起
       *[instance_gone] { $resource }（{ $what }，属于 { $instance }）在其实例已不存在时仍被收费，自 { $since } 起
    }
# 接在上面的句子之后
evidence-refunded = ；账单上已退款：{ $amounts }
evidence-kept = ；计量记录中没有它的删除，它可能仍然存在，因此不要求退还

# 可用区或地域之间的数据传输；`$who` 是下面两个分句之一
evidence-transfer-zones = 可用区之间的数据传输，从 { $from } 到 { $to }，{ $who }
evidence-transfer-regions = 地域之间的数据传输，从 { $from } 到 { $to }，{ $who }
evidence-transfer-while = 期间 { $instances } 在运行
evidence-transfer-nobody = 期间没有受监视的实例在运行

evidence-overlap = { $first } 与 { $second }（{ $sku }）自 { $from } 至 { $until } 同时运行；金额为较晚启动者在此期间的计算费用

# 计算：账单对照计量；`$cause` 是可能原因，`$detail` 为空或是下面两种细节之一
evidence-mismatch = { $instance }：账单计算费用：{ $billed }，计量计费：{ $metered }；可能原因：{ $cause }{ $detail }
evidence-nothing = 未收取
evidence-rate-detail = （账单单价 { $bill }/小时，价格表单价 { $sheet }/小时）
evidence-hours-detail = （账单 { $bill } 小时，计量所见 { $meter } 小时）

evidence-unexplained = { $resource }（{ $service }）与计量记录的任何内容都不匹配
evidence-no-resource-id = 无资源 ID

# 我们向服务商提出的请求，每项一个列表条目
evidence-heading-ask = 我们的请求
evidence-ask-leftover = 请退还 { $resource } 在 { $at } 之后的费用：计量记录显示它此时已释放或删除。
evidence-ask-overlap = 请核查 { $second } 自 { $from } 至 { $until } 与 { $first } 同时运行的费用。
evidence-ask-mismatch = 请解释 { $instance } 超出约定价格收取的计算费用，或予以退还。
evidence-ask-unexplained = 请说明 { $resource } 是什么；如果它不是我们的，请予以退还。
evidence-ask-unexplained-no-id = 请说明没有资源 ID 的账单行是什么；如果它们不是我们的，请予以退还。
evidence-ask-nothing = 无：账单与记录一致。

# summary.md 旁边的文件；文件名保持原样
evidence-attached = 附件：actions.csv（对这些实例采取的每个操作，以及服务商的回读结果）、minutes.csv（计量逐分钟的记录）、bill-lines.csv（上面提到的账单行，以及它们所在的文件和行号）。

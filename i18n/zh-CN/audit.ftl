# `gpumeter audit` 的文字输出：账单对照账本。金额、时间与账单自带的字符串传入时已格式化；
# JSON 的字段值仍为英文。

audit-title = 账单对照账本，{ $since } 至 { $until }
audit-read = 从 { $files } 个文件读取 { $lines } 行，其中 { $in_span } 行在此期间收费：{ $billed }
audit-tolerance = 容差：计量金额的 { $percent } % 或该币种 { $floor }，取较大者
audit-total = 合计：{ $amount }
audit-agrees = 账单与账本在容差之内一致。
audit-findings = { $count } 项发现；存疑金额：{ $amount }
audit-not-on-bill = 账单上没有
audit-nothing = 未收费
audit-no-resource-id = 无资源 ID

audit-heading-leftover = 本该停止计费之后仍被收费
audit-heading-transfer = 地域与可用区之间的数据传输
audit-heading-overlap = 同时运行的同规格实例
audit-heading-mismatch = 计算：账单对照计量
audit-heading-unexplained = 账本无法解释的账单行

# 一项发现的第一行账单所在：文件 `$file` 的第 `$line` 行，以及它共有几行。
audit-at = [{ $file }:{ $line }，共 { $count } 行]

audit-instance = 实例
audit-leftover = { $why ->
        [after_release] { $resource }（{ $what }）在 { $instance } 释放之后，自 { $since } 起：{ $amount }
        [after_gone] { $resource }（{ $what }）在看到已删除之后（属于 { $instance }），自 { $since } 起：{ $amount }
       *[instance_gone] { $resource }（{ $what }）属于已不存在的 { $instance }，自 { $since } 起：{ $amount }
    }
audit-refunded = 已退款：{ $amount }
audit-not-deleted = 据记录尚未删除：不计入存疑

audit-transfer-zones = 可用区之间 { $from } -> { $to }{ $quantity }，{ $who }：{ $amount }
audit-transfer-regions = 地域之间 { $from } -> { $to }{ $quantity }，{ $who }：{ $amount }
audit-transfer-nobody = 没有受监视的实例在那里运行
audit-transfer-while = 期间 { $instances } 在运行

audit-overlap = { $second } 与 { $first }（{ $sku }）同时运行，自 { $from } 至 { $until }：{ $second } 的计算费用 { $amount }

audit-mismatch = { $instance }：账单收费：{ $billed }，计量：{ $metered }{ $difference }；可能原因：{ $cause }{ $detail }
audit-difference = ，差额 { $amount }
audit-rate-detail = 账单 { $bill }/小时，价格表 { $sheet }/小时
audit-hours-detail = 账单 { $bill } 小时，计量 { $meter } 小时

audit-cause-rate-above = 价格变动：账单单价高于价格表
audit-cause-rate-below = 价格变动：账单单价低于价格表
audit-cause-rounding-up = 取整规则：账单把时长向上取整
audit-cause-rounding-down = 取整规则：账单把时长向下取整
audit-cause-hours-more = 计量未见的时长：账单收费的时长多于计量所见
audit-cause-hours-fewer = 账单未收费的时长：计量所见的时长多于账单收费
audit-cause-missing-on-sheet = 价格表上缺少这一项
audit-cause-not-on-bill = 账单上没有
audit-cause-unknown = 未知（账单未给出时长）

# 读不了的账单：`文件:行:列` 之后的说明。读到的内容按原样显示。
bill-expected-found = 应为{ $what }，实际为 `{ $value }`
bill-expected-empty = 应为{ $what }，实际为空
bill-too-many-fields = 最多应有 { $width } 个字段（与表头相同），实际有 { $found } 个
bill-cut-short = 最后一行不完整：应有 { $width } 个字段（与表头相同），实际只有 { $found } 个
bill-open-quote = 文件在引号字段内结束，缺少闭合的 `"`：最后一行不完整
bill-unknown-format = 无法识别的账单格式，看到的列：{ $columns }；{ $expected }
bill-no-header = 文件没有表头行：{ $expected }
bill-expected-header = 应为以下之一的表头：FOCUS 1.x 导出（BilledCost、ChargePeriodStart、BillingCurrency）、AWS 成本和使用情况报告（lineItem/UsageStartDate、lineItem/UnblendedCost）、阿里云账单明细导出（账期或账单日期、应付金额；或 BillingCycle、PretaxAmount）、腾讯云账单明细导出（资源ID、优惠后总价；或 Instance ID、Total Amount After Discount）
bill-not-utf8 = 第 { $field } 个字段应为 UTF-8 文本：请把导出另存为 CSV UTF-8
bill-not-csv = 应为 CSV 文本：{ $error }
bill-no-row-end = 读了 { $size } 仍没有行结束（账单每行只有几 KiB）；已拒绝
bill-stopped-short = 读取中途停止
bill-want-decimal = 小数，例如 12.50
bill-want-currency = 币种代码，例如 USD
bill-want-currency-code = 三个大写字母的币种代码，例如 USD
bill-want-time = 日期和时间，例如 2026-11-03T10:00:00Z
bill-want-time-or-local = 日期和时间，例如 2026-11-03T10:00:00Z 或 2026-11-03 10:00:00
bill-want-end-after-start = 不早于开始时间的结束时间

# 解压后超出限制的账单文件
audit-read-too-large = 解压后超过 { $size }，即单个账单文件的上限；已拒绝
audit-read-expands = 在前 { $first } 之后膨胀到 { $ratio }:1（账单 gzip 压缩比约为 10-30:1，上限为 { $bound }:1）；作为刻意膨胀的文件被拒绝

# gpumeter 的简体中文消息：包年包月等预付费计划的到期时间、续费与提前退订可退金额。每个 id 必须与
# i18n/en/ 下同名文件中的一致，参数相同，且不出现在其他文件中。

## Why what leaving now returns is unknown

sub-unknown-paid = [subscription] 未设置 `paid`
sub-unknown-rule = 没有提前退订规则：请设置 [subscription] refund，或价格表的 billing.early_termination_refund
sub-unknown-start = 本期开始时间未知：请设置 [subscription] started 或 plan

## status

sub-status-label = 包期
sub-line = { $plan }，{ $when }，{ $renews }；{ $returns }（{ $source }）
sub-plan-day = 包日
sub-plan-week = 包周
sub-plan-month = 包月
sub-plan-year = 包年
sub-plan-unstated = 包年包月
sub-ends = { $at } 到期（还剩 { $left }）
sub-ended = 已于 { $at } 到期
sub-renews-yes = 自动续费
sub-renews-no = 不自动续费
sub-renews-unknown = 未说明是否续费
sub-returns = 现在退订可退 { $amount }
sub-returns-cash = 现在退订可退 { $amount } 现金
sub-returns-vouchers = 现在退订可退 { $amount } 代金券
sub-no-refund = 提前退订不退款
sub-returns-unknown = 现在退订可退金额未知：{ $why }
sub-source-provider = 到期时间来自云平台
sub-source-config = 到期时间来自配置

## The cockpit's cost panel

sub-cost-label = 包期
sub-left = 剩 { $left }
sub-short-ended = 已到期
sub-short-renews = 自动续费
sub-short-no-renewal = 不续费
sub-short-returns = 现退 { $amount }
sub-short-returns-cash = 现退 { $amount } 现金
sub-short-returns-vouchers = 现退 { $amount } 代金券
sub-short-no-refund = 不退款
sub-short-unknown = 退款未知

## Price sheets' [billing] keys

sub-sheet-refund = `early_termination_refund` 为 "{ $word }"，应为 "none"、"unused" 或未使用部分中 0 到 1 的比例
sub-sheet-refund-to = `refund_to` 为 "{ $word }"，应为 "cash" 或 "vouchers"

## The config's [subscription]

sub-config-plan = `{ $text }` 不是计划周期：请写 day、week、month 或 year
sub-config-refund-word = `{ $text }` 不是退款规则：请写 none、unused，或未使用部分的比例，如 0.8
sub-config-refund-range = `{ $text }` 不是未使用部分中 0 到 1 的比例
sub-config-refund-to = `{ $text }` 不是退款去向：请写 cash 或 vouchers
sub-config-when = `{ $text }` 不是日期或时间：请写 2026-12-01、2026-12-01T08:00 或 2026-12-01T08:00:00+08:00
sub-config-ends-before = `ends`（{ $ends }）不晚于 `started`（{ $started }）

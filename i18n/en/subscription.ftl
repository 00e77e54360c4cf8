# gpumeter's English messages for a subscription (a plan paid ahead: a day, a week, a month, a
# year): its end, its renewal and what leaving early returns. Every id must be in the file of the
# same name under i18n/zh-CN/, with the same arguments, and in no other file.

## Why what leaving now returns is unknown

sub-unknown-paid = `paid` is not set in [subscription]
sub-unknown-rule = no early-termination rule: set [subscription] refund, or the sheet's billing.early_termination_refund
sub-unknown-start = the period's start is unknown: set [subscription] started or plan

## status: "plan      monthly plan, ends 2026-12-01 08:00 CST (in 20d0h), does not renew; leaving now returns 666.67 CNY as vouchers (end date from the config)"

sub-status-label = plan
sub-line = { $plan }, { $when }, { $renews }; { $returns } ({ $source })
sub-plan-day = daily plan
sub-plan-week = weekly plan
sub-plan-month = monthly plan
sub-plan-year = yearly plan
sub-plan-unstated = subscription
sub-ends = ends { $at } (in { $left })
sub-ended = ended { $at }
sub-renews-yes = renews itself
sub-renews-no = does not renew
sub-renews-unknown = renewal not stated
sub-returns = leaving now returns { $amount }
sub-returns-cash = leaving now returns { $amount } in cash
sub-returns-vouchers = leaving now returns { $amount } as vouchers
sub-no-refund = leaving early returns nothing (no refund)
sub-returns-unknown = what leaving now returns is unknown: { $why }
sub-source-provider = end date from the provider
sub-source-config = end date from the config

## The cockpit's cost panel: "plan 20d0h left · no renewal · leave now 666.67 CNY vouchers"

sub-cost-label = plan
sub-left = { $left } left
sub-short-ended = ended
sub-short-renews = renews
sub-short-no-renewal = no renewal
sub-short-returns = leave now { $amount }
sub-short-returns-cash = leave now { $amount } cash
sub-short-returns-vouchers = leave now { $amount } vouchers
sub-short-no-refund = no refund
sub-short-unknown = refund unknown

## Price sheets' [billing] keys

sub-sheet-refund = `early_termination_refund` is "{ $word }", expected "none", "unused" or a fraction of the unused share from 0 to 1
sub-sheet-refund-to = `refund_to` is "{ $word }", expected "cash" or "vouchers"

## The config's [subscription]

sub-config-plan = `{ $text }` is not a plan: write day, week, month or year
sub-config-refund-word = `{ $text }` is not a refund rule: write none, unused, or a fraction of the unused share such as 0.8
sub-config-refund-range = `{ $text }` is not a fraction from 0 to 1 of the unused share
sub-config-refund-to = `{ $text }` is not where a refund goes: write cash or vouchers
sub-config-when = `{ $text }` is not a date or time: write 2026-12-01, 2026-12-01T08:00 or 2026-12-01T08:00:00+08:00
sub-config-ends-before = `ends` ({ $ends }) is not after `started` ({ $started })

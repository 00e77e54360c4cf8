# `gpumeter audit` as text: the bill against the ledger. Amounts, times and the bill's own
# strings arrive formatted; JSON keeps its English field values.

audit-title = Bill against the ledger, { $since } to { $until }
audit-read = { $lines } lines read from { $files ->
        [one] 1 file
       *[other] { $files } files
    }, { $in_span } charged in the period: { $billed }
audit-tolerance = tolerance: { $percent } % of the meter's amount or { $floor } of the currency, whichever is larger
audit-total = total: { $amount }
audit-agrees = The bill and the ledger agree within the tolerance.
audit-findings = { $count ->
        [one] 1 finding
       *[other] { $count } findings
    }; in question: { $amount }
audit-not-on-bill = not on the bill
audit-nothing = nothing
audit-no-resource-id = no resource id

audit-heading-leftover = Charged after it should have stopped billing
audit-heading-transfer = Data transfer between regions and zones
audit-heading-overlap = Instances of one type that ran at the same time
audit-heading-mismatch = Compute: the bill against the meter
audit-heading-unexplained = Lines the ledger cannot explain

# Where a finding's first bill line is: `$file` and `$line` of it, and how many lines it has.
audit-at = [{ $file }:{ $line }, { $count ->
        [one] 1 line
       *[other] { $count } lines
    }]

audit-instance = instance
audit-leftover = { $why ->
        [after_release] { $resource } ({ $what }) after the release of { $instance }, since { $since }: { $amount }
        [after_gone] { $resource } ({ $what }) after it was seen deleted, of { $instance }, since { $since }: { $amount }
       *[instance_gone] { $resource } ({ $what }) of the gone { $instance }, since { $since }: { $amount }
    }
audit-refunded = refunded already: { $amount }
audit-not-deleted = not deleted as far as the record shows: not in question

audit-transfer-zones = between zones { $from } -> { $to }{ $quantity }, { $who }: { $amount }
audit-transfer-regions = between regions { $from } -> { $to }{ $quantity }, { $who }: { $amount }
audit-transfer-nobody = no watched instance ran there
audit-transfer-while = while { $instances } ran

audit-overlap = { $second } beside { $first } ({ $sku }) from { $from } to { $until }: { $amount } of { $second }'s compute

audit-mismatch = { $instance }: billed { $billed }, metered { $metered }{ $difference }; likely { $cause }{ $detail }
audit-difference = {", "}difference { $amount }
audit-rate-detail = { $bill }/h on the bill, { $sheet }/h on the sheet
audit-hours-detail = { $bill } h on the bill, { $meter } h metered

audit-cause-rate-above = a rate change: the bill's rate is above the sheet's
audit-cause-rate-below = a rate change: the bill's rate is below the sheet's
audit-cause-rounding-up = a rounding rule: the bill rounds the hours up
audit-cause-rounding-down = a rounding rule: the bill rounds the hours down
audit-cause-hours-more = hours the meter did not see: the bill charges more hours than the meter saw
audit-cause-hours-fewer = hours the bill does not charge: the meter saw more hours than the bill charges
audit-cause-missing-on-sheet = a missing line on the sheet
audit-cause-not-on-bill = not on the bill
audit-cause-unknown = unknown (the bill gives no hours)

# A bill that cannot be read: the message after `file:line:column`. What was found stays as it
# was written.
bill-expected-found = expected { $what }, found `{ $value }`
bill-expected-empty = expected { $what }, found an empty field
bill-too-many-fields = expected at most { $width } fields, as many as the header has, found { $found }
bill-cut-short = the last line is cut short: expected { $width } fields, as many as the header has, found { $found }
bill-open-quote = the file ends inside a quoted field, expected its closing `"`: the last line is cut short
bill-unknown-format = unknown bill format, columns seen: { $columns }; { $expected }
bill-no-header = the file has no header row: { $expected }
bill-expected-header = expected the header of a FOCUS 1.x export (BilledCost, ChargePeriodStart, BillingCurrency), an AWS Cost and Usage Report (lineItem/UsageStartDate, lineItem/UnblendedCost), an Alibaba Cloud bill-details export (账期 or 账单日期, 应付金额; or BillingCycle, PretaxAmount) or a Tencent Cloud bill-details export (资源ID, 优惠后总价; or Instance ID, Total Amount After Discount)
bill-not-utf8 = expected UTF-8 text in field { $field }: save the export as CSV UTF-8
bill-not-csv = expected CSV text: { $error }
bill-no-row-end = { $size } read with no row ending (a bill's rows are a few KiB); refused
bill-stopped-short = the reading stopped short
bill-want-decimal = a decimal such as 12.50
bill-want-currency = a currency code such as USD
bill-want-currency-code = a currency code of three capital letters such as USD
bill-want-time = a date and time such as 2026-11-03T10:00:00Z
bill-want-time-or-local = a date and time such as 2026-11-03T10:00:00Z or 2026-11-03 10:00:00
bill-want-end-after-start = an end no earlier than the start

# a bill file that expands past its bounds
audit-read-too-large = decompresses to more than { $size }, the bound on one bill file; refused
audit-read-expands = expands { $ratio }:1 past the first { $first } (a bill gzips to 10-30:1, the bound is { $bound }:1); refused as a file made to expand

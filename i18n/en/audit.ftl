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
audit-leftover-after-release = { $resource } ({ $what }) after the release of { $instance }, since { $since }: { $amount }
audit-leftover-after-gone = { $resource } ({ $what }) after it was seen deleted, of { $instance }, since { $since }: { $amount }
audit-leftover-instance-gone = { $resource } ({ $what }) of the gone { $instance }, since { $since }: { $amount }
audit-refunded = refunded already: { $amount }
audit-not-deleted = not deleted as far as the record shows: not in question

audit-transfer-zones = between zones { $from } -> { $to }{ $quantity }, { $who }: { $amount }
audit-transfer-regions = between regions { $from } -> { $to }{ $quantity }, { $who }: { $amount }
audit-transfer-nobody = no watched instance ran there
audit-transfer-while = while { $instances } ran

audit-overlap = { $second } beside { $first } ({ $sku }) from { $from } to { $until }: { $amount } of { $second }'s compute

audit-mismatch = { $instance }: billed { $billed }, metered { $metered }{ $difference }; likely { $cause }{ $detail }
audit-difference = difference { $amount }
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

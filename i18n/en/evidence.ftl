# `audit --evidence DIR`: the refund case summary.md, a Markdown letter a support desk reads.
# Amounts, times, ids and the bill's own text arrive formatted.

# the letter's opening; the numbers and times arrive formatted
evidence-title = Billing dispute: the bill against the meter's record
evidence-period = Period audited: { $since } to { $until } (UTC).
evidence-read = Bill lines read: { $read }, charged in the period: { $in_span }. Tolerance: { $percent } % or { $floor } of the currency, whichever is larger.

# the instances table: its headings, its columns and a release not seen
evidence-heading-instances = Instances
evidence-column-instance = instance
evidence-column-provider = provider
evidence-column-region = region
evidence-column-type = type
evidence-column-started = first seen running
evidence-column-stopped = stopped
evidence-column-released = released
evidence-not-released = not released

# the findings: one list item each, `$kind` is the finding's kind word (an identifier)
evidence-heading-findings = Findings
evidence-agrees = None: the bill and the meter agree within the tolerance.
evidence-finding = **{ $kind }**: { $what } ({ $amounts }; bill lines in bill-lines.csv: { $lines })
evidence-no-amount = amount not on the bill
evidence-in-question = In question in all: { $amounts }.

# a resource charged after it should have stopped billing; `$what` is its kind
evidence-leftover-itself = the instance itself
evidence-leftover = { $why ->
        [after_release] { $resource } ({ $what }, of { $instance }) charged after the instance was released, since { $since }
        [after_gone] { $resource } ({ $what }, of { $instance }) charged after it was seen deleted, since { $since }
       *[instance_gone] { $resource } ({ $what }, of { $instance }) charged though its instance is gone, since { $since }
    }
# appended to the sentence above
evidence-refunded = ; refunded on the bill already: { $amounts }
evidence-kept = ; the meter's record shows no delete of it, so it may still exist and is not asked back

# data moved between zones or regions; `$who` is one of the two clauses below it
evidence-transfer-zones = Inter-zone data transfer from { $from } to { $to }, { $who }
evidence-transfer-regions = Inter-region data transfer from { $from } to { $to }, { $who }
evidence-transfer-while = while { $instances } ran
evidence-transfer-nobody = while no watched instance ran

evidence-overlap = { $first } and { $second } ({ $sku }) ran at the same time from { $from } to { $until }; the later one's compute then

# compute: the bill against the meter; `$cause` is the likely cause, `$detail` is empty or one of the two details
evidence-mismatch = { $instance }: the bill charges { $billed } for compute, the meter billed { $metered }; likely { $cause }{ $detail }
evidence-nothing = nothing
evidence-rate-detail = : the bill charges { $bill }/h, the rate was { $sheet }/h
evidence-hours-detail = : the bill charges { $bill } h, the meter saw { $meter } h

evidence-unexplained = { $resource } ({ $service }) matches nothing the meter recorded
evidence-no-resource-id = no resource id

# what we ask the provider for, one list item each
evidence-heading-ask = What we ask
evidence-ask-leftover = A refund of the charges for { $resource } after { $at }, when the meter's record shows it released or deleted.
evidence-ask-overlap = A review of { $second } running beside { $first } from { $from } to { $until }.
evidence-ask-mismatch = An explanation of, or a refund for, the compute charged for { $instance } beyond the rate agreed.
evidence-ask-unexplained = What { $resource } is, and a refund if it is not ours.
evidence-ask-unexplained-no-id = What the lines with no resource id is, and a refund if it is not ours.
evidence-ask-nothing = Nothing: the bill matches the record.

# the files beside summary.md; their names stay as they are
evidence-attached = Attached: actions.csv (every action taken on these instances with the provider's read-back), minutes.csv (the meter's record minute by minute), bill-lines.csv (the bill lines above, with the file and line they come from).

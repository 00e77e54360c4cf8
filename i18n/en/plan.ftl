# gpumeter's English messages: the text estimate, pricing and report print. Every id must be in
# the file of the same name under i18n/zh-CN/, with the same arguments, and in no other file.

# estimate
estimate-gpus = { $gpus ->
        [one] { $gpus } GPU
       *[other] { $gpus } GPUs
    }
estimate-sku-gpus = { $sku } ({ $count })
estimate-runs = {" "}in { $runs } runs
estimate-plan = { $what }, { $hours_per_day } h/day{ $runs } for { $days } days = { $hours } h, in { $currency }
estimate-col-mode = mode
estimate-col-compute = compute
estimate-col-bandwidth = bandwidth
estimate-col-storage = storage
estimate-col-extras = extras
estimate-col-total = total
estimate-mode-on-demand = on-demand
estimate-mode-monthly = monthly
estimate-mode-mixed = mixed
estimate-mode-spot = spot
estimate-no-price = no price
estimate-unknown = unknown
estimate-at-least = ≥ { $total } + { $count } unknown
estimate-cheapest = {"  "}<- cheapest
estimate-inline-prices = the inline prices
estimate-sheet = sheet `{ $sheet }`
estimate-unknown-note = Unknown: { $line } has no price in { $sheet } ({ $key }); an incomplete total leaves it out.
estimate-mixed-note = Mixed: { $plans }, then { $days } day(s) on demand.
estimate-mixed-note-plans-only = Mixed: { $plans }.
estimate-plan-years = { $count } year(s)
estimate-plan-months = { $count } month(s) of { $month_hours } h
estimate-plan-months-off = { $count } month(s) of { $month_hours } h at { $off } % off
estimate-plan-weeks = { $count } week(s)
estimate-plan-days = { $count } day(s) by the day
estimate-plan-separator = ,{" "}
estimate-rerun-note = Spot compute includes { $rerun } of expected reruns: each reclaim loses half a checkpoint interval of work on average.
estimate-rerun-unpriced = Spot compute leaves reruns out: no reclaim rate is known (billing.reclaims_per_day in the sheet, or --reclaims-per-day).
estimate-restart-note = Spot compute includes { $rerun } of expected reruns: with no checkpoint, each reclaim starts a { $job } h job over (it takes { $expected } h on average).
estimate-restart-warning =
    Warning: a spot job of { $job } h runs longer than the { $interval } h spot usually runs between reclaims, and no --checkpoint-every was given: each reclaim starts it over.
    Spot compute includes { $rerun } of expected reruns (the job takes { $expected } h on average). Save checkpoints outside the instance and pass --checkpoint-every.
estimate-restart-never =
    Warning: a spot job of { $job } h against { $interval } h between reclaims, with no checkpoint, would in practice never finish: the spot total leaves its reruns out and is never called the cheapest.
    Save checkpoints outside the instance and pass --checkpoint-every.
estimate-other-note = Extras include, for each instance: { $each }.
estimate-other-hourly = { $label } { $price }/h while up
estimate-other-monthly = { $label } { $price } a month
estimate-list-separator = ;{" "}
estimate-break-even = Break-even: the monthly subscription is cheaper above { $hours } hours of use a month.
estimate-note =
    Note: spot capacity can be reclaimed at any moment; use it only for work that resumes from a
    checkpoint. A monthly commitment is paid up front and cannot be refunded if you stop early.

# estimate --compare
compare-any-gpu = Any GPU
compare-plan = { $gpu }, at least { $gpus } GPU(s), { $hours_per_day } h/day for { $days } days = { $hours } h; totals in { $currency }
compare-rate = Rate: 1 { $from } = { $rate } { $to }
compare-nothing-fits = No SKU of any sheet fits.
compare-col-total = total { $currency }
compare-col-per-gpu-hour = per GPU-h
compare-col-as-priced = as priced
compare-col-sheet = sheet
compare-col-sku = sku
compare-col-gpus = gpus
compare-col-as-of = as of
compare-incomplete = Incomplete: the sheet lacks a price the plan needs (named after it); each total is at least this much, so none is ranked.
compare-not-comparable = Not comparable: no rate to { $currency }; give one with --fx FROM:{ $currency }=RATE or [fx] rates.
compare-stale-mark = {" "}stale
compare-stale = stale: the sheet's prices are more than { $days } days old.
compare-incomplete-mark = {"  "}incomplete: { $unknown }
compare-ranked = Ranked by the plan's total (compute + bandwidth + storage + extras), not by hourly price.

# pricing
pricing-stale = warning: price sheet `{ $sheet }` is dated { $date } ({ $age } days ago, more than { $limit }); its prices may have changed
pricing-heading = { $id } ({ $place }): { $currency }, as of { $date }, { $count ->
        [one] { $count } SKU
       *[other] { $count } SKUs
    }
pricing-gpus = { $count }x { $model } { $memory } GiB
pricing-on-demand-short = on-demand { $price }/h
pricing-spot-short = spot { $price }/h
pricing-monthly-short = monthly { $price }
pricing-units-short = { $price }/h in units
pricing-not-in-sheet = not in this sheet
pricing-row-sheet = sheet
pricing-row-source = source
pricing-row-gpus = GPUs
pricing-row-on-demand = on-demand
pricing-row-spot = spot
pricing-row-monthly = monthly
pricing-row-compute-units = compute units
pricing-row-billing = billing
pricing-row-egress = egress
pricing-row-ingress = ingress
pricing-row-fixed-bandwidth = fixed bandwidth
pricing-row-disk = disk { $class }
pricing-row-snapshot = snapshot
pricing-row-image = image
pricing-row-network-volume = network volume
pricing-row-public-ip = public IP
pricing-row-idle-public-ip = idle public IP
pricing-row-load-balancer = load balancer
pricing-row-license = license
pricing-row-boot-fee = boot fee
pricing-gpus-each = { $count }x { $model }, { $memory } GiB each
pricing-per-month = {" "}per month
pricing-units = { $units } units/h x { $price } { $currency } = { $per_hour } { $currency }/h
pricing-free-egress = , { $amount } { $unit } free per month
pricing-per-mbps-month = {" "}per Mbps-month
pricing-while-stopped = {" "}({ $price } while stopped)
pricing-attached = /h attached
pricing-per-start = {" "}per start
pricing-per-gpu-hour = { $price } ({ $per_gpu } per GPU-hour)
pricing-keeps-billing = compute keeps billing
pricing-stops-billing = compute stops billing
pricing-fraction-bills = { $fraction } of compute bills
pricing-billing = per { $step } s, minimum { $minimum } s; when stopped, { $stopped }; a month is { $month } h
pricing-valid = { $file }: ok, { $heading }
pricing-place = { $provider }, { $region }
pricing-per-hour = /h
pricing-per-hour-up = /h while up
pricing-daily-short = daily { $price }
pricing-weekly-short = weekly { $price }
pricing-yearly-short = yearly { $price }
pricing-row-daily = daily
pricing-row-weekly = weekly
pricing-row-yearly = yearly
pricing-per-day = {" "}per day
pricing-per-week = {" "}per week
pricing-per-year = {" "}per year
pricing-discount = { $months }+ months at once: { $off } % off
pricing-per-gib-month = /GiB-month
pricing-no-sku = no SKU `{ $sku }` in { $place }; `gpumeter pricing list` shows them all
pricing-any-bundled = any bundled sheet

# report
report-spend-from = Spend from { $since } to { $until } ({ $zone })
report-local-time = local time
report-nothing = Nothing was recorded in this window.
report-col-day = Day ({ $currency })
report-col-idle = idle
report-total = Total
report-billed = Billed
report-idle-share = {" "}({ $pct }% of the spend)
report-at-least = The total is at least this: it leaves out { $count } unknown: { $unknown }
report-idle-spend = Idle spend: { $idle }{ $share }
report-chart = Spend per day ({ $currency }; █ busy, ░ idle)
report-chart-idle = {"  "}{ $pct }% idle
report-util = GPU utilisation { $mean }% mean, { $max }% max
report-util-none = GPU utilisation n/a
report-usage = Energy { $kwh } kWh · { $util } · egress { $gib } GiB
report-egress-split = of it: internet { $internet }, intranet { $intranet }, other regions { $cross }
report-instances = Instances
report-instance-unknown = {" "}+ { $count } unknown
report-instance-tail = {" "}(idle { $idle }, billed { $billed }), { $sessions ->
        [one] { $sessions } session
       *[other] { $sessions } sessions
    }
report-to-date = To date, over each instance's life (as status gives it)
report-account = account to date: { $total }; still billing a month: { $monthly }
report-account-unknown = account to date: unknown, { $why }
report-no-listing = the ledger kept no listing of it (an older ledger, or an instance it never listed)
report-no-prices = no price sheet prices it
report-other-instance = the config prices another instance ({ $provider } { $sku }), not this { $listed_provider } { $listed_sku }
report-actions = Actions: { $actions } · alerts: { $alerts }
report-nothing-billing = Nothing seen still billing after a release.
report-still-billing = Still billing after their instance was released
report-price-unknown = price unknown
report-per-month = { $amount }/month
report-released = ({ $instance } released { $at })
report-overlap = Overlap: { $first } and { $second } ran together for { $hours }h{ $minutes }m ({ $from } to { $until })
report-kind-system-disk = system disk
report-kind-data-disk = data disk
report-kind-snapshot = snapshot
report-kind-image = image
report-kind-public-ip = public ip
report-kind-load-balancer = load balancer
report-kind-network-volume = network volume
report-kind-stopped-instance = stopped instance
report-mode-on-demand = on_demand
report-mode-spot = spot
report-mode-monthly = monthly
report-mode-compute-units = compute_units
estimate-sku-not-in-sheet = --sku: `{ $sku }` is not in sheet `{ $sheet }`; it has: { $skus }
estimate-storage-rate-needed = --storage-rate is needed: sheet `{ $sheet }` prices several disk classes ({ $classes })
report-too-far-back = `{ $text }` reaches too far back
report-not-a-time = `{ $text }` is not a time: write a span back from now (7d, 36h, 90m), a date (2026-05-01), a local time (2026-05-01 18:30) or an RFC 3339 instant

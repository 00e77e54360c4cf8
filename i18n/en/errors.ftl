# gpumeter's errors in English and what to fix, as stderr shows them after `gpumeter: `. The
# provider's own code and message, paths, flags, variables and commands stay as they are.

# the program
err-core-dumps-on = warning: core dumps stay on: { $error }
# the emission: `gpumeter: fix (kind): ...`; the kind word is the same in every language
err-fix-line = fix ({ $kind }): { $fix }
err-usage = usage: { $usage } (more with --help)
err-more-with-help = more with --help

# lists inside messages
err-list-sep = {", "}
err-list-and = { $init } and { $last }

# a provider's error: what happened
err-provider-missing = missing credential: set { $name }
err-provider-missing-looked = missing credential: set { $name } (looked in { $tried })
err-provider-refused = { $provider } rejected { $what }{ $answer }; check { $check }
err-provider-expired = { $provider } says { $what } has expired{ $answer }; renew { $check }
err-provider-clock = { $provider } refused the request's time{ $answer }; check this machine's clock
err-provider-unsupported = { $provider } cannot { $what }
err-provider-state = cannot read the provider's state: { $detail }

# a provider's error: what to fix
err-fix-missing = set { $name }
err-fix-missing-looked = set { $name } (looked in { $tried })
err-fix-refused = check { $check }; { $provider } refused { $what }
err-fix-expired = renew { $check }; { $what } has expired
err-fix-clock = set this machine's clock right (NTP); { $provider } refused the request's time
err-fix-permission = the key lacks { $action }; grant it in { $policy }
err-fix-permission-call = the key may not call { $call }; grant it in { $policy }
err-fix-permission-any = the key lacks a permission; grant it in { $policy }
err-fix-throttled-wait = wait { $seconds }s and retry; { $provider } is limiting requests
err-fix-throttled = wait and retry; { $provider } is limiting requests
err-fix-instance-id = check the instance id (--instance or [instance] id)
err-fix-rejected = change the request; { $provider } refuses it as it is
err-fix-rejected-code = { $provider } refused the request ({ $code }); see its message
err-fix-unsupported = nothing to fix: { $provider } has no way to do this
err-fix-state = { $provider } answered what gpumeter does not expect: retry, and report it if it persists
err-fix-unreachable-code = { $provider } is failing on its side ({ $code }): retry later, or see its status page
err-fix-unreachable = check the network to { $provider }, then retry

# where each provider's permissions are granted
err-grant-at-aws = IAM
err-grant-at-alibaba = RAM
err-grant-at-tencent = CAM
err-grant-at-lambda = the Lambda Cloud dashboard
err-grant-at-runpod = the key's RunPod permissions
err-grant-at-vast = the key's Vast.ai permissions
err-grant-at-autodl = the AutoDL account's verification
err-grant-at-command = the command's own setup
err-grant-at-demo = the demo settings
err-grant-at-unknown = the provider's access settings

# the command line's own refusals and bad input
err-runtime = cannot start the runtime: { $error }
err-no-bundled-sheet = --provider: no bundled sheet `{ $id }`; the bundled sheets are { $ids }
err-gpus-without-demo = --gpus only applies with --demo: without it the real GPUs are read through NVML
err-sku-needs-sheet = --sku needs a sheet: add --provider NAME or --sheet FILE
err-cockpit-needs-terminal = the cockpit needs a terminal; for scripts use `gpumeter status --json`
err-release-at = --release-at: `{ $text }` is not a clock time such as 18:30
err-flag-before-command = { $flag } before `{ $name }` does nothing: give it after, as `gpumeter { $name } { $flag } ...`
err-flag-of-the-cockpit = { $flag } is a flag of the cockpit (`gpumeter { $flag } ...` with no subcommand); `{ $name }` does not take it

# durations, after the flag or setting that took them
err-duration-negative = `{ $text }` is negative: a duration must be 0 or more
err-duration-too-large = `{ $text }` is too large: the largest duration accepted is { $max }h (10 years)
err-duration-malformed = `{ $text }` is not a duration: write it like 8h, 45m, 90s or 1h30m
err-duration-zero = `{ $text }` is zero: this duration must be more than zero

# release, stop, start, snapshot-clean, cleanup, extend
err-read-only = refusing to { $action }: read-only mode (--read-only or read_only in the config)
err-read-only-extend = refusing to extend: read-only mode
err-verb-clean-up = clean up
err-no-terminal = refusing to { $action } without confirmation: no terminal to ask on; pass --yes
err-cannot-read-answer = cannot read the answer: { $error }
err-cancelled = { $action }: cancelled
err-nothing-to-do = { $action }: nothing to do; { $why }, as { $provider } reads it now. `gpumeter checklist` shows what still bills.
err-action-failed = { $action } failed
err-not-confirmed = { $action }: NOT confirmed; the provider reports { $summary }
err-no-answer = { $action }: NOT confirmed; no answer from { $provider } within { $seconds } s. It may still be under way, or done in part: `gpumeter checklist` shows what the provider says now
err-extend-failed = extend failed; the ledger keeps the old deadline
err-extend-not-confirmed = extend: NOT confirmed; the ledger keeps the old deadline; the provider reports { $summary }
err-nothing-to-extend = nothing to extend: { $why }, as { $provider } reads it now
err-no-instance-to-extend = no instance to extend: name it with --instance

# why an action has nothing to do
err-already-released = the instance is already released
err-released-nothing-to-stop = the instance is released: there is nothing to stop
err-already-stopped = the instance is already stopped
err-already-running = the instance is already running
err-released-nothing-to-start = the instance is released: there is nothing to start
err-released-no-deadline = the instance is released: there is no deadline to move

# the config file: after file:line:column and the key; the TOML parser's own words stay English
err-config-read = cannot read config file { $path }: { $error }
err-config-percent = `{ $value }` is not a percentage: expected a number from 0 to 100
err-config-clock-time = `{ $text }` is not a clock time: write it like 18:30
err-config-amount = `{ $text }` is not an amount: write it like "12.50"
err-config-amount-float = write amounts as strings ("{ $value }") or integers, not floats, so they stay exact
err-config-amount-zero = `{ $amount }` is not above zero: this must be more than zero
err-config-sheet-empty = the sheet is empty: name a bundled sheet or a file
err-config-release-both = set release_in or release_at, not both
err-config-currency = the budget is in { $budget } but the price sheet `{ $sheet }` prices in { $priced }; expected { $priced } (or no currency, to take the sheet's)
err-config-refresh = { $refresh } is too fast: refresh at most every 100ms
err-config-secret-in-env = { $name } holds a credential: keep keys and secrets in the provider's credentials file and name its profile here (AWS_PROFILE, ALIBABA_CLOUD_PROFILE, ...)
err-config-hooks-zero = 0 would silence every hook: write 1 or more

# a price sheet: after file:line:column
sheet-cannot-read = cannot read the price sheet: { $error }
sheet-missing-key = missing key `{ $key }`, expected { $expected }
sheet-for-new-sku = { $expected } for new SKU `{ $name }`
sheet-not-a-number = `{ $key }` is { $written }, expected a number such as 0.09 or "0.09"
sheet-number-too-large = `{ $key }` is { $written }, expected a number no larger than { $max } with at most 28 decimal places
sheet-not-finite = `{ $key }` is { $written }, expected a finite number
sheet-inexact-float = `{ $key }` = { $text } has { $digits } significant digits, more than a TOML float keeps exactly ({ $max }); expected the price in quotes: "{ $text }"
sheet-negative-price = `{ $key }` is { $amount }, expected a price of 0 or more
sheet-negative = `{ $key }` is { $amount }, expected 0 or more
sheet-zero = `{ $key }` is 0, expected a whole number of at least 1
sheet-empty-text = `{ $key }` is empty, expected some text
sheet-stop-policy-word = `stop_policy` is "{ $word }", expected "keep-charging", "stop-charging" or a fraction of the compute price from 0 to 1
sheet-stop-policy-fraction = `stop_policy` fraction { $fraction } is outside 0..=1, expected "keep-charging", "stop-charging" or a fraction of the compute price from 0 to 1
sheet-unknown-unit = unknown unit "{ $unit }" in `network.unit`, expected "GiB" (2^30 bytes) or "GB" (10^9 bytes)
sheet-not-a-date = `as_of` is not a date, expected a date such as 2026-01-21
sheet-unknown-extends = unknown sheet `{ $id }` in `extends`, expected one of { $known }
sheet-currency-changed = `currency` is { $currency } but `{ $base }` prices in { $priced }; expected { $priced } (a sheet that extends another keeps its currency)
sheet-unit-changed = `network.unit` is "{ $unit }" but `{ $base }` prices data per { $priced }; expected "{ $priced }" (a sheet that extends another keeps its data unit)
sheet-other-label = a label such as "port mapping"
sheet-other-one-price = `[[extras.other]]` "{ $label }" needs exactly one of `per_hour` (while the instance is up) and `per_month` (while it exists)
sheet-expect-discount = a `months` count (at least 1) and an `off` fraction below 1, such as months = 3, off = "0.15"
sheet-bad-discount = `[[billing.duration_discount]]` for { $months } months takes off { $off }; expected a fraction below 1, each months count once
sheet-duplicate-sku = SKU `{ $name }` is listed twice (first on line { $line }), expected each SKU name once
sheet-no-price = SKU `{ $name }` has no price, expected at least one of `on_demand_per_hour`, `spot_per_hour`, `monthly` or `compute_units_per_hour`

# what a missing key of a price sheet should hold
sheet-expect-id = a sheet id
sheet-expect-provider = the provider name, such as "aws"
sheet-expect-currency = a currency code such as "USD" or "CNY"
sheet-expect-as-of = the date the prices were read, such as 2026-01-21
sheet-expect-source = where the prices come from (a URL or a repository)
sheet-expect-step = the billing step in seconds (1, 60 or 3600)
sheet-expect-minimum = the minimum billed duration in seconds (0 for none)
sheet-expect-stop-policy = "keep-charging", "stop-charging" or a fraction from 0 to 1
sheet-expect-egress = the price per GiB (or GB) sent to the internet; 0 where egress is free, "unknown" where it is not known
sheet-expect-disk = the price per GiB-month of this disk class
sheet-expect-sku-name = the SKU's name, such as "g5.xlarge"
sheet-expect-gpu-model = the GPU model
sheet-expect-gpu-count = the number of GPUs
sheet-expect-gpu-memory = the memory per GPU in GiB
sheet-expect-unit-price = the price of one compute unit, in this SKU or in [billing]
sheet-expect-units = the units this SKU uses per hour, since it states `compute_unit_price`

# the ledger and the data directory
err-no-data-dir = no home directory to keep data in: pass --data-dir DIR or set GPUMETER_DATA_DIR
err-not-recorded = { $action } is not recorded in the ledger: { $error }
err-ledger-busy = the ledger { $path } is locked by another process (still busy after { $ms } ms); is another gpumeter writing to it? It was left as it is
err-ledger-read-only = the ledger { $path } is read-only, so gpumeter will not write to it: make it writable, or pass --data-dir DIR to keep the history elsewhere
err-ledger-corrupt = the ledger { $path } is damaged ({ $detail }); it was left untouched: move it aside to start a new history, or restore a copy
err-ledger-newer = the ledger { $path } has schema version { $found }, newer than this gpumeter knows ({ $known }); it was left untouched: upgrade gpumeter, or pass --data-dir DIR
err-ledger-not-a-ledger = { $path } is an SQLite database but not a gpumeter ledger; it was left untouched
err-ledger-io = cannot use the ledger { $path }: { $error }
err-ledger-bad-value = the ledger { $path } holds a value gpumeter cannot read: { $detail }
err-ledger-sqlite = the ledger { $path }: { $error }
err-ledger-writer-gone = the ledger writer has stopped; nothing more can be recorded

# estimate, report and audit
err-hours-per-day = --hours-per-day must be between 0 and 24, got { $got }
err-days = --days must be more than 0, got { $got }
err-at-least-one = { $flag } must be at least 1
err-not-negative = { $flag } must not be negative
err-checkpoint-zero = --checkpoint-every must be more than 0, such as 30m or 1h
err-inline-with-sheet = { $flag } prices inline and cannot be combined with a sheet; drop it or drop --provider/--sheet
err-sku-required = --sku is required with a sheet; `gpumeter pricing list` shows the SKUs of `{ $sheet }`
err-no-price = no price: give --rate, --monthly or --spot-rate, or a sheet with --provider/--sheet and --sku
err-currency-required = --currency is required with inline prices (for example --currency USD)
err-inline-needs = { $flag } needs { $needs } with inline prices: inline flags price compute, egress and storage only
err-not-with-compare = { $flag } prices one sheet and cannot be combined with --compare
err-since-before-until = --since ({ $since }) must be before --until ({ $until })
err-no-history = no spend history yet: { $path } does not exist (the cockpit records it while it runs; try `gpumeter report --demo`)
err-no-ledger = no ledger yet: { $path } does not exist (the cockpit records it while it runs; try `gpumeter audit --demo`)
err-audit-no-period = { $flag }: the bills hold no lines to take the period from; give --since and --until
err-tolerance = --tolerance: a percentage, 0 or more

# verify, status, sweep, pricing, cleanup and init
err-seconds = --seconds: { $seconds } is outside 1 to { $max }
err-percent = { $flag }: { $pct } is not a percentage from 0 to 100
err-fail-above-warn = the fail bar ({ $fail } %) is above the warn bar ({ $warn } %): a figure cannot fail where it would only warn
err-demo-only = { $flag } only applies with --demo
err-sheet-needs-sku = --provider and --sheet need --sku
err-no-sheet-has-sku = no bundled sheet has SKU `{ $name }`; name the sheet with --provider or --sheet
err-sku-in-several-sheets = SKU `{ $name }` is in several sheets with different GPUs ({ $ids }); choose one with --provider
err-all-regions-and-region = --all-regions sweeps every region of the account: give it or --region, not both
err-provider-and-sheet = --provider and --sheet both name a price sheet; give one
err-cleanup-what = cleanup: say what to delete: --id, --kind, --older-than, --tag, --unattached, or --all (`gpumeter sweep` lists what bills)
err-no-config-dir = no home directory for the config: give --config PATH
err-config-exists = { $path } exists and is left as it is: pass --force to replace it
err-more-than-zero = { $flag }: must be more than zero
err-not-a-policy = { $flag }: `{ $text }` is not one of alert, stop, release
err-deadline-clock = --deadline: `{ $text }` is not a clock time: write it like 18:30

# the providers' names in messages (FOCUS keeps the English name)
err-provider-name-demo = gpumeter demo cloud
err-provider-name-aws = AWS
err-provider-name-alibaba = Alibaba Cloud
err-provider-name-tencent = Tencent Cloud
err-provider-name-lambda = Lambda Cloud
err-provider-name-runpod = RunPod
err-provider-name-vast = Vast.ai
err-provider-name-autodl = AutoDL
err-provider-name-command = the command

# cleanup's refusals and a snapshot plan that changed since its confirmation
err-cleanup-not-listed = not found among what the provider lists now: { $ids }
err-cleanup-an-instance = an instance is released, not cleaned up: `gpumeter release --instance { $id }` offers a final snapshot of its disks first
err-cleanup-attached-running = attached to { $on }, which is running: stop or release it first
err-cleanup-image-uses = image { $image } uses it: delete the image with it (--id { $image }) or keep it
err-snapshots-changed = the snapshots changed since the confirmation
err-snapshots-also = ; it would now also delete { $ids }
err-snapshots-no-longer = ; it would no longer delete { $ids }
err-snapshots-nothing-deleted = ; nothing deleted: look again and confirm the new plan

# an instance the provider does not list, and this data directory never saw there
err-seen-place = region { $region } at { $endpoint }
err-seen-settings-region = --instance and --region (or [instance] id and region in the config)
err-seen-settings-endpoint = --instance (or [instance] id in the config) and the endpoint
err-seen-never = instance { $instance } is not listed in { $place }, and this data directory has never seen it: not counted as released, nothing was changed
err-seen-never-fix = check { $settings }: asked { $place } for { $instance }
err-seen-elsewhere = instance { $instance } is not listed in { $place }, and this data directory has seen it only in region { $regions }: not counted as released, nothing was changed
err-seen-elsewhere-fix = check --region (or [instance] region in the config): asked region { $region } for { $instance }, seen in { $regions }

# a scenario file (--scenario) that breaks a rule: each names the key as written in the file
scenario-not-percent = { $key } = { $value } is not between 0 and 100
scenario-negative = { $key } = { $value } must be zero or more
scenario-not-share = { $key } = { $value } must be above 0 and at most 1
scenario-not-reach = { $key } = { $value } is not between 0 and 1.5
scenario-not-width = { $key } = { $value } is not a PCIe link width
scenario-between = { $key } must be between { $low } and { $high }
scenario-at-most = { $key } must be { $high } or fewer
scenario-zero-or-more = { $key } must be zero or more
scenario-more-than = { $key } is more than { $limit }
scenario-above = { $key } is above { $limit }
scenario-gen-up-to = card.pcie_gen and card.pcie_gen_max go up to { $high }
money-currency-mismatch = cannot combine { $left } with { $right }: amounts in two currencies

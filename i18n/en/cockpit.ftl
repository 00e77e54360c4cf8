# gpumeter's messages in English: the cockpit. Each id is in the same file under i18n/zh-CN/,
# with the same arguments, and no id is in two files; tests fail otherwise. Spaces around a
# message stay in the code, since Fluent trims them.

# Keys: the help overlay lists what each key does.
key-help = show or hide this help
key-quit = quit (the instance keeps running)
key-close = close a dialog
key-focus = move focus between panels
key-up = select the previous row
key-down = select the next row
key-left = previous panel / dialog choice
key-right = next panel / dialog choice
key-details = show the selected linked resource's details
key-processes = show GPU processes
key-fleet = show the fleet: all instances, by cost
key-top = first / last row (events: oldest / newest)
key-page = scroll the focused list a page up / down
key-extend = extend the deadline by the configured step
key-extend-prompt = extend the deadline by a duration you type
key-retry-gpu = retry reading the GPUs (NVML)
key-release = release the instance
key-stop = stop the instance
key-start = start the stopped instance again
key-snapshot-clean = delete old snapshots
key-cleanup = delete the selected linked resource
help-title = Keys
help-asks-first = (asks first)
help-read-only = read-only: the keys that change the cloud are off
help-capitals = capital letters change the cloud and ask first; { $confirm } confirms
help-more = … { $count } more lines: a taller terminal shows them all
help-or = or
help-closes = closes

# The footer: short names beside the keys.
hint-help = help
hint-focus = focus
hint-select = select
hint-processes = processes
hint-extend-by = extend by…
hint-release = release
hint-stop = stop
hint-clean-snapshots = clean snapshots
hint-quit = quit

# Panel titles.
panel-cost = Cost
panel-release = Release
panel-events = Events
panel-gpus = GPUs
panel-resources = Linked resources
panel-welcome = Welcome

# The welcome, while no provider is configured.
welcome-no-provider = No provider configured or detected yet.
welcome-host-works = The host's telemetry works now.
welcome-gpu-works = GPU telemetry and the host work now.
welcome-demo = try every panel, simulated
welcome-doctor = what works, what is missing
welcome-init = write a config for this box

# The extend prompt.
prompt-title = Extend the deadline
prompt-deadline-now = the deadline is now { $at }
prompt-no-deadline = there is no deadline yet
prompt-how-long = by how long? such as 45m, 2h or 1h30m
prompt-editing = Ctrl-U clears · Ctrl-W deletes a word
prompt-extends-or-edit = extends · any other key edits
prompt-extends = extends
prompt-cancels = cancels

# Confirmations.
confirm-title-release = Release the instance
confirm-title-stop = Stop the instance
confirm-title-start = Start the instance
confirm-title-snapshot-clean = Delete old snapshots
confirm-title-set-deadline = Set the deadline
confirm-title-cleanup = Delete what keeps billing
verb-release = release
verb-stop = stop
verb-start = start
verb-snapshot-clean = snapshot-clean
verb-set-deadline = set deadline
verb-cleanup = cleanup
confirm-target = target
confirm-costs = costs
confirm-per-hour-now = { $amount }/h now
confirm-no-sheet = unknown (no price sheet)
confirm-picks = picks
confirm-confirms = confirms
confirm-cancels = cancels
confirm-choose = choose
confirm-cancel = cancel
confirm-more-lines = … { $count } more lines: a taller terminal shows them
confirm-kept-stop = keeps billing while stopped
confirm-kept-start = billing as before
confirm-kept-snapshot-clean = kept, and keeps billing
confirm-kept-cleanup = stays, and keeps billing
confirm-kept-release = survives and keeps billing
confirm-total-stop = total while stopped
confirm-total-start = total
confirm-total-snapshot-clean = total kept
confirm-total-cleanup = total that stays
confirm-total-release = total after release
confirm-deleted = will be deleted
confirm-per-month = per month
confirm-saves-per-month = saves per month
confirm-and-more = … and { $count } more
confirm-no-snapshots = no snapshots to delete
confirm-pick-title = pick what goes
confirm-age = age
confirm-more-scroll = … { $count } more: ↑ ↓ scroll
confirm-pick-deletes = deletes { $count }: saves { $amount }/mo
confirm-pick-keeps = keeps { $count }: { $amount }/mo

# The release countdown and its guards.
countdown-released-at = released at { $at }
countdown-nothing-left = nothing left to count down
countdown-nothing-to-guard = nothing to guard yet: no provider
countdown-no-deadline-press = no deadline — press
countdown-forced-release = { $provider } releases it in { $left } ({ $days } days shut down) and erases its disks; a start resets the clock
countdown-to-set-one = to set one
countdown-deadline = deadline
countdown-overdue = overdue:
countdown-at-zero = at zero:
countdown-not-enforced = — not enforced
countdown-held-by-provider = ✓ held by the provider
countdown-held-provider = ✓ provider
countdown-not-held = not held by the provider
watchdog-down = watchdog DOWN
watchdog-restarting = watchdog restarting
watchdog-checked-ago = watchdog ✓ { $seconds }s ago
watchdog-alive = ✓ watchdog
watchdog-silent = watchdog silent
watchdog-none = no watchdog
expiry-alert-long = alert only, billing goes on
expiry-alert = alert only
expiry-stop-long = stop the instance
expiry-stop = stop
expiry-release-long = release the instance
expiry-release = release

# Another deadline is already set.
guard-choice-title = another deadline is already set
guard-choice-policy = { $at }, then { $action }
guard-choice-instance = instance
guard-choice-shared = shared
guard-choice-set-by = set by { $who } at { $at }
guard-choice-asked = asked
guard-choice-note = The watchdog enforces the shared deadline for every cockpit on this ledger. Replacing it changes it for all of them.
guard-choice-keep = keep shared
guard-choice-replace = replace
guard-choice-replaces = replaces
guard-choice-keeps = keeps
guards-not-enforced-no-provider = not enforced: no provider
guards-or = or
guards-gives-it-one = gives it one

# What keeps billing after a release, on the resources panel.
leftover-no-sheet = no price sheet: what survives is not totalled
leftover-nothing-billing = nothing is billing
leftover-nothing-after-release = nothing keeps billing after release
leftover-still-billing = still billing: { $amount }/month
leftover-after-release-long = keeps billing after release: { $amount }/month
leftover-billing-short = billing: { $amount }/mo
leftover-after-release-short = after release: { $amount }/mo
leftover-per-month = { $amount }/mo
leftover-unknown-long = + { $count } unknown: incomplete
leftover-unknown = + { $count } unknown

# Kinds of resource.
kind-system-disk = system disk
kind-data-disk = data disk
kind-snapshot = snapshot
kind-image = image
kind-public-ip = public IP
kind-load-balancer = load balancer
kind-network-volume = network volume
kind-stopped-instance = stopped instance

# The cost panel.
cost-compute = compute
cost-committed = committed
cost-bandwidth = bandwidth
cost-storage = storage
cost-extras = extras
cost-total = total
cost-burn = burn
cost-billed = billed
cost-so-far = so far
cost-per-hour = per hour
cost-per-hour-short = /h
cost-budget = budget
cost-balance = balance
cost-last-hour = last hour
cost-per-min = /min
cost-total-incomplete = ! total incomplete, unknown: { $unknown }
cost-incomplete-count = ! incomplete: { $count } unknown
cost-at-deadline = at deadline { $at }
cost-deadline = deadline
cost-by-midnight-long = total by 24:00 tonight
cost-by-midnight = by 24:00
cost-step-second = per second
cost-step-minute = per minute
cost-step-hour = per hour
cost-step-seconds = per { $seconds } s
cost-step-minimum = { $step }, min { $minimum }
cost-budget-over = >999% of { $amount }
cost-budget-share = { $percent }% of { $amount }
cost-budget-currency = budget in { $budget }, meter in { $meter }

# The GPU panel while the instance runs without its GPUs.
gpus-none-by-choice = no GPU, as expected: the instance runs without its GPUs (no-GPU mode); the meter bills the no-GPU rate

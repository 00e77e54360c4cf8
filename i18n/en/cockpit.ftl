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
key-confirm = confirm the open dialog
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

# What the guards have armed, the idle rule's standing, and the line said at quit (made in
# the core). A policy is one of the policy- words.
policy-alert = alert
policy-stop = stop
policy-release = release
list-separator = {", "}
list-or = {" or "}
idle-stopped = stopped · idle { $action } after { $after } waits for a start
idle-active = active · idle { $action } after { $after }
idle-without-gpus = no GPUs · idle { $action } after { $after } waits for them
idle-idle = idle { $idle_for }/{ $after } → { $action } at { $at }
armed = armed: { $rules }
armed-deadline = deadline { $at } → { $action }
armed-idle = idle { $after } → { $action }
armed-budget = budget { $limit }
armed-nothing = nothing armed
duty-deadline = { $action } at { $at }
duty-idle = idle { $action } after { $after }
duty-none = no deadline or idle rule
grace-releasing = RELEASING in { $left } — any key cancels
grace-stopping = STOPPING in { $left } — any key cancels
how-to-guard = `gpumeter init` writes a config, or start with --provider
quit-no-provider = no provider configured: nothing to guard, no watchdog started; { $how }
quit-released = the instance is released: nothing is left to guard
quit-watchdog-guards = watchdog (pid { $pid }) keeps guarding: { $duties }; `gpumeter watchdog --stop` ends it
quit-unguarded-acts = nothing guards this instance now: no watchdog runs, so { $duties } will not happen
quit-unguarded = nothing guards this instance now: no watchdog runs
unguarded-deadline = the { $action } at { $at }
unguarded-idle = the idle { $action } after { $after }
unguarded = nothing enforces { $what }: no provider; `gpumeter init` or --provider gives one

# A confirmation's parts made in the core: its target, the lines of what keeps billing, its
# note, and the same dialog as plain lines for the command line's prompt.
confirm-price-unknown = price unknown
confirm-resources = { $count } resource(s)
confirm-the-instance = the instance
confirm-stopped-compute-unknown = compute while stopped (depends on the provider)
confirm-stopped-compute = compute while stopped ({ $percent }% of { $per_hour } per hour)
note-cleanup = Deleted for good, in this order, each read back; a disk is detached and an address disassociated first.
note-release = Compute stops billing for good. What survives keeps billing every month until you delete it.
note-snapshot-clean = Keeps the newest { $keep } snapshot(s) (same time: the greater id); the rest are deleted for good.
note-snapshot-image = A snapshot an image uses is kept and not counted.
note-start-priced = Compute bills again from the moment it starts: { $per_hour } per hour on top.
note-start = Compute bills again from the moment it starts.
note-the-platform = The platform
note-stop-released-after = { $provider } releases an instance shut down { $days } days and erases its disks. Its GPU may be rented out meanwhile: a start then waits until the host has one free.
note-stop-unknown = Whether a stopped instance bills compute depends on the provider.
note-stop-free = Compute stops billing; disks, snapshots and IPs keep billing while it is stopped.
note-stop-full = { $provider } keeps billing compute while the instance is stopped: release it to stop paying.
note-stop-share = A stopped instance still bills { $share } of compute, plus disks and IPs.
summary-costs-now = costs now: { $cost } per hour
summary-deleted = deleted:
summary-saves-line = saves { $amount }/month
summary-saves = saves: { $amount }/month
summary-keeps-billing = keeps billing afterwards:
summary-per-month = { $amount }/month
summary-total-after = total after: { $amount }/month
summary-exposed = data others can read:
pick-image-uses-it = image { $image } uses it
note-pick = Deletes exactly the picked snapshots, each read back.

# The events the core logs (and the desktop notices some of them send).
event-wait-running = wait: { $action } is still running
event-cannot = { $provider } cannot { $action }
event-nothing-picked = { $action }: nothing picked, nothing deleted
event-sent = { $action }: sent to { $provider }
event-cancelled = { $action }: cancelled
event-done = { $action }: done, the provider reports { $summary }
event-not-confirmed = { $action }: NOT confirmed, the provider reports { $summary }
event-failed = { $action } failed ({ $kind }): { $fix }. { $error }
event-may-hold-old = { $provider } may still hold its old deadline and release the instance then; the countdown shows what it holds once it is read again
event-select-resource = to { $verb } a linked resource, Tab to the linked resources and select it (j/k)
event-verb-see = see
event-verb-delete = delete
event-cleanup-gone = cleanup: { $id } is no longer listed
event-read-only-no-delete = read-only: this cockpit does not delete the selected linked resource
event-cleanup-why = cleanup: { $why }
event-cleanup-refused = cleanup: { $id } is not deleted: { $why }
event-cleanup-goes-with-instance = cleanup: { $id } is not deleted: it goes with the instance, which a release (R) deletes it with
event-watchdog-restarted = watchdog started again (pid { $pid })
event-watchdog-starting-again = { $why }: starting it again
event-no-watchdog = NO WATCHDOG: { $why }. Nothing enforces the deadline or the idle rule once this cockpit is gone; see watchdog.log in the data directory
event-watchdog-recovered = a watchdog guards again (pid { $pid })
event-extended = deadline extended by { $by } to { $to }
event-read-only-keeps-deadline = read-only: keeping the deadline { $existing } set by { $by }; not applied: { $wanted }
event-shared-deadline = shared deadline { $existing } as set by { $by }
event-deadline-replaced = deadline replaced: now { $wanted }, was { $existing } set by { $by }
event-kept-deadline = kept the deadline { $existing } set by { $by }; not applied: { $wanted }
policy-text = { $at } (on expiry: { $action })
policy-action = action
event-grace-cancelled = { $action } at the deadline cancelled by a key
event-deadline-moved = deadline moved to { $at } by { $by }
event-deadline-cleared = deadline cleared by { $by }
event-watchdog-own-idle = the watchdog (pid { $pid }) enforces its own idle rule: idle { $action } after { $after }; `gpumeter watchdog --stop` and start the cockpit again to apply this one's
prompt-ask-extend = extend by { $by }, to { $to }? y/N
prompt-not-a-duration = `{ $input }` is not a duration: try 45m, 2h or 1h30m
event-read-only-key = read-only: this cockpit does not { $what }
event-retrying-nvml = retrying NVML
event-quit-after-answer = quitting once the { $action } is answered; quit again to leave now
event-minutes-left = { $minutes ->
        [one] { $minutes } minute left before the deadline
       *[other] { $minutes } minutes left before the deadline
    }
event-deadline-reached = deadline reached: on expiry → { $action }
event-checkpoint-error = checkpoint: { $error }
event-checkpoint-missing = checkpoint: nothing matches { $pattern }
event-checkpoint-stale = checkpoint: the newest, { $path }, is { $minutes } min old
event-checkpoint-ephemeral = checkpoint: { $path } is on { $mount }, a disk deleted with the instance
event-spot-interruption = spot interruption: the provider reclaims this instance at { $at }; checkpoint now
event-budget-forecast = budget{ $scope }: at this rate the { $limit } budget is gone at { $at }
budget-this-month = {" this month"}
event-budget-error = budget{ $scope }: { $error }
event-budget-crossed = budget{ $scope }: { $level }% used ({ $spent } of { $limit })
event-no-answer-within = no answer within { $seconds } s; it may still be under way, or done in part
spot-due-now = ⚠ SPOT INTERRUPTION: reclaim due now — checkpoint now
spot-reclaimed-in = ⚠ SPOT INTERRUPTION: reclaimed in { $left } — checkpoint now
not-now-no-resource-to-show = no linked resource to show
not-now-no-resource-to-delete = no linked resource to delete
not-now-no-provider = no provider configured: `gpumeter init` writes a config
not-now-cannot-start = this provider's instances cannot be started from here
not-now-not-known-stopped = the instance is not known to be stopped
not-now-already-released = the instance is already released
not-now-released-nothing-to-stop = the instance is released: there is nothing to stop
not-now-already-stopped = the instance is already stopped
not-now-already-running = the instance is already running
not-now-released-nothing-to-start = the instance is released: there is nothing to start
not-now-released-no-deadline = the instance is released: there is no deadline to move

# The demo's first events.
demo-ready = demo cloud ready: { $id } ({ $name })
demo-outlive = 3 snapshots and a 2000 GiB disk will outlive a release

# Why the cockpit starts its watchdog again, or gives up on it. A why of a watchdog that
# ended follows its pid: "the watchdog (pid 42) ended (exit status: 1)".
watchdog-cannot-start = cannot start the watchdog: { $error }
watchdog-pid-why = the watchdog (pid { $pid }) { $why }
watchdog-did-not-take-up = the watchdog (pid { $pid }) did not take up the guard within { $seconds }s
watchdog-lock-free = the watchdog (pid { $pid }) is gone: nothing holds its lock
watchdog-went-silent = the watchdog (pid { $pid }) went silent: no check for { $seconds }s
watchdog-after-restarts = { $why }, after { $restarts } restarts in { $minutes } minutes
watchdog-ended = ended ({ $status })
watchdog-not-waited = could not be waited for ({ $error })
watchdog-process-ended = is gone: its process has ended

# Why nothing enforces the deadline, and what would, under the countdown.
unenforced-no-provider = no provider is configured, so nothing can stop or release the instance
unenforced-fix-provider = `gpumeter init` writes a config, or pass --provider
unenforced-down = no watchdog runs: { $why }
unenforced-not-running = its watchdog (pid { $pid }) is not running
unenforced-no-watchdog = no watchdog runs
unenforced-fix-watchdog = start one with `{ $command }` (or keep the cockpit open)

# A total that leaves something out, with and without its currency; what sits between two
# sentences of a note.
partial-total = ≥ { $known } + { $count } unknown
partial-total-currency = ≥ { $known } { $currency } + { $count } unknown
sentence-gap = {" "}

# The GPU panel while the instance runs without its GPUs.
gpus-none-by-choice = no GPU, as expected: the instance runs without its GPUs (no-GPU mode); the meter bills the no-GPU rate

# gpumeter's messages in English: the cockpit's panels (header, GPUs, host, processes, linked
# resources, details, fleet, events, balance). Each id is in the same file under i18n/zh-CN/,
# with the same arguments. Spaces around a message stay in the code, since Fluent trims them.

# The header line.
header-no-watchdog = ⚠ NO WATCHDOG: nothing enforces the deadline once this cockpit is gone
header-no-provider = no provider configured
header-no-instance = no instance
header-reading = reading the provider…
header-up = up
header-read-only = read-only
header-live-price = live price
header-other-region = ≈ sheet { $sheet } for { $region }
header-sheet = sheet { $sheet }
header-cost-unknown = cost unknown: no sheet
state-running = running
state-no-gpu = running without GPUs
state-stopped = stopped
state-released = released
mode-on-demand = on-demand
mode-monthly = monthly
mode-spot = spot
mode-compute-units = compute units

# The host line under the GPUs.
host-host = host
host-load = load
host-ram = RAM
host-net = net

# The process view.
processes-of-gpu = GPU { $index }: processes
processes-none = no process is using a GPU
processes-other-namespace = (other namespace)
processes-user = USER
processes-gpu-mem = GPU MEM
processes-command = COMMAND

# The GPU panel.
gpus-hide-processes = hide processes
gpus-more = { $at }/{ $n } +{ $more } more
gpus-not-running = instance { $state }: its GPUs run nothing
gpus-waiting = waiting for the first sample…
gpus-none-reported = NVML started but reports no GPU
gpus-count = { $count } GPUs
gpus-driver = driver
gpus-got-what-you-pay-for = ✓ got the { $count } × { $model } you pay for
gpus-more-findings = (+{ $count } more)
gpus-verified = verified { $at }: { $summary }
gpus-no-nvidia = no NVIDIA GPU: { $why }
gpus-press = press
gpus-to-retry = to retry
gpus-meter-keeps-working = the cost meter, countdown and checklist keep working
nvml-library-not-found = NVIDIA library (libnvidia-ml.so.1) not found
nvml-driver-not-loaded = NVIDIA driver not loaded
nvml-no-permission = no permission to use the NVIDIA devices
nvml-version-mismatch = NVIDIA driver and library versions differ
nvml-other = NVML failed to start
gpu-util = util
gpu-load = load
gpu-fan = fan
gpu-mem = mem
gpu-util-short = UTL
gpu-load-short = ld
gpu-mem-short = MEM
chart-caption = last { $shown } · { $column } a column

# The events panel.
events-newest = newest
events-waiting-for = waiting for { $provider }
events-nothing-yet = nothing yet

# Dates on screen: a time within a week of today, and one further away. A message named in
# braces without `$` gets the same arguments (the day of the month and the month's name).
date-month-day = { $day } { $month }
date-this-week = { $weekday } { $time }
date-far = { date-month-day } { $year } { $time }
month-1 = Jan
month-2 = Feb
month-3 = Mar
month-4 = Apr
month-5 = May
month-6 = Jun
month-7 = Jul
month-8 = Aug
month-9 = Sep
month-10 = Oct
month-11 = Nov
month-12 = Dec
weekday-mon = Mon
weekday-tue = Tue
weekday-wed = Wed
weekday-thu = Thu
weekday-fri = Fri
weekday-sat = Sat
weekday-sun = Sun

# The linked resources table.
resources-kind = kind
resources-id = id
resources-name = name
resources-size = size
resources-state = state
resources-on-release = on release
resources-per-month = /month
resources-shown-of = { $shown } of { $n }
resources-none = no linked resources
resources-deleted = deleted
resources-no-price = no price
resources-survives = survives
kind-short-system-disk = root disk
kind-short-load-balancer = load bal.
kind-short-network-volume = net volume

# A linked resource's details (Enter).
details-deletes = deletes
details-gone = no longer listed by the provider: deleted, or moved
details-critical = CRITICAL
details-warning = warning
details-id = id
details-name = name
details-kind = kind
details-created-label = created
details-size = size
details-class = class
details-state = state
details-attached-to = attached to
details-per-month = per month
details-on-release = on release
details-data-label = data
details-backs-image-label = backs image
details-created = { $at }, { $age } ago
details-unpriced-sheet = unpriced: sheet { $sheet } has no price for it
details-unpriced = unpriced: no price sheet
details-attached-to-nothing = nothing
details-backs-image = { $image }: it goes when that image goes
details-encrypted = encrypted
details-unencrypted = unencrypted
details-encryption-not-said = encryption not said
details-sharing-not-said = sharing not said
details-private = private to the account
details-shared-with = shared with { $count } other account(s)
details-public = public
details-data = { $encrypted }, { $shared }
details-deleted-with-instance = deleted with the instance
details-survives = survives, and bills until deleted: { $why }
details-why-disk = the provider keeps this disk after a release (not deleted with the instance)
details-why-snapshot = a snapshot is stored apart from the instance
details-why-image = an image is stored apart from the instance
details-why-public-ip = the address stays allocated to the account
details-why-load-balancer = a load balancer is a resource of its own
details-why-network-volume = a network volume outlives the instances that mount it
details-why-stopped-instance = the provider bills its compute while stopped: release it, or start and use it

# The fleet screen (F).
fleet-how-to-add = [[fleet]] in the config adds other accounts' instances here
fleet-accounts = { $count ->
        [one] { $count } account
       *[other] { $count } accounts
    }
fleet-accounts-instances = { $accounts ->
        [one] { $accounts } account
       *[other] { $accounts } accounts
    } ({ $instances ->
        [one] { $instances } instance
       *[other] { $instances } instances
    })
fleet-reading = reading { $what }…
fleet-not-read = { $what }, not read yet
fleet-seconds-ago = { $seconds } s ago
fleet-ago = { $span } ago
fleet-read = { $what } read { $ago }
fleet-reading-again = reading again…
fleet-title = Fleet · { $count } · most expensive first
fleet-back = back
fleet-no-instance = no instance yet: waiting for the provider
fleet-account = account
fleet-instance = instance
fleet-name = name
fleet-state = state
fleet-up = up
fleet-deadline = deadline
fleet-left-per-month = left/mo
fleet-flags = flags
fleet-in = in { $span }
fleet-unreadable = unreadable
flag-forgotten = forgotten
flag-idle = idle
flag-overlap = overlap
flag-leftovers = leftovers
flag-unreachable = unreachable
flag-unpriced = unpriced

# The balance cell of the cost panel: the time left, "≤ " before it when it is an upper bound.
balance-left = { $bound }{ $left } left
balance-no-burn = no burn

# The cost panel's states, the snapshot pick, and a screen too small.
cost-waiting-inventory = waiting for the instance's inventory…
cost-nothing-to-price = no instance to price yet: a provider (detected, `gpumeter init`, or --provider) gives one; `gpumeter estimate` prices a plan before renting
cost-no-sheet = no price sheet for this instance
cost-hint-by-type = the instance type is the SKU, priced from its region's sheet once the instance and region are known: run on the instance, or pass --instance and --region; a type no sheet lists needs [pricing] sheet (`gpumeter pricing list` shows them)
cost-hint-name-sheet = name a sheet and SKU in the config; `gpumeter pricing list` shows them
confirm-newest = newest
screen-too-small = gpumeter needs at least { $need } (now { $now })

nvml-not-started = NVML was not started

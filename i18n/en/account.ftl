# The command line's account commands: sweep, cleanup, checklist, status, the actions, extend
# and fleet. Spaces and padding around a message stay in the code.

## The actions: release, stop, start, snapshot-clean

progress-reading-instance = reading the instance from { $provider }
dry-run-would-call = dry run: nothing is changed. It would call:
action-done = { $action }: done; the provider reports { $summary }
action-waiting = { $action }: waiting for { $provider } to confirm (at most { $seconds } s)
# The question ends in "? [y/N]"; the code adds the space after it.
action-prompt = { $question }? [y/N]

## sweep

progress-listing-regions = listing the regions of the account at { $provider }
progress-sweeping = sweeping the account at { $provider }
progress-sweeping-regions = sweeping { $count } regions of the account at { $provider }
progress-listing-stopped = listing the shut-down instances at { $provider }
sweep-not-checked = not checked: { $region }: { $why }
sweep-nothing-regions = nothing bills without a running instance in the { $count } regions checked
sweep-nothing = nothing bills without a running instance in this region
sweep-col-region = region
sweep-col-kind = kind
sweep-col-id = id
sweep-col-size = size
sweep-col-age = age
sweep-col-monthly = a month
sweep-col-from = from
sweep-col-state = state
# The kind as the JSON names it.
resource-kind-named = { $kind }
sweep-age-days = { $days }d
sweep-plus-unpriced = + { $count } unpriced
sweep-total-unknown = unknown
# Between one currency's total and the next; the code keeps the spaces.
sweep-and = {" "}and{" "}
sweep-bills = bills { $total } a month{ $more }

## status

# The value after the deadline's label: `2028-02-03 01:16 UTC, in 3600 s, then release`.
status-deadline-line = { $at }, in { $seconds } s, then { $on_expiry }{ $held }
status-held-by-provider = , held by the provider
status-enforced = enforced
status-enforced-watchdog = by the watchdog (pid { $pid })
# $by is `provider` (or another holder's JSON name).
status-enforced-by = by the { $by } (read back)
status-not-enforced = NOT ENFORCED: { $reason }; { $fix }
status-nothing-holds-it = nothing holds it
status-driver = driver { $driver }, CUDA { $cuda }
# The instance's state as the JSON names it.
status-state = { $state }
status-host-label = host
status-host = CPU { $cpu } of { $cores } cores, load { $load }, memory { $memory }
status-mem-used = { $used } / { $total } GiB used
status-net-label = net
status-net = out { $sent } ({ $sent_rate }/s)  in { $received } ({ $received_rate }/s)
status-disk-label = disk
status-disk = { $used } of { $total } used, { $free } free
status-balance = balance
status-balance-unknown = unknown: { $why }

## extend

extend-dry-run = dry run: nothing is changed. The deadline would move to { $at }:
extend-ledger = ledger: guard row of { $instance }
extend-moved = deadline moved to { $at }; { $what }
err-extend-ledger = extend: { $provider } now holds { $at }, but the ledger could not be written ({ $error }); the watchdog still enforces the old deadline
extend-held = { $provider } holds it and releases (deletes) the instance then, read back
# $on_expiry is `alert`, `stop` or `release`.
extend-held-watchdog = { $held }; the watchdog (pid { $pid }) { $on_expiry ->
    [alert] alerts only
    [stop] stops the instance
   *[release] releases the instance
    }
extend-watchdog = the watchdog (pid { $pid }) { $on_expiry ->
    [alert] alerts only
    [stop] stops the instance
   *[release] releases the instance
    } then; { $provider } holds no release for it
extend-held-unenforced = { $held }; not enforced: { $reason }; { $fix }
extend-unenforced = NOT ENFORCED: nothing { $on_expiry ->
    [alert] alerts
    [stop] stops the instance
   *[release] releases the instance
    } then: { $reason }; { $fix }; { $provider } holds no release for it

## cleanup and snapshot-clean

cleanup-refused = not deleted: { $id }: { $why }
# $command is `cleanup` or `snapshot-clean`.
cleanup-nothing = { $command }: nothing to delete among what { $provider } lists now
cleanup-question = delete these
cleanup-deleting = { $command }: deleting { $count } at { $provider } and reading each back
cleanup-not-recorded = a delete is not recorded in the ledger: { $error }
cleanup-deleted = deleted { $what }: { $summary }
cleanup-not-confirmed = { $what }: NOT confirmed; the provider reports { $summary }
cleanup-failed = { $what }: NOT deleted: { $error }
cleanup-done = cleanup: { $done } of { $count } deleted and read back
cleanup-sweep-lists = `gpumeter sweep` lists them
cleanup-checklist-lists = `gpumeter checklist` lists the instance's snapshots

## fleet (the command's table; the cockpit's fleet screen words are reused where the same)

fleet-no-gpu = no-GPU
fleet-col-account = ACCOUNT
fleet-col-provider = PROVIDER
fleet-col-instance = INSTANCE
fleet-col-name = NAME
fleet-col-state = STATE
fleet-col-burn = BURN/H
fleet-col-uptime = UPTIME
fleet-col-deadline = DEADLINE
fleet-col-after-release = AFTER RELEASE/MO
fleet-col-flags = FLAGS
fleet-per-month = { $amount }/mo
fleet-more = { $count } more (fleet --json lists every one)
fleet-bound = ≥ { $amount } + { $count } unknown
fleet-unit-hour = /h
fleet-unit-a-month = {" "}a month
fleet-unit-month = /month
fleet-totals = { $running } running: { $burn } ({ $month } at this rate); leftovers after release: { $left }
fleet-unpriced = { $count } unpriced: no sheet prices them, so the totals above leave them out
fleet-flagged = { $count } flagged: look at these first
fleet-account-error = account { $account } on { $provider } in { $region }: { $why }
fleet-default-region = its default region
err-no-fleet = no fleet: add [[fleet]] tables (or an [instance]) to the config, or try --demo
err-no-fleet-asked = no [[fleet]] table is on the providers and regions asked for

## The context every account command loads

err-aws-settings = the AWS settings could not be read
err-no-price-sheet = no price sheet
err-sku-not-in-sheet = config: SKU `{ $sku }` is not in sheet `{ $sheet }`
err-costs-not-shown = { $error }; costs are not shown
err-not-bearer-key = { $provider } is not a bearer-key cloud

## What of the survivors' data others can read (checklist and sweep)

finding-line = { $grade } { $kind } { $id }: { $what }; { $fix }
# $image is `yes` for an image, else `no`.
finding-public = public: anyone can { $image ->
        [yes] launch instances from it
       *[no] copy its data
    }
finding-public-fix = make it private now, or delete it
finding-shared = shared with { $count } other account(s): { $accounts }
finding-shared-fix = remove the accounts that should not have it
finding-unencrypted = unencrypted
finding-unencrypted-fix = delete it when done, or copy it encrypted and delete this one

## Rarer failures of the account commands

err-write-json = cannot write JSON: { $error }
err-no-sku-in-sheet = no SKU `{ $sku }` in sheet { $sheet }

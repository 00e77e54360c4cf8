# The watchdog, its alerts, serve and the cockpit's events as the command line logs them.

## watchdog --status
# $policy is `alert`, `stop` or `release`; seconds are whole seconds.

wd-status-running = watchdog for { $instance }: running (pid { $pid }), last check { $seconds }s ago
wd-status-not-running-since = watchdog for { $instance }: NOT running (pid { $pid } last checked at { $at })
wd-status-not-running = watchdog for { $instance }: NOT running
wd-status-deadline = deadline: { $at }, in { $seconds }s, then { $policy } after { $grace }s grace
wd-status-no-deadline = deadline: none (a deadline would { $policy } after { $grace }s grace)
wd-status-idle-for = idle for { $seconds }s
wd-status-active = active now
wd-status-idle-rule = idle rule: { $policy } after { $after }s idle; { $state }
wd-status-idle-none = idle rule: none enforced (no watchdog runs)
wd-status-idle-unpublished = idle rule: not published by this watchdog (an older build)
wd-budget-sheet-currency = in the price sheet's currency
wd-budget-then = , then { $policy }s
wd-budget-instance = { $amount } per instance: the watchdog alerts at 80 and 100 %{ $then }
wd-budget-instance-unenforced = { $amount } per instance: not enforced (no watchdog runs)
wd-budget-month = { $amount } per month: the watchdog alerts at 80 and 100 %{ $then }
wd-budget-month-unenforced = { $amount } per month: the cockpit alerts on it; nothing acts (no watchdog runs)
wd-budget-none = budget: none
wd-budget = budget ({ $currency }): { $parts }
wd-budget-separator = {"; "}

## The watchdog command

wd-already-guarded-pid = a watchdog (pid { $pid }) already guards this instance
wd-already-guarded = a watchdog already guards this instance
wd-ended-released = the instance is released; the watchdog is done
wd-ended-stopped = watchdog stopped
wd-ended-unwatched = the demo cockpit has ended and nothing is left to enforce
wd-never-guarded = no watchdog has guarded { $instance } yet
wd-none-guards = no watchdog guards { $instance }
wd-asked-to-stop = asked the watchdog (pid { $pid }) to stop
wd-not-running = the watchdog (pid { $pid }) is not running: { $error }
wd-budget-unchecked = warning: the watchdog cannot check [budget]: { $why }
wd-budget-no-sheet = no price sheet prices the instance
wd-budget-no-month-start = this month's start cannot be found in the time zone
wd-no-instance = the provider lists no instance to guard

## serve

serve-listening = serving Prometheus metrics on { $url }

## What stops the cockpit, the watchdog or serve from starting

err-signals = cannot catch signals: { $error }
err-terminal-setup = cannot set up the terminal: { $error }
err-terminal-failed = the terminal failed: { $error }

## The watchdog's log lines and alerts (its log, the ledger's events and the webhooks)

wd-action-done = { $action }: done ({ $reason }); the provider reports { $summary }
wd-action-not-confirmed = { $action }: NOT confirmed ({ $reason }); the provider reports { $summary }
wd-action-failed = { $action } failed ({ $reason }): { $error }; fix ({ $kind }): { $fix }
wd-ended = watchdog { $pid } ended: { $why }
wd-end-other-pid = another watchdog (pid { $pid }) guards
wd-end-other = another watchdog guards
wd-end-released = the instance is released
wd-end-stopped = asked to stop, or another watchdog took over
wd-end-unwatched = its demo cockpit is gone and nothing left needs it
# $what is `budget` or `balance`.
wd-no-longer-checked = { $what }: { $why }; the watchdog no longer checks it
wd-hook-finished = hook { $name } finished
wd-hook-failed = hook { $name }: { $error }; going ahead
wd-idle-since = idle since { $at }: every GPU and the CPU below the idle thresholds
wd-spot = spot interruption: the provider reclaims this instance at { $at }
wd-action-at = { $action } at { $at }
wd-nothing-alert-only = nothing (alert only)
wd-deadline-reached = deadline reached
wd-grace = { $reached }: { $then } unless extended (any key in the cockpit or `gpumeter extend`)
wd-deadline-passed = deadline { $at } passed
wd-keeps-billing = { $reason }: the instance keeps billing (policy: alert)
wd-then-unless-extended = then { $action } unless extended
wd-then-alert-only = then an alert only
wd-minutes-left = { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } left before the deadline ({ $at }): { $then }
# $rule is the config key (`on_budget`, `on_balance`); $policy is `stop` or `release`.
wd-limit-then = { $text }; { $rule }: { $policy } after the grace period unless extended
wd-forced-release = forced release: { $provider } releases { $id } in { $left } ({ $at }), { $days } days after its shutdown, and erases its disks; start it to keep it

## The cockpit's start-up events and its line after quitting, from the command side

# $action is the action's verb; $provider the provider's id.
cockpit-unanswered-at-quit = the { $action } had no answer from { $provider } when the cockpit quit, so it is not confirmed; it may still happen. `gpumeter checklist` shows what the provider says now.
cockpit-release-at-read-in = release at { $at }, read in { $zone }
cockpit-found-instance = found { $provider } instance { $instance } { $region } { $kind } (from { $from })

## watchdog --install-service and --uninstall-service

wd-service-would-write = would write { $path } (mode 0600):
wd-service-wrote =
    wrote { $path }
    Start it now and at every boot:
      systemctl --user daemon-reload
      systemctl --user enable --now { $unit }
    Keep it running while you are not logged in (and after a reboot, before you log in):
      loginctl enable-linger
    Its output goes to the journal: journalctl --user -u { $unit }
    The unit carries no environment: the watchdog reads the config file and the provider's own credential files, not variables set in this shell.
wd-service-none = no unit at { $path }: nothing to remove
wd-service-and = {" "}and{" "}
wd-service-would-remove = would remove { $paths }
wd-service-removed =
    removed { $paths }
    If it runs, stop it, and tell systemd:
      systemctl --user stop { $unit }
      systemctl --user daemon-reload
wd-service-no-home = no home directory to keep the unit in
wd-dry-run-needs-service = --dry-run goes with --install-service or --uninstall-service

## Webhook alerts

# The level in a chat alert's header, after `[gpumeter]`; $level is `info`, `warn`, `error` or `done`.
notify-level = { $level ->
        [info] INFO
        [warn] WARN
        [error] ERROR
       *[done] DONE
    }

## The watchdog's notes when it starts

# Shown after the cockpit's `watchdog:` prefix.
wd-pid-guards = pid { $pid } guards { $instance }
wd-takes-over = watchdog { $pid } takes over from { $other }, which is gone
wd-warning = warning: { $warning }

## Rarer failures of the watchdog and the cockpit

# $name is an environment variable's name.
err-env-not-utf8 = { $name } is not UTF-8
wd-bad-pid = bad watchdog pid { $pid }
wd-service-no-exe = cannot tell where gpumeter is: { $error }
wd-service-cannot-write = cannot write { $path }: { $error }
wd-service-cannot-remove = cannot remove { $path }: { $error }

# A ledger failure the watchdog says on its log, then goes on.
watchdog-ledger = ledger: { $error }
watchdog-ledger-rule = ledger: { $error }; the { $rule } cannot set the deadline

# why a watchdog could not take up its watch, or stopped
wd-err-lock = cannot take the watchdog's lock beside { $at }: { $error }
wd-err-look-at-ledger = cannot look at the ledger { $path }: { $error }
wd-err-ledger-replaced = the ledger { $path } was replaced by another file; this watchdog stops, as nobody could see or stop it through the new one
wd-err-ledger-deleted = the ledger { $path } was deleted; this watchdog stops, as nobody could see or stop it

## stopped_release_after: the release of an instance left stopped

# The watchdog's reason, said in its grace line and its action: "i-0abc stopped 3d0h (since 2026-12-04 21:10 UTC)".
sr-due = { $id } stopped { $after } (since { $since })
sr-started-again = stopped_release_after: { $id } is up again; its release is called off and the clock starts again at its next shutdown
sr-refused-state = stopped_release_after: { $id } NOT released: a fresh read shows it { $state }, not stopped; the clock starts again at its next shutdown
sr-refused-read = stopped_release_after: { $id } NOT released: it could not be read again first ({ $error }); tried again after the next read

## status

sr-status-label = released
# "released  by stopped_release_after in 2d23h (Thu 09:00 UTC): 3d0h stopped erases i-0abc, vol-0root; a start resets the clock, counted from the provider's shutdown time"
sr-status-in = by stopped_release_after in { $left } ({ $at }): { $after } stopped erases { $erases }; a start resets the clock, counted from { $from ->
    [watchdog] when the watchdog first saw it stopped
   *[provider] the provider's shutdown time
    }
sr-status-due = by stopped_release_after now: the watchdog releases { $erases } after the grace period unless the instance is started
sr-status-not-enforced = NOT ENFORCED: no watchdog enforces stopped_release_after; start one with `gpumeter watchdog --stopped-release-after { $after }`

## The cockpit's release panel, for a stopped instance with no deadline

sr-countdown = stopped_release_after releases it in { $left } ({ $after } stopped) and erases { $erases }; a start resets the clock

## watchdog --status

sr-watchdog-status = stopped: release once stopped { $after } (stopped_release_after), after the grace period
sr-watchdog-status-none = stopped: kept until told (no stopped_release_after enforced)
sr-status-final-snapshot = a final snapshot of its disks is taken first; the release waits until the provider reads it back
sr-countdown-snapshot = stopped_release_after releases it in { $left } ({ $after } stopped), after a final snapshot, and erases { $erases }; a start resets the clock
sr-snapshot-taken = stopped_release_after: final snapshot of { $id } read back ({ $summary }); releasing
sr-snapshot-refused = stopped_release_after: no final snapshot of { $id } ({ $why }): the instance is kept stopped, its disks billing. Release it yourself (gpumeter release) or set [idle] stopped_release_snapshot = false
sr-snapshot-unsupported = { $provider } takes no snapshots through gpumeter
sr-snapshot-unconfirmed = not read back: { $summary }

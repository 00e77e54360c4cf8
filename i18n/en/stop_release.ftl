## stopped_release_after: the release of an instance left stopped

# The watchdog's reason, said in its grace line and its action: "i-0abc stopped 3d0h (since 2026-12-04 21:10 UTC)".
sr-due = { $id } stopped { $after } (since { $since })
sr-started-again = stopped_release_after: { $id } is up again; its release is called off and the clock starts again at its next shutdown
sr-refused-state = stopped_release_after: { $id } NOT released: a fresh read shows it { $state }, not stopped; the clock starts again at its next shutdown
sr-refused-read = stopped_release_after: { $id } NOT released: it could not be read again first ({ $error }); tried again after the next read

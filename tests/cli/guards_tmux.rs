//! The guards in a real terminal: the idle line counting, the watchdog's stop showing up in
//! the cockpit's events, the grace banner and the key that cancels it, and what `q` says about
//! who keeps guarding. Short values throughout: each test takes seconds.

use super::e2e_tmux::Tmux;

#[test]
fn the_idle_line_counts_and_the_watchdogs_idle_stop_shows_in_the_events() {
    let flags = "--scenario idle --idle-after 3s --on-idle stop";
    let Some(t) = Tmux::start_with("idle-stop", "", flags) else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    let counting = t.wait_for("/3s → stop at");
    assert!(counting.contains("armed: "), "{counting}");
    assert!(counting.contains("idle 3s → stop"), "{counting}");
    // The watchdog stops the idle instance; the cockpit reads its event from the ledger.
    let after = t.wait_for("watchdog: stop: done");
    assert!(after.contains("idle since"), "{after}");
    assert_eq!(t.demo_state()["instance"]["state"], "stopped");
    t.keys(&["q"]);
    let end = t.wait_for("EXITED 0");
    // An idle stop is armed: the demo's watchdog stays, and the cockpit says so.
    assert!(end.contains("keeps guarding"), "{end}");
    assert!(end.contains("idle stop after 3s"), "{end}");
    assert!(end.contains("gpumeter watchdog --stop"), "{end}");
}

#[test]
fn the_grace_banner_counts_down_and_a_key_cancels_the_stop() {
    let flags = "--release-in 1s --on-expiry stop --grace 30s";
    let Some(t) = Tmux::start_with("grace", "", flags) else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    let banner = t.wait_for("— any key cancels");
    assert!(banner.contains("STOPPING in 0:"), "{banner}");
    t.keys(&["x"]);
    let after = t.wait_for("stop at the deadline cancelled by a key");
    assert!(!after.contains("STOPPING in"), "{after}");
    assert_eq!(t.demo_state()["instance"]["state"], "running");
    t.keys(&["q"]);
    let end = t.wait_for("EXITED 0");
    assert!(end.contains("keeps guarding: stop at "), "{end}");
}

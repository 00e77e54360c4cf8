//! The cockpit's GPU panel on the real NVML path, in tmux, against the fake libnvidia-ml.so.1:
//! every card the scenario has, with its own readings, and what NVML cannot give shown as
//! `n/a` with its reason, never as zero.

use super::e2e_tmux::Tmux;
use super::fake_libs;

/// The cockpit in `scenario`, once its GPU panel shows `first`; `None` without the fake or
/// tmux.
fn cockpit(scenario: &str, first: &str) -> Option<(Tmux, String)> {
    let env = fake_libs::shell_env(scenario)?;
    let t = Tmux::start_live(&format!("nvml-{scenario}"), &env)?;
    let screen = t.wait_for(first);
    Some((t, screen))
}

/// The GPU panel's row for card `index`: the left panel's part of the screen line.
fn row(screen: &str, index: u32) -> &str {
    let prefix = format!("│ {index:>2} ");
    screen
        .lines()
        .find(|l| l.starts_with(&prefix))
        .and_then(|l| l.split('┐').next())
        .and_then(|l| l.split("││").next())
        .unwrap_or_else(|| panic!("no row for GPU {index}:\n{screen}"))
}

#[test]
fn eight_cards_each_show_their_own_readings() {
    let Some((t, screen)) = cockpit("eight", "GPUs 8× A100-SXM4-80GB") else {
        return;
    };
    for i in 0..8 {
        let r = row(&screen, i);
        assert!(r.contains(&format!(" {}%", 97 - i)), "GPU {i}: {r}");
        assert!(r.contains("64°C") && r.contains("347/400W"), "GPU {i}: {r}");
        assert!(r.contains("MEM") && r.contains("75%"), "GPU {i}: {r}");
    }
    t.keys(&["q"]);
    assert!(t.wait_for("EXITED").contains("EXITED 0"));
}

#[test]
fn a_lost_card_and_refused_readings_show_as_not_available() {
    let Some((t, screen)) = cockpit("off_bus", "GPUs 2 GPUs") else {
        return;
    };
    assert!(row(&screen, 0).contains("97%"), "{screen}");
    let lost = row(&screen, 1);
    assert!(
        !lost.contains('%') && lost.matches("n/a").count() >= 4,
        "{lost}"
    );
    t.keys(&["p"]);
    t.wait_for("GPU 1: processes n/a (failed: gpu_lost)");
    drop(t);

    let Some((t, screen)) = cockpit("errors", "GPUs 1× A100-SXM4-80GB") else {
        return;
    };
    let r = row(&screen, 0);
    // Temperature, power and the load need what NVML refused; utilisation and memory do not.
    assert!(r.contains("97%") && r.contains("ld n/a"), "{r}");
    assert!(!r.contains("°C") && !r.contains('W'), "{r}");
    t.keys(&["p"]);
    t.wait_for("GPU 0: processes n/a (failed: no_permission)");
}

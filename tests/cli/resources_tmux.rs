//! A linked resource in a real terminal (tmux): `Enter` shows its details, `D` the dialog that
//! deletes it alone, and `n` cancels it.

use crate::e2e_tmux::Tmux;

#[test]
fn enter_shows_a_resource_and_d_asks_to_delete_it_alone() {
    let Some(t) = Tmux::start("resource", "") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    // Focus the linked resources (GPUs, cost, resources) and select the third: snap-0a.
    t.keys(&["Tab", "Tab"]);
    t.wait_for("1/8");
    t.keys(&["j", "j"]);
    t.wait_for("3/8");
    t.keys(&["Enter"]);
    // The overlay's bottom border is drawn last: the whole overlay is on screen then.
    let screen = t.wait_for("Esc/Enter closes");
    assert!(screen.contains("snapshot snap-0a"), "{screen}");
    assert!(screen.contains("nightly-1"), "{screen}");
    assert!(
        screen.contains("survives, and bills until deleted"),
        "{screen}"
    );
    t.keys(&["Escape"]);
    t.wait_gone("attached to");
    t.keys(&["D"]);
    let screen = t.wait_for("← → choose");
    assert!(screen.contains("Delete what keeps billing"), "{screen}");
    assert!(screen.contains("snapshot snap-0a (nightly-1)"), "{screen}");
    assert!(screen.contains("[ cancel ]"), "{screen}");
    assert!(
        !screen.contains("attached to"),
        "the details closed:\n{screen}"
    );
    t.keys(&["n"]);
    let screen = t.wait_for("cleanup: cancelled");
    assert!(!screen.contains("Delete what keeps billing"), "{screen}");
    // Nothing was deleted.
    let state = t.demo_state();
    let ids: Vec<&str> = state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert!(ids.contains(&"snap-0a"), "{ids:?}");
}

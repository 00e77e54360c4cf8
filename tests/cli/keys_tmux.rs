//! The keys that fit the state and the small screen, in a real terminal (tmux): a few seconds.

use crate::e2e_tmux::Tmux;

#[test]
fn at_60x16_cut_gpus_are_counted_and_ctrl_u_clears_the_extend_prompt() {
    let Some(t) = Tmux::start("small", "") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.resize(60, 16);
    t.wait_for("+7 more");
    t.resize(120, 40);
    t.keys(&["E"]);
    t.wait_for("by how long?");
    t.keys(&["2", "h"]);
    t.wait_for("> 2h");
    t.keys(&["C-u"]);
    t.keys(&["4", "5", "m", "Enter"]);
    let screen = t.wait_for("deadline extended by 45m");
    assert!(!screen.contains("> 2h"), "{screen}");
}

#[test]
fn after_a_release_r_opens_no_dialog_and_says_why() {
    let Some(t) = Tmux::start("released", "") else {
        return;
    };
    t.wait_for("i-0demo4a100f00d");
    t.keys(&["R"]);
    t.wait_for("Release the instance");
    t.keys(&["y"]);
    t.wait_for("release: done");
    t.wait_for("still billing");
    t.keys(&["R"]);
    let screen = t.wait_for("already released");
    assert!(!screen.contains("Release the instance"), "{screen}");
    assert!(
        !screen.contains("R release"),
        "the footer no longer offers it:\n{screen}"
    );
}

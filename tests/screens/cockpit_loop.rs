//! The real cockpit loop on a test terminal: the clock and both samplers beat once a second,
//! and each second costs one frame, not one per beat.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gpumeter::demo::demo_app;
use gpumeter::provider::none::NoProvider;

use crate::common::demo_loop;

/// Frames drawn while the loop runs for `wall`.
fn frames_in(wall: Duration) -> usize {
    let frames = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&frames);
    demo_loop::run_for(
        wall,
        demo_app(Duration::from_secs(3600)),
        Arc::new(NoProvider::new("no provider in this test")),
        Duration::from_secs(1),
        Box::new(move |_| {
            seen.fetch_add(1, Ordering::SeqCst);
        }),
    );
    frames.load(Ordering::SeqCst)
}

#[test]
fn a_second_of_clock_and_samples_is_one_frame() {
    // 9.5 s: the first frame, then about one a second, so about 10; beats drawn one by one
    // would be near 30 (a tick, a GPU round and a host sample each second, the first ones at
    // once). The margin is wide because a loaded machine splits some seconds in two.
    let frames = frames_in(Duration::from_millis(9500));
    assert!((6..=16).contains(&frames), "{frames} frames in 9.5 s");
}

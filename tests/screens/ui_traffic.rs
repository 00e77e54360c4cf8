//! The cost panel while an upload to the internet runs: the warning with what it cost and the
//! intranet route, at the common sizes, without pushing out the total or the key hints; and
//! the split by destination, with no warning, when the same bytes go to the intranet.

use std::time::Duration;

use gpumeter::app::{App, Event, update};
use gpumeter::demo::demo_app;
use gpumeter::telemetry::{Stamped, Telemetry};
use gpumeter_core::traffic::EgressSplit;
use jiff::SignedDuration;

use crate::common::ui_frame::rows;

const MIB: u64 = 1 << 20;

fn screen(app: &App, size: (u16, u16)) -> Vec<String> {
    rows(app, size)
}

/// The demo cockpit, then two minutes sending 200 MiB a second, to the intranet or not.
fn sending(to_intranet: bool) -> App {
    let mut app = demo_app(Duration::from_secs(200 * 60));
    let host = app.telemetry.host.clone().expect("the demo fed the host");
    let start = app.now;
    let mut split = EgressSplit::default();
    for s in 1..=120u64 {
        let mut value = host.clone();
        value.net[0].tx_bytes += s * 200 * MIB;
        if to_intranet {
            split.intranet = s * 200 * MIB;
        }
        value.egress_split_total = split;
        let time = start + SignedDuration::from_secs(i64::try_from(s).unwrap());
        update(&mut app, Event::Tick(time));
        let at = Duration::from_secs(200 * 60 + s);
        update(
            &mut app,
            Event::Telemetry(Telemetry::Host(Stamped { at, time, value })),
        );
    }
    let end = start + SignedDuration::from_secs(121);
    update(&mut app, Event::Tick(end));
    app
}

#[test]
fn an_upload_to_the_internet_is_warned_with_its_cost_at_every_size() {
    let plain = demo_app(Duration::from_secs(200 * 60));
    let app = sending(false);
    let upload = app
        .spend
        .reading
        .as_ref()
        .and_then(|r| r.public_upload)
        .expect("23 GiB in two minutes is an upload");
    // The demo's own trickle before it counts too.
    assert!(upload.bytes >= 120 * 200 * MIB, "{}", upload.bytes);
    // Where the panel has the rows, the whole warning; else its name in the border.
    let all = screen(&app, (120, 40)).join("\n");
    assert!(all.contains("uploading to the"), "{all}");
    assert!(all.contains("GiB since"), "{all}");
    for size in [(60, 16), (80, 24), (120, 40)] {
        let (without, with) = (screen(&plain, size), screen(&app, size));
        assert!(
            with.join("\n").contains("upload"),
            "{size:?}\n{}",
            with.join("\n")
        );
        assert_eq!(without.last(), with.last(), "key hints at {size:?}");
        assert!(
            with.join("\n").contains("total"),
            "the total stays at {size:?}"
        );
    }
}

#[test]
fn the_same_bytes_to_the_intranet_are_split_out_and_not_warned() {
    let app = sending(true);
    let reading = app.spend.reading.as_ref().unwrap();
    assert_eq!(reading.public_upload, None);
    assert_eq!(reading.accrual.egress.intranet.bytes, 120 * 200 * MIB);
    let all = screen(&app, (120, 40)).join("\n");
    assert!(!all.contains("uploading"), "{all}");
    assert!(all.contains("intranet 23.4"), "{all}");
}

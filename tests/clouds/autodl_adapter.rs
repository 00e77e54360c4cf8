//! The AutoDL adapter against its loopback peer: the instance read from the paged list, the
//! private images that outlive it, power off, power on and release each confirmed only by the
//! status read back, the wallet in yuan (not a thousand times it), and the account's listing.

use gpumeter::meter::{InstanceState, ResourceKind};
use gpumeter::money::{Currency, Money};
use gpumeter::provider::refresh::Look;
use gpumeter::provider::{Action, ErrorKind, Provider, Seen};
use rust_decimal::Decimal;

use crate::autodl_peer::{self, IMAGE, INSTANCE, OTHERS, Peer, TOKEN};
use crate::gpu_peer::Fault;

const STATUS: &str = "GET /api/v1/dev/instance/pro/status";
const POWER_OFF: &str = "POST /api/v1/dev/instance/pro/power_off";
const POWER_ON: &str = "POST /api/v1/dev/instance/pro/power_on";
const RELEASE: &str = "POST /api/v1/dev/instance/pro/release";

fn seen() -> Seen {
    [("autodl", None, INSTANCE)].into_iter().collect()
}

#[tokio::test]
async fn the_inventory_reads_every_page_and_names_the_images_that_outlive_a_release() {
    let peer = Peer::start();
    let inv = peer.adapter().inventory().await.unwrap();
    let i = inv
        .instance
        .expect("the instance is on the list's first page");
    assert_eq!((i.id.as_str(), i.sku.as_str()), (INSTANCE, "pro6000-p"));
    assert_eq!(i.region.as_deref(), Some("neimeng-C"));
    assert_eq!(i.state, InstanceState::Running);
    assert_eq!(i.created, "2025-12-15T09:30:54Z".parse().unwrap());
    let images: Vec<&str> = inv.resources.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(images, [IMAGE, "image-7f3e21a9c0"]);
    assert!(
        inv.resources
            .iter()
            .all(|r| r.kind == ResourceKind::Image && !r.deleted_with_instance)
    );
    assert_eq!(
        peer.count("POST /api/v1/dev/instance/pro/list"),
        2,
        "{:?}",
        peer.calls()
    );
}

#[tokio::test]
async fn an_image_list_the_account_may_not_read_is_a_gap_not_none() {
    let peer = Peer::start();
    peer.cloud(|c| c.images_refused = true);
    let adapter = peer.adapter();
    let inv = adapter.inventory().await.unwrap();
    assert!(inv.instance.is_some() && inv.resources.is_empty());
    let gaps = adapter.gaps();
    assert!(
        gaps.len() == 1 && gaps[0].contains("private images unknown"),
        "{gaps:?}"
    );
}

#[tokio::test]
async fn stop_is_done_only_once_the_status_reads_shutdown() {
    let peer = Peer::start();
    let report = peer.adapter().perform(&Action::Stop).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(report.summary.contains("`shutdown`"), "{}", report.summary);
    assert_eq!(
        peer.cloud(|c| c.status(INSTANCE).map(str::to_string))
            .as_deref(),
        Some("shutdown")
    );
    assert!(report.calls[1].starts_with(POWER_OFF), "{:?}", report.calls);
    // A second stop finds it shut down and sends nothing.
    let again = peer.adapter().perform(&Action::Stop).await.unwrap();
    assert!(
        again.confirmed && again.summary.contains("already"),
        "{again:?}"
    );
    assert_eq!(peer.count(POWER_OFF), 1);
}

#[tokio::test]
async fn a_power_off_that_never_arrives_is_not_done() {
    let peer = Peer::start();
    peer.cloud(|c| c.instances[0].settling = usize::MAX);
    let report = peer.adapter().perform(&Action::Stop).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("shutting_down"),
        "{}",
        report.summary
    );
}

#[tokio::test]
async fn start_powers_on_with_the_gpu_and_waits_for_running() {
    let peer = Peer::start();
    peer.cloud(|c| c.set_status(INSTANCE, "shutdown"));
    let report = peer.adapter().perform(&Action::Start).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.calls[1].contains("\"payload\":\"gpu\""),
        "{:?}",
        report.calls
    );
    assert_eq!(
        peer.cloud(|c| c.status(INSTANCE).map(str::to_string))
            .as_deref(),
        Some("running")
    );
    // The no-GPU mode is refused before any call: the documentation says the API cannot.
    let e = gpumeter::provider::autodl::power_on_payload(false).unwrap_err();
    assert!(e.is_unsupported(), "{e:?}");
    assert_eq!(peer.count(POWER_ON), 1);
}

#[tokio::test]
async fn release_powers_off_first_then_releases_and_reads_it_gone() {
    let peer = Peer::start();
    let adapter = peer.adapter();
    adapter.add_seen(&seen());
    let report = adapter.perform(&Action::Release).await.unwrap();
    assert!(report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("no longer knows it"),
        "{}",
        report.summary
    );
    let calls = peer.calls();
    let at = |c: &str| calls.iter().position(|x| x.starts_with(c)).unwrap();
    assert!(at(POWER_OFF) < at(RELEASE), "{calls:?}");
    assert!(peer.cloud(|c| c.status(INSTANCE).is_none()));
    // Released, it is read as such: nothing more to do, and a stop has nothing to stop.
    let again = adapter.perform(&Action::Release).await.unwrap();
    assert!(
        again.confirmed && again.summary.contains("already released"),
        "{again:?}"
    );
    let stop = adapter.perform(&Action::Stop).await.unwrap();
    assert!(!stop.confirmed, "{stop:?}");
}

#[tokio::test]
async fn a_release_whose_power_off_does_not_finish_is_never_sent() {
    let peer = Peer::start();
    peer.cloud(|c| c.instances[0].settling = usize::MAX);
    let report = peer.adapter().perform(&Action::Release).await.unwrap();
    assert!(!report.confirmed, "{report:?}");
    assert!(
        report.summary.contains("not released"),
        "{}",
        report.summary
    );
    assert_eq!(peer.count(RELEASE), 0);
    assert!(peer.cloud(|c| c.status(INSTANCE).is_some()));
}

#[tokio::test]
async fn the_balance_is_yuan_from_thousandths_never_a_thousand_times_it() {
    let peer = Peer::start();
    let b = peer
        .adapter()
        .balance()
        .await
        .unwrap()
        .expect("AutoDL keeps a balance");
    // The wallet answers 29290 and 1500: 29.29 and 1.50 CNY.
    assert_eq!(
        b.available,
        Money::new(Decimal::new(2929, 2), Currency::CNY)
    );
    assert_eq!(
        b.vouchers,
        Some(Money::new(Decimal::new(15, 1), Currency::CNY))
    );
    assert_ne!(b.available.amount, Decimal::from(29_290), "read as yuan");
}

#[tokio::test]
async fn a_look_is_one_status_call() {
    let peer = Peer::start();
    let look = peer.adapter().look().await.unwrap();
    assert_eq!(look, Look::State(Some(InstanceState::Running)));
    assert_eq!(peer.calls(), [STATUS]);
}

#[tokio::test]
async fn the_account_listing_holds_every_instance_over_its_pages() {
    let peer = Peer::start();
    let found = peer.adapter().instances().await.unwrap();
    let rows: Vec<(&str, InstanceState, &str)> = found
        .iter()
        .map(|d| {
            (
                d.instance.id.as_str(),
                d.instance.state,
                d.instance.sku.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (INSTANCE, InstanceState::Running, "pro6000-p"),
            (OTHERS[0], InstanceState::Stopped, "5090-p"),
            (OTHERS[1], InstanceState::Running, "2xv-48g"),
        ]
    );
}

#[tokio::test]
async fn a_refused_token_names_where_it_came_from_and_never_shows_it() {
    let peer = Peer::start();
    peer.fault(Fault::RejectKey, None, None);
    let e = peer.adapter().inventory().await.unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Auth(_)), "{e:?}");
    let text = format!("{e} {}", e.fix());
    assert!(
        text.contains("AUTODL_TOKEN") && !text.contains(TOKEN),
        "{text}"
    );
}

#[tokio::test]
async fn an_instance_autodl_does_not_know_is_a_refusal_with_its_code() {
    let peer = Peer::start();
    let adapter = autodl_peer::adapter_at(&peer.url(), "pro-000000000000");
    let e = adapter.perform(&Action::Stop).await.unwrap_err();
    let text = format!("{e} {}", e.fix());
    assert!(
        text.contains("pro-000000000000") || text.contains("instance"),
        "{text}"
    );
    assert_eq!(peer.count(POWER_OFF), 0);
}

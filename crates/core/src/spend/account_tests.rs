//! One account whoever asks: the cockpit that watched all along, a fresh process reading what
//! the ledger recorded, a provider that keeps or forgets a released instance.

use jiff::Timestamp;
use jiff::tz::TimeZone;
use proptest::prelude::*;
use rust_decimal::{Decimal, dec};

use super::{Account, Recorded, account, recorded_account};
use crate::cloud::{Exposure, InstanceInfo, Inventory, LinkedResource};
use crate::meter::fixture::example_sheet;
use crate::meter::{BillingMode, ComputeTerms, InstanceState, Resource, ResourceKind};
use crate::spend::{PriceSource, Pricing, Spend};

fn ts(s: i64) -> Timestamp {
    Timestamp::from_second(s).unwrap()
}

fn pricing() -> Pricing {
    let mut sheet = example_sheet();
    sheet.extras.boot_fee = None;
    sheet.extras.license_per_hour = None;
    sheet.network.fixed_bandwidth_per_mbps_month = None;
    let sku = sheet.skus[0].clone();
    Pricing {
        terms: ComputeTerms::from_sheet(&sheet, &sku, BillingMode::OnDemand, 1).unwrap(),
        source: PriceSource::Sheet(sheet.id.clone()),
        sheet,
        sku,
        mode: BillingMode::OnDemand,
        licenses: None,
        bandwidth_mbps: None,
    }
}

fn disk(id: &str, kind: ResourceKind, gib: Decimal, with_instance: bool) -> LinkedResource {
    LinkedResource {
        id: id.into(),
        name: id.into(),
        kind,
        class: Some("ssd".into()),
        size_gib: gib,
        state: "in-use".into(),
        created: ts(0),
        deleted_with_instance: with_instance,
        backs_image: None,
        attached_to: None,
        exposure: Exposure::default(),
        origin: None,
        tags: std::collections::BTreeMap::new(),
    }
}

/// A made-up cloud: one instance, a root disk that goes with it, a data disk, a snapshot and a
/// network volume the sheet cannot price. `keeps_released`: it still lists a released
/// instance (as EC2 does for a while), dating the release at each listing.
#[derive(Debug, Clone)]
struct Cloud {
    history: Vec<(Timestamp, InstanceState)>,
    resources: Vec<LinkedResource>,
    keeps_released: bool,
}

impl Cloud {
    fn new(keeps_released: bool) -> Cloud {
        Cloud {
            history: vec![(ts(0), InstanceState::Running)],
            resources: vec![
                disk("vol-root", ResourceKind::SystemDisk, dec!(100), true),
                disk("vol-data", ResourceKind::DataDisk, dec!(500), false),
                disk("snap-1", ResourceKind::Snapshot, dec!(50), false),
                disk("nv-1", ResourceKind::NetworkVolume, dec!(10), false),
            ],
            keeps_released,
        }
    }

    fn state(&self) -> InstanceState {
        self.history.last().map_or(InstanceState::Running, |h| h.1)
    }

    fn change(&mut self, at: Timestamp, to: InstanceState) {
        let now = self.state();
        if now != InstanceState::Released && now != to {
            self.history.push((at, to));
            if to == InstanceState::Released {
                self.resources.retain(|r| !r.deleted_with_instance);
            }
        }
    }

    fn inventory(&self, now: Timestamp) -> Inventory {
        let state = self.state();
        let mut history = self.history.clone();
        if state == InstanceState::Released {
            if !self.keeps_released {
                return Inventory {
                    instance: None,
                    resources: self.resources.clone(),
                    deadline: None,
                };
            }
            // Such a listing dates the release when it is read, not when it happened.
            history.pop();
            history.push((now, InstanceState::Released));
        }
        Inventory {
            instance: Some(InstanceInfo {
                id: "i-1".into(),
                name: "trainer".into(),
                provider: "test".into(),
                region: None,
                sku: "gpu.1x".into(),
                mode: BillingMode::OnDemand,
                state,
                created: ts(0),
                live_price_per_hour: None,
                history,
            }),
            resources: self.resources.clone(),
            deadline: None,
        }
    }
}

/// What the ledger keeps of each inventory: the last listing, the first confirmed release or
/// first miss, and each resource with its last sighting and first miss.
#[derive(Debug, Default)]
struct Ledger(Recorded);

impl Ledger {
    fn saw(&mut self, inv: &Inventory, now: Timestamp) {
        let rec = &mut self.0;
        match (&inv.instance, &mut rec.instance) {
            (Some(listed), slot) => {
                let released = slot.as_ref().and_then(|(_, r)| *r);
                let now_released = (listed.state == InstanceState::Released).then_some(now);
                *slot = Some((listed.clone(), released.or(now_released)));
            }
            (None, Some((_, released @ None))) => *released = Some(now),
            (None, _) => {}
        }
        for r in &inv.resources {
            match rec.resources.iter_mut().find(|(k, _)| k.id == r.id) {
                Some((known, last)) => {
                    known.deleted = None;
                    *last = now;
                }
                None => rec.resources.push((r.to_meter(), now)),
            }
        }
        for (known, _) in &mut rec.resources {
            if known.deleted.is_none() && !inv.resources.iter().any(|r| r.id == known.id) {
                known.deleted = Some(now);
            }
        }
    }

    fn released(&mut self, at: Timestamp) {
        if let Some((_, released)) = &mut self.0.instance {
            *released = Some(released.map_or(at, |r| r.min(at)));
        }
    }
}

fn cents(a: &Account) -> (Vec<Decimal>, String, Vec<String>) {
    (
        a.accrued.to_cents().to_vec(),
        a.still_billing_monthly.to_string(),
        a.unknown(),
    )
}

#[test]
fn a_fresh_process_prices_a_released_instance_the_provider_forgot_as_the_cockpit_did() {
    let p = pricing();
    let mut cloud = Cloud::new(false);
    let mut ledger = Ledger::default();
    let mut cockpit = Spend::new(Some(p.clone()), None, TimeZone::UTC);
    let seen = cloud.inventory(ts(3600));
    ledger.saw(&seen, ts(3600));
    cockpit.record_inventory(&seen, ts(3600));
    cloud.change(ts(7200), InstanceState::Released);
    ledger.released(ts(7200));
    cockpit.released(ts(7200));

    let later = ts(10 * 3600);
    let gone = cloud.inventory(later);
    cockpit.record_inventory(&gone, later);
    cockpit.recompute(Some(&gone), later, None);
    let fresh = account(Some(&p), &ledger.0, &gone, later).unwrap();
    assert_eq!(cents(&cockpit.account().unwrap()), cents(&fresh));
    // Two hours at 3.60, nothing after the release, nothing unknown about the instance.
    assert_eq!(fresh.accrued.compute, dec!(7.20));
    assert_eq!(fresh.burn_per_hour.compute, Decimal::ZERO);
    assert_eq!(fresh.released, Some(ts(7200)));
    assert!(
        fresh
            .total
            .unknown
            .iter()
            .all(|u| u.starts_with("network volume")),
        "{:?}",
        fresh.total.unknown
    );
}

#[test]
fn a_listing_that_dates_the_release_late_does_not_move_it() {
    let p = pricing();
    let mut cloud = Cloud::new(true);
    let mut spend = Spend::new(Some(p), None, TimeZone::UTC);
    spend.record_inventory(&cloud.inventory(ts(1800)), ts(1800));
    cloud.change(ts(3600), InstanceState::Released);
    spend.released(ts(3600));
    for hours in [2, 5] {
        let inv = cloud.inventory(ts(hours * 3600));
        spend.record_inventory(&inv, ts(hours * 3600));
        spend.recompute(Some(&inv), ts(hours * 3600), None);
        let a = spend.account().unwrap();
        assert_eq!(a.accrued.compute, dec!(3.60), "at {hours} h");
        assert_eq!(a.burn_per_hour.compute, Decimal::ZERO);
    }
}

#[test]
fn a_disk_deleted_with_the_instance_stops_at_the_release_and_bills_nothing_after() {
    let p = pricing();
    let mut cloud = Cloud::new(false);
    let mut spend = Spend::new(Some(p), None, TimeZone::UTC);
    spend.record_inventory(&cloud.inventory(ts(0)), ts(0));
    cloud.change(ts(730 * 36), InstanceState::Released);
    spend.released(ts(730 * 36));
    let later = ts(730 * 3600);
    let inv = cloud.inventory(later);
    spend.record_inventory(&inv, later);
    spend.recompute(Some(&inv), later, None);
    let a = spend.account().unwrap();
    assert!(a.leftovers.iter().all(|l| l.id != "vol-root"));
    // The root disk: 100 GiB at 0.10 a month for a hundredth of a month; the data disk and the
    // snapshot for the whole month.
    assert_eq!(a.accrued.storage, dec!(0.10) + dec!(50) + dec!(2.5));
    // The network volume has no price: named, never a zero.
    assert_eq!(a.still_billing_monthly.known.amount, dec!(52.5));
    assert_eq!(a.still_billing_monthly.unknown.len(), 1);
    assert!(a.still_billing_monthly.to_string().ends_with("+ 1 unknown"));
}

#[derive(Debug, Clone)]
enum Step {
    Hours(u8),
    Stop,
    Start,
    Release,
    Cleanup(usize),
    Restart,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (1u8..30).prop_map(Step::Hours),
        1 => Just(Step::Stop),
        1 => Just(Step::Start),
        1 => Just(Step::Release),
        1 => (0usize..4).prop_map(Step::Cleanup),
        1 => Just(Step::Restart),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// After every step the cockpit's running account and the one a fresh process builds from
    /// the ledger agree to the cent (each line, what still bills, what is unknown), and the
    /// total never falls.
    #[test]
    fn every_reader_gives_one_account_and_totals_never_fall(
        keeps in any::<bool>(),
        steps in proptest::collection::vec(step(), 1..24),
    ) {
        let p = pricing();
        let mut cloud = Cloud::new(keeps);
        let mut ledger = Ledger::default();
        let mut cockpit = Spend::new(Some(p.clone()), None, TimeZone::UTC);
        let mut now = ts(0);
        let mut last_total = Decimal::ZERO;
        // Both start from the instance running, as read once.
        let first = cloud.inventory(now);
        cockpit.record_inventory(&first, now);
        ledger.saw(&first, now);
        for step in steps {
            match step {
                Step::Hours(h) => now += jiff::SignedDuration::from_hours(i64::from(h)),
                Step::Stop => cloud.change(now, InstanceState::Stopped),
                Step::Start => cloud.change(now, InstanceState::Running),
                Step::Release => {
                    if cloud.state() != InstanceState::Released {
                        cloud.change(now, InstanceState::Released);
                        ledger.released(now);
                        cockpit.released(now);
                    }
                }
                Step::Cleanup(i) => {
                    let ids = ["vol-data", "snap-1", "nv-1", "vol-root"];
                    if cloud.state() == InstanceState::Released {
                        cloud.resources.retain(|r| r.id != ids[i]);
                    }
                }
                Step::Restart => {
                    cockpit = Spend::new(Some(p.clone()), None, TimeZone::UTC);
                    if let Some((i, r)) = &ledger.0.instance {
                        cockpit.restore(i.clone(), *r);
                    }
                    cockpit.remember(&ledger.0.resources);
                }
            }
            let inv = cloud.inventory(now);
            let fresh = account(Some(&p), &ledger.0, &inv, now);
            cockpit.record_inventory(&inv, now);
            cockpit.recompute(Some(&inv), now, None);
            ledger.saw(&inv, now);
            let running = cockpit.account().unwrap();
            let fresh = fresh.unwrap();
            prop_assert_eq!(cents(&running), cents(&fresh));
            // What the ledger now holds, read with no provider at all, says the same.
            let offline = recorded_account(Some(&p), &ledger.0, now).unwrap();
            prop_assert_eq!(cents(&running), cents(&offline));
            prop_assert_eq!(running.released, offline.released);
            prop_assert!(running.total.known.amount >= last_total);
            last_total = running.total.known.amount;
            let released = cloud.state() == InstanceState::Released;
            prop_assert_eq!(running.released.is_some(), released, "{:?}", running);
            if released {
                prop_assert_eq!(running.burn_per_hour.compute, Decimal::ZERO);
                prop_assert!(running.leftovers.iter().all(|l| l.id != "vol-root"));
            }
        }
    }
}

#[test]
fn a_resource_the_ledger_saw_go_keeps_what_it_accrued_until_then() {
    let p = pricing();
    let mut recorded = Recorded::default();
    let mut gone: Resource = disk("snap-1", ResourceKind::Snapshot, dec!(730), false).to_meter();
    gone.deleted = Some(ts(3600));
    recorded.resources.push((gone, ts(1800)));
    let inv = Cloud::new(false).inventory(ts(7200));
    let mut inv = inv;
    inv.resources.retain(|r| r.id != "snap-1");
    let a = account(Some(&p), &recorded, &inv, ts(7200)).unwrap();
    // 730 GiB at 0.05 a month is 0.05 an hour: one hour, until it was first missed.
    assert!(a.accrued.storage >= dec!(0.05));
    assert!(a.leftovers.iter().all(|l| l.id != "snap-1"));
}

/// Offline, a resource the ledger never saw go still bills and still accrues: an empty
/// reading would have ended it, and the released instance's leftovers with it.
#[test]
fn the_record_alone_keeps_what_the_ledger_did_not_see_go() {
    let p = pricing();
    let mut cloud = Cloud::new(false);
    let mut ledger = Ledger::default();
    ledger.saw(&cloud.inventory(ts(0)), ts(0));
    cloud.change(ts(3600), InstanceState::Released);
    ledger.released(ts(3600));
    let gone = cloud.inventory(ts(7200));
    ledger.saw(&gone, ts(7200));
    let later = ts(730 * 3600);
    let offline = recorded_account(Some(&p), &ledger.0, later).unwrap();
    let online = account(Some(&p), &ledger.0, &cloud.inventory(later), later).unwrap();
    assert_eq!(cents(&offline), cents(&online));
    assert_eq!(offline.accrued.compute, dec!(3.60));
    assert_eq!(offline.released, Some(ts(3600)));
    assert_eq!(offline.still_billing_monthly.known.amount, dec!(52.5));
    assert!(recorded_account(Some(&p), &Recorded::default(), later).is_none());
}

/// A listing that dates the release earlier than the ledger recorded it (a confirmed release
/// written a second after the provider's own date) ends compute where a reading of it would.
#[test]
fn the_record_alone_takes_the_earlier_release_a_released_listing_gives() {
    let p = pricing();
    let mut cloud = Cloud::new(true);
    cloud.change(ts(3600), InstanceState::Released);
    let mut listed = cloud.inventory(ts(3600));
    let recorded = Recorded {
        instance: Some((listed.instance.take().unwrap(), Some(ts(3601)))),
        resources: Vec::new(),
        traffic: Vec::new(),
    };
    let now = ts(7200);
    let offline = recorded_account(Some(&p), &recorded, now).unwrap();
    let online = account(Some(&p), &recorded, &cloud.inventory(ts(3600)), now).unwrap();
    assert_eq!(offline.released, Some(ts(3600)));
    assert_eq!(offline.released, online.released);
    assert_eq!(offline.accrued.compute, online.accrued.compute);
}

#[path = "window_tests.rs"]
mod window_tests;

#[test]
fn egress_by_destination_is_the_same_for_the_cockpit_and_a_fresh_process() {
    use crate::meter::Traffic;
    use crate::traffic::EgressSplit;
    let p = pricing();
    let cloud = Cloud::new(false);
    let mut ledger = Ledger::default();
    let mut cockpit = Spend::new(Some(p.clone()), None, TimeZone::UTC);
    let seen = cloud.inventory(ts(60));
    ledger.saw(&seen, ts(60));
    cockpit.record_inventory(&seen, ts(60));
    let gib = 1u64 << 30;
    let split = EgressSplit {
        intranet: 150 * gib,
        cross_region: 40 * gib,
    };
    // The counters' first reading is their baseline; the second is what was sent since.
    cockpit.record_bytes(ts(60), 0, 0, EgressSplit::default());
    cockpit.record_bytes(ts(120), 300 * gib, 0, split);
    ledger.0.traffic = vec![Traffic {
        at: ts(120),
        egress_bytes: 300 * gib,
        ingress_bytes: 0,
        split,
    }];
    let now = ts(3600);
    let listed = cloud.inventory(now);
    cockpit.recompute(Some(&listed), now, None);
    let live = cockpit.account().unwrap();
    let fresh = account(Some(&p), &ledger.0, &listed, now).unwrap();
    assert_eq!(live.egress, fresh.egress);
    assert_eq!(live.cost_cents(), fresh.cost_cents());
    let json = serde_json::to_value(fresh.cost_cents()).unwrap();
    // 110 GiB to the internet (100 free, 10 at 0.09), 40 to another region at 0.02.
    assert_eq!(json["egress"]["internet"]["bytes"], 110 * gib);
    assert_eq!(json["egress"]["internet"]["cost"], "0.90");
    assert_eq!(json["egress"]["intranet"]["bytes"], 150 * gib);
    assert_eq!(json["egress"]["intranet"]["cost"], "0.00");
    assert_eq!(json["egress"]["cross_region"]["cost"], "0.80");
    assert_eq!(json["bandwidth"], "1.70");
}

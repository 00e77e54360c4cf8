//! An account read by listing: each instance its own row with what the listing ties to it, one
//! row of what bills with none, nothing counted twice, and the tag and region filters.

use std::collections::BTreeMap;

use gpumeter_core::cloud::{Discovered, LinkedResource};
use gpumeter_core::demo::cloud::DemoState;
use gpumeter_core::demo::{demo_pricing, fixture_now};
use gpumeter_core::fleet::{FleetFilter, Origin, account_rows, orphans_row, table};
use gpumeter_core::meter::{InstanceState, ResourceKind};

fn account() -> Origin {
    Origin {
        account: "research".into(),
        provider: "demo".into(),
        region: Some("us-east-1".into()),
        instance_id: String::new(),
    }
}

fn tags(team: &str) -> BTreeMap<String, String> {
    BTreeMap::from([("team".to_string(), team.to_string())])
}

/// The demo instance as `id`, in `state`, tagged `team`, with its own disks renamed so that
/// two of them never share an id.
fn discovered(id: &str, state: InstanceState, team: &str) -> Discovered {
    let demo = DemoState::fresh(fixture_now());
    let mut instance = demo.instance;
    instance.id = id.into();
    instance.state = state;
    let resources = demo
        .resources
        .into_iter()
        .filter(|r| matches!(r.kind, ResourceKind::SystemDisk | ResourceKind::DataDisk))
        .map(|mut r| {
            r.id = format!("{id}-{}", r.id);
            r.attached_to = Some(id.into());
            r
        })
        .collect();
    Discovered {
        instance,
        resources,
        deadline: None,
        tags: tags(team),
    }
}

fn orphan(id: &str, team: &str) -> LinkedResource {
    let demo = DemoState::fresh(fixture_now());
    let mut disk = demo.orphans[1].clone();
    disk.id = id.into();
    disk.tags = tags(team);
    disk
}

/// Two instances, one stopped; the sweep lists the stopped one itself, its data disk and two
/// orphans.
fn listings() -> (Vec<Discovered>, Vec<LinkedResource>) {
    let running = discovered("i-run", InstanceState::Running, "vision");
    let stopped = discovered("i-stop", InstanceState::Stopped, "nlp");
    let mut swept: Vec<LinkedResource> = stopped
        .resources
        .iter()
        .filter(|r| r.kind == ResourceKind::DataDisk)
        .cloned()
        .collect();
    let mut itself = orphan("i-stop", "nlp");
    itself.kind = ResourceKind::StoppedInstance;
    swept.push(itself);
    // A disk attached to a listed instance but missing from its resources is its all the same.
    let mut attached = orphan("vol-late", "nlp");
    attached.attached_to = Some("i-run".into());
    swept.push(attached);
    swept.push(orphan("vol-a", "vision"));
    swept.push(orphan("vol-b", "nlp"));
    (vec![running, stopped], swept)
}

fn ids(rows: &[(Origin, gpumeter_core::cloud::Inventory)]) -> Vec<(String, Vec<String>)> {
    rows.iter()
        .map(|(o, i)| {
            let mut held: Vec<String> = i.resources.iter().map(|r| r.id.clone()).collect();
            held.sort();
            (o.instance_id.clone(), held)
        })
        .collect()
}

#[test]
fn each_instance_is_a_row_and_the_orphans_one_more_with_nothing_twice() {
    let (instances, swept) = listings();
    let rows = account_rows(&account(), instances, swept, &FleetFilter::default());
    let got = ids(&rows);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0].0, "i-run");
    assert!(
        got[0].1.iter().all(|id| id.starts_with("i-run-")),
        "{got:?}"
    );
    assert_eq!(got[1].0, "i-stop");
    assert_eq!(
        got[2],
        (String::new(), vec!["vol-a".into(), "vol-b".into()])
    );
    for (origin, _) in &rows {
        assert_eq!(origin.account, "research");
        assert_eq!(origin.region.as_deref(), Some("us-east-1"));
    }
}

#[test]
fn a_tag_keeps_the_instances_and_orphans_that_carry_it() {
    let (instances, swept) = listings();
    let vision = FleetFilter {
        tags: vec![("team".into(), Some("vision".into()))],
        ..FleetFilter::default()
    };
    let got = ids(&account_rows(
        &account(),
        instances.clone(),
        swept.clone(),
        &vision,
    ));
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0, "i-run");
    assert_eq!(got[1], (String::new(), vec!["vol-a".into()]));
    // The key alone keeps every team; a tag nobody has keeps nothing.
    let any_team = FleetFilter {
        tags: vec![("team".into(), None)],
        ..FleetFilter::default()
    };
    assert_eq!(
        account_rows(&account(), instances.clone(), swept.clone(), &any_team).len(),
        3
    );
    let nobody = FleetFilter {
        tags: vec![("team".into(), Some("audio".into()))],
        ..FleetFilter::default()
    };
    assert!(account_rows(&account(), instances, swept, &nobody).is_empty());
}

#[test]
fn the_region_and_provider_filters_choose_the_accounts() {
    let filter = FleetFilter {
        regions: vec!["cn-hangzhou".into()],
        providers: vec!["alibaba".into()],
        ..FleetFilter::default()
    };
    assert!(filter.reads("alibaba", Some("cn-hangzhou")));
    assert!(!filter.reads("alibaba", Some("cn-shanghai")));
    assert!(!filter.reads("tencent", Some("cn-hangzhou")));
    // Its region unknown until the adapter is built: read, and judged by what it lists.
    assert!(filter.reads("alibaba", None));
    let (instances, swept) = listings();
    assert!(account_rows(&account(), instances, swept, &filter).is_empty());
}

#[test]
fn the_orphans_row_is_priced_by_the_sheet_and_unpriced_without_one() {
    let (instances, swept) = listings();
    let rows = account_rows(&account(), instances, swept, &FleetFilter::default());
    let (origin, inventory) = rows.last().unwrap().clone();
    let sheet = demo_pricing().unwrap().sheet;
    let row = orphans_row(origin.clone(), &inventory, Some(&sheet));
    let each: Vec<_> = row.leftovers.iter().map(|l| l.monthly.unwrap()).collect();
    assert_eq!(each.len(), 2);
    assert_eq!(row.leftover_monthly, Some(each.iter().sum()));
    assert!(row.leftover_monthly.unwrap() > rust_decimal::Decimal::ZERO);
    let unpriced = orphans_row(origin, &inventory, None);
    assert_eq!(unpriced.leftover_monthly, None);
    assert!(unpriced.leftovers.iter().all(|l| l.monthly.is_none()));
    let text = table::render(&[row]);
    assert!(text.contains("no instance"), "{text}");
}

#[test]
fn a_long_list_of_orphans_is_cut_in_the_table_and_counted() {
    let orphans: Vec<LinkedResource> = (0..25)
        .map(|n| orphan(&format!("vol-{n:02}"), "nlp"))
        .collect();
    let rows = account_rows(&account(), Vec::new(), orphans, &FleetFilter::default());
    let sheet = demo_pricing().unwrap().sheet;
    let row = orphans_row(rows[0].0.clone(), &rows[0].1, Some(&sheet));
    assert_eq!(row.leftovers.len(), 25);
    let text = table::render(&[row]);
    assert_eq!(text.matches("vol-").count(), 20, "{text}");
    assert!(text.contains("… 5 more"), "{text}");
}

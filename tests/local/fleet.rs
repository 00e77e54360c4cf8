//! The fleet on fixtures: rows priced from the demo sheet, flagged (forgotten, idle, overlap,
//! leftovers, unreachable, unpriced) and sorted by cost; and `collect`, what `gpumeter fleet`
//! and the cockpit's fleet screen read, against the demo cloud.

use gpumeter::demo::{demo_pricing, fixture_now};
use gpumeter::fleet::{Flag, FleetRow, Origin, Reporting, flag, row, sort_by_cost};
use gpumeter::meter::InstanceState;
use gpumeter::provider::demo::DemoState;
use gpumeter::provider::{HeldDeadline, Inventory};
use gpumeter::spend::Recorded;
use jiff::SignedDuration;
use rust_decimal::Decimal;

fn origin(account: &str, id: &str) -> Origin {
    Origin {
        account: account.into(),
        provider: "demo".into(),
        region: Some("us-east-1".into()),
        instance_id: id.into(),
    }
}

/// The demo instance renamed, with its id, name and state changed.
fn inventory(id: &str, name: &str, state: Option<InstanceState>) -> Inventory {
    let demo = DemoState::fresh(fixture_now());
    let mut instance = demo.instance;
    instance.id = id.into();
    instance.name = name.into();
    Inventory {
        instance: state.map(|s| {
            instance.state = s;
            instance
        }),
        resources: demo.resources,
        deadline: None,
    }
}

fn reporting(heartbeat: Option<bool>, idle_s: Option<f64>) -> Reporting {
    Reporting {
        heartbeat,
        idle_s,
        here: false,
    }
}

fn fleet() -> Vec<FleetRow> {
    let now = fixture_now();
    let running = Some(InstanceState::Running);
    let mut watched = inventory("i-watched", "eval", running);
    watched.deadline = Some(HeldDeadline {
        at: now + SignedDuration::from_mins(30),
    });
    let mut rows = vec![
        row(
            origin("research", "i-watched"),
            Ok((&watched, &Recorded::default())),
            demo_pricing().as_ref(),
            reporting(Some(true), Some(0.0)),
            now,
        ),
        row(
            origin("research", "i-old"),
            Ok((
                &inventory("i-old", "llm-finetune", running),
                &Recorded::default(),
            )),
            demo_pricing().as_ref(),
            reporting(None, None),
            now,
        ),
        row(
            origin("research", "i-new"),
            Ok((
                &inventory("i-new", "llm-finetune", running),
                &Recorded::default(),
            )),
            demo_pricing().as_ref(),
            reporting(Some(true), Some(7200.0)),
            now,
        ),
        row(
            origin("prod", "i-gone"),
            Ok((&inventory("i-gone", "", None), &Recorded::default())),
            demo_pricing().as_ref(),
            reporting(None, None),
            now,
        ),
        row(
            origin("prod", "i-down"),
            Err("the provider did not answer in time"),
            None,
            reporting(None, None),
            now,
        ),
        row(
            origin("prod", "i-nosheet"),
            Ok((
                &inventory("i-nosheet", "notebook", running),
                &Recorded::default(),
            )),
            None,
            reporting(Some(true), Some(0.0)),
            now,
        ),
    ];
    flag(&mut rows);
    sort_by_cost(&mut rows);
    rows
}

fn find<'a>(rows: &'a [FleetRow], id: &str) -> &'a FleetRow {
    rows.iter().find(|r| r.origin.instance_id == id).unwrap()
}

#[test]
fn the_fleet_is_sorted_by_cost_with_unknown_costs_last() {
    let rows = fleet();
    let order: Vec<&str> = rows.iter().map(|r| r.origin.instance_id.as_str()).collect();
    // Three running instances of the same SKU cost the same: by account, then id. The
    // released one bills only its leftovers; unknown costs come last.
    assert_eq!(
        order,
        [
            "i-new",
            "i-old",
            "i-watched",
            "i-gone",
            "i-down",
            "i-nosheet"
        ]
    );
    let costs: Vec<Decimal> = rows
        .iter()
        .filter_map(FleetRow::monthly_equivalent)
        .collect();
    assert_eq!(costs.len(), 4);
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{costs:?}");
}

#[test]
fn forgotten_idle_overlapping_and_left_over_instances_are_flagged() {
    let rows = fleet();
    assert_eq!(find(&rows, "i-watched").flags, []);
    assert_eq!(find(&rows, "i-old").flags, [Flag::Forgotten, Flag::Overlap]);
    assert_eq!(find(&rows, "i-new").flags, [Flag::Idle, Flag::Overlap]);
    assert_eq!(find(&rows, "i-gone").flags, [Flag::Leftovers]);
    assert_eq!(find(&rows, "i-down").flags, [Flag::Unreachable]);
    assert_eq!(find(&rows, "i-nosheet").flags, [Flag::Unpriced]);
}

#[test]
fn rows_carry_burn_uptime_deadline_and_leftovers() {
    let rows = fleet();
    let watched = find(&rows, "i-watched");
    assert!(watched.burn_per_hour.unwrap() > Decimal::ZERO);
    assert_eq!(watched.uptime_s, Some(200 * 60));
    assert_eq!(watched.deadline_remaining_s, Some(30 * 60));
    assert_eq!(watched.currency.as_deref(), Some("USD"));
    // The data disk, the snapshots, the image, the address and the load balancer outlive it.
    assert!(watched.leftovers.iter().all(|l| l.id != "vol-0root"));
    assert!(watched.leftover_monthly.unwrap() > Decimal::ZERO);
    let gone = find(&rows, "i-gone");
    assert_eq!(gone.state, None);
    assert_eq!(gone.burn_per_hour, None);
    assert_eq!(gone.monthly_equivalent(), gone.leftover_monthly);
    let json = serde_json::to_value(&rows).unwrap();
    assert_eq!(json[0]["account"], "research");
    assert_eq!(json[0]["flags"][0], "idle");
}

/// The context `gpumeter --data-dir DIR --config DIR/config.toml` loads, with `config` written
/// there.
fn context(dir: &std::path::Path, config: &str) -> gpumeter::commands::context::Context {
    use clap::Parser as _;
    let path = dir.join("config.toml");
    std::fs::write(&path, config).unwrap();
    let cli = gpumeter::cli::Cli::parse_from([
        "gpumeter".as_ref(),
        "--data-dir".as_ref(),
        dir.as_os_str(),
        "--config".as_ref(),
        path.as_os_str(),
    ]);
    gpumeter::commands::context::Context::load(&cli).unwrap()
}

const TWO_DEMO_ACCOUNTS: &str = "\
[[fleet]]
provider = \"demo\"
account = \"lab\"
instances = [\"i-a\", \"i-b\"]

[[fleet]]
provider = \"demo\"
account = \"prod\"
region = \"eu-west-1\"
instances = [\"i-c\"]
";

#[tokio::test]
async fn collect_reads_every_instance_of_two_demo_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(dir.path(), TWO_DEMO_ACCOUNTS);
    let rows = gpumeter::commands::fleet::collect(
        &ctx,
        &gpumeter::fleet::FleetFilter::default(),
        jiff::Timestamp::now(),
    )
    .await;
    let seen: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r.origin.account.as_str(), r.origin.instance_id.as_str()))
        .collect();
    // The demo cloud has one instance: every id finds it, so each costs the same and the
    // order is by account, then id.
    assert_eq!(seen, [("lab", "i-a"), ("lab", "i-b"), ("prod", "i-c")]);
    assert!(rows.iter().all(|r| r.running() && r.error.is_none()));
    assert_eq!(rows[2].origin.region.as_deref(), Some("eu-west-1"));
    // Twins within `lab` overlap; `prod`'s one does not; none reports.
    assert_eq!(rows[0].flags, [Flag::Forgotten, Flag::Overlap]);
    assert_eq!(rows[2].flags, [Flag::Forgotten]);
    assert!(rows[2].burn_per_hour.unwrap() > Decimal::ZERO);
}

#[tokio::test]
async fn the_cockpit_reads_only_the_fleet_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!("[instance]\nprovider = \"demo\"\n\n{TWO_DEMO_ACCOUNTS}");
    let (link, read) =
        gpumeter::commands::fleet::for_cockpit(context(dir.path(), &config)).expect("a fleet");
    assert_eq!((link.accounts, link.instances), (2, 3));
    assert_eq!((link.read_at, link.reading), (None, false));
    let ids: Vec<String> = read()
        .await
        .into_iter()
        .map(|r| r.origin.instance_id)
        .collect();
    assert_eq!(ids, ["i-a", "i-b", "i-c"], "not the cockpit's own instance");
    // Without `[[fleet]]` `gpumeter fleet` reads the configured instance; the cockpit, nothing.
    let alone = context(dir.path(), "[instance]\nprovider = \"demo\"\n");
    assert!(gpumeter::commands::fleet::for_cockpit(alone).is_none());
    let alone = context(dir.path(), "[instance]\nprovider = \"demo\"\n");
    let rows = gpumeter::commands::fleet::collect(
        &alone,
        &gpumeter::fleet::FleetFilter::default(),
        jiff::Timestamp::now(),
    )
    .await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].origin.instance_id, "i-0demo4a100f00d");
}

#[test]
fn a_month_of_burn_is_the_sheets_month() {
    // Vast's sheet counts 720 hours a month, not the 730 most clouds use.
    let mut pricing = demo_pricing().unwrap();
    pricing.sheet.billing.month_hours = 720;
    // Every line priced, so the totals are whole.
    pricing.sheet.extras.load_balancer_per_hour = Some(Decimal::ONE);
    let inventory = inventory("i-vast", "train", Some(InstanceState::Running));
    let r = row(
        origin("lab", "i-vast"),
        Ok((&inventory, &Recorded::default())),
        Some(&pricing),
        reporting(Some(true), None),
        fixture_now(),
    );
    let burn = r.burn_per_hour.unwrap();
    assert!(burn > Decimal::ZERO);
    let leftovers = r.leftover_monthly.unwrap();
    assert_eq!(
        r.monthly_equivalent(),
        Some(burn * Decimal::from(720) + leftovers)
    );
    let text = gpumeter::fleet::table::render(std::slice::from_ref(&r));
    let month = (burn * Decimal::from(720)).round_dp(0);
    assert!(
        text.contains(&format!("({month} USD a month at this rate)")),
        "{text}"
    );
}

/// The `[[fleet]]` example in docs/prometheus-and-fleet.md is a config gpumeter loads: a listed
/// account in two regions and one naming its instances.
#[test]
fn the_documented_fleet_example_loads() {
    let page = std::fs::read_to_string("docs/prometheus-and-fleet.md").unwrap();
    let section = page
        .split("## The fleet (")
        .nth(1)
        .expect("the fleet section");
    let block = section
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block");
    let config = gpumeter::config::Config::parse(
        block,
        std::path::Path::new("docs/prometheus-and-fleet.md"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(config.fleet.len(), 2);
    assert!(config.fleet[0].discovers());
    assert_eq!(config.fleet[0].each_region().len(), 2);
    assert_eq!(config.fleet[1].instances.len(), 2);
}

/// The demo's load balancer has no price: each row names it as left out of its burn and of its
/// leftovers, and the totals are lower bounds that count it, never the priced part alone.
#[test]
fn an_unpriced_load_balancer_makes_the_totals_lower_bounds() {
    let rows = fleet();
    let watched = find(&rows, "i-watched");
    assert!(
        watched.burn_unknown.iter().any(|u| u.contains("lb-0api")),
        "{:?}",
        watched.burn_unknown
    );
    // Named as the instance's account (status, checklist, the cockpit) names it.
    assert_eq!(
        watched.leftover_unknown,
        vec!["load balancer lb-0api: no price in the sheet".to_string()]
    );
    let cost = watched
        .cost
        .as_ref()
        .expect("the row carries the account's cost");
    assert!(cost.incomplete, "{cost:?}");
    let json = serde_json::to_value(watched).unwrap();
    assert_eq!(json["leftover_unknown"][0], watched.leftover_unknown[0]);
    assert!(
        json["burn_unknown"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );

    let text = gpumeter::fleet::table::render(&rows);
    let totals = text
        .lines()
        .find(|l| l.contains(" running: "))
        .expect("a totals line");
    // Three running demo rows and the released one each leave the load balancer out.
    assert!(totals.starts_with("3 running: ≥ "), "{totals}");
    assert!(
        totals.contains("leftovers after release: ≥ ") && totals.ends_with("/month + 4 unknown"),
        "{totals}"
    );
    assert!(
        text.contains("1 unpriced: no sheet prices them, so the totals above leave them out"),
        "the running instance with no sheet is not silently dropped: {text}"
    );
}

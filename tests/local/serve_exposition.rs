//! The Prometheus exposition parsed back: every line against the text format's grammar, every
//! sample through a real parser, names and labels as documented, unsupported metrics left out,
//! and every metric the example alert rules use present.

#![expect(
    clippy::float_cmp,
    reason = "the values compared are whole numbers, exact in f64"
)]

use std::collections::BTreeSet;
use std::time::Duration;

use gpumeter::demo::{demo_pricing, demo_simulator, fixture_now};
use gpumeter::provider::Inventory;
use gpumeter::provider::demo::DemoState;
use gpumeter::serve::{Collector, Input, Snapshot, Target, render};
use gpumeter::spend::Spend;
use gpumeter::telemetry::{GpuUnavailable, GpuUnavailableKind, Stamped, Telemetry};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use prometheus_parse::{Scrape, Value};

use gpumeter::demo::guard_state;

/// The demo instance ten minutes into training, its watchdog alive, at the fixture instant.
fn demo_snapshot(scenario: &str) -> Snapshot {
    demo_snapshot_priced(scenario, demo_pricing())
}

/// [`demo_snapshot`] under `pricing` instead of the demo's sheet.
fn demo_snapshot_priced(scenario: &str, pricing: Option<gpumeter::spend::Pricing>) -> Snapshot {
    demo_snapshot_split(scenario, pricing, 0)
}

/// [`demo_snapshot_priced`] with `intranet_pct` of what the interfaces sent measured by the
/// sockets as sent to the intranet.
fn demo_snapshot_split(
    scenario: &str,
    pricing: Option<gpumeter::spend::Pricing>,
    intranet_pct: u64,
) -> Snapshot {
    let now = fixture_now();
    let target = Target {
        instance_id: "unknown".into(),
        provider: "demo".into(),
    };
    let spend = Spend::new(pricing, None, TimeZone::UTC);
    let deadline = now + SignedDuration::from_mins(90);
    let mut collector = Collector::new(target, spend, Some(deadline));
    let state = DemoState::fresh(now);
    collector.feed(Input::Inventory(
        Ok(Inventory {
            instance: Some(state.instance),
            resources: state.resources,
            deadline: None,
        }),
        now,
    ));
    let sim = demo_simulator(scenario);
    for s in 0..=600u64 {
        let at = Duration::from_secs(s);
        let time = now - SignedDuration::from_secs(600 - i64::try_from(s).unwrap());
        let mut host = sim.host_at(at);
        host.egress_split_total.intranet = host.tx_bytes_total() * intranet_pct / 100;
        collector.feed(Input::Telemetry(Telemetry::Host(Stamped {
            at,
            time,
            value: host,
        })));
        collector.feed(Input::Telemetry(Telemetry::Gpu(Stamped {
            at,
            time,
            value: Ok(sim.gpus_at(at)),
        })));
    }
    let beat = now - SignedDuration::from_secs(3);
    collector.feed(Input::Guard(Some(guard_state(None, 1, "watchdog", beat))));
    collector.snapshot(now)
}

fn is_name(s: &str, first: fn(char) -> bool) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(first)
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

fn metric_name(s: &str) -> bool {
    is_name(s, |c| c.is_ascii_alphabetic() || c == '_' || c == ':')
}

fn label_name(s: &str) -> bool {
    is_name(s, |c| c.is_ascii_alphabetic() || c == '_') && !s.contains(':')
}

/// One sample line, `name{k="v",...} value`, checked against the 0.0.4 grammar. Returns the
/// name, the labels and the value.
fn sample_line(line: &str) -> Sample {
    let (head, value) = line.rsplit_once(' ').expect("a value after a space");
    let value: f64 = value.parse().unwrap_or_else(|_| panic!("value: {line}"));
    let (name, labels) = match head.split_once('{') {
        None => (head, Vec::new()),
        Some((name, rest)) => {
            let body = rest
                .strip_suffix('}')
                .unwrap_or_else(|| panic!("braces: {line}"));
            let mut labels = Vec::new();
            let mut rest = body;
            while !rest.is_empty() {
                let (key, after) = rest.split_once("=\"").unwrap_or_else(|| panic!("{line}"));
                assert!(label_name(key), "label name `{key}` in {line}");
                let mut value = String::new();
                let mut chars = after.char_indices();
                let end = loop {
                    match chars.next() {
                        Some((_, '\\')) => match chars.next() {
                            Some((_, 'n')) => value.push('\n'),
                            Some((_, c @ ('\\' | '"'))) => value.push(c),
                            other => panic!("bad escape {other:?} in {line}"),
                        },
                        Some((i, '"')) => break i,
                        Some((_, c)) => value.push(c),
                        None => panic!("unterminated label value in {line}"),
                    }
                };
                labels.push((key.to_string(), value));
                rest = &after[end + 1..];
                rest = rest.strip_prefix(',').unwrap_or(rest);
            }
            (name, labels)
        }
    };
    assert!(metric_name(name), "metric name `{name}` in {line}");
    (name.to_string(), labels, value)
}

/// A sample line: name, labels, value.
type Sample = (String, Vec<(String, String)>, f64);

struct Parsed {
    samples: Vec<Sample>,
    types: Vec<(String, String)>,
}

fn check_grammar(text: &str) -> Parsed {
    let mut parsed = Parsed {
        samples: Vec::new(),
        types: Vec::new(),
    };
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, _) = rest.split_once(' ').expect("help text");
            assert!(metric_name(name), "{line}");
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("a type");
            assert!(metric_name(name), "{line}");
            assert!(["counter", "gauge"].contains(&kind), "{line}");
            assert!(
                !parsed.types.iter().any(|(n, _)| n == name),
                "TYPE twice: {line}"
            );
            parsed.types.push((name.to_string(), kind.to_string()));
        } else {
            assert!(
                !line.starts_with('#') && !line.is_empty(),
                "stray line `{line}`"
            );
            let sample = sample_line(line);
            let typed = parsed.types.last().expect("a sample after its TYPE line");
            assert_eq!(typed.0, sample.0, "sample outside its family: {line}");
            parsed.samples.push(sample);
        }
    }
    parsed
}

fn label<'a>(labels: &'a [(String, String)], key: &str) -> Option<&'a str> {
    labels
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[test]
fn the_exposition_parses_back_with_the_documented_names_and_labels() {
    let text = render(&demo_snapshot("training"));
    let parsed = check_grammar(&text);
    let scrape = Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
    assert_eq!(
        scrape.samples.len(),
        parsed.samples.len(),
        "the parser skipped a line"
    );
    for sample in &scrape.samples {
        let kind = &parsed
            .types
            .iter()
            .find(|(n, _)| *n == sample.metric)
            .unwrap()
            .1;
        match (&sample.value, kind.as_str()) {
            (Value::Counter(v), "counter") => assert!(*v >= 0.0, "{}", sample.metric),
            (Value::Gauge(_), "gauge") => {}
            other => panic!("{}: {other:?}", sample.metric),
        }
        assert_eq!(sample.labels.get("instance_id"), Some("i-0demo4a100f00d"));
        assert_eq!(sample.labels.get("provider"), Some("demo"));
    }
    let of =
        |name: &str| -> Vec<&Sample> { parsed.samples.iter().filter(|s| s.0 == name).collect() };
    let util = of("DCGM_FI_DEV_GPU_UTIL");
    assert_eq!(util.len(), 8);
    for (i, s) in util.iter().enumerate() {
        assert_eq!(label(&s.1, "gpu"), Some(i.to_string().as_str()));
        assert!(label(&s.1, "UUID").is_some_and(|u| u.starts_with("GPU-")));
        assert!(label(&s.1, "modelName").is_some());
        assert!((0.0..=100.0).contains(&s.2));
    }
    for name in [
        "DCGM_FI_DEV_FB_USED",
        "DCGM_FI_DEV_FB_FREE",
        "DCGM_FI_DEV_POWER_USAGE",
        "DCGM_FI_DEV_GPU_TEMP",
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
    ] {
        assert_eq!(of(name).len(), 8, "{name}");
    }
    let cost = of("gpumeter_cost_total");
    let components: BTreeSet<&str> = cost
        .iter()
        .filter_map(|s| label(&s.1, "component"))
        .collect();
    assert_eq!(
        components,
        BTreeSet::from(["bandwidth", "compute", "extras", "storage"])
    );
    assert!(cost.iter().all(|s| label(&s.1, "currency") == Some("USD")));
    let compute = cost
        .iter()
        .find(|s| label(&s.1, "component") == Some("compute"))
        .unwrap();
    assert!(compute.2 > 0.0, "200 minutes of compute cost something");
    let burn = of("gpumeter_burn_rate_per_hour");
    assert!(
        burn.iter()
            .any(|s| label(&s.1, "component") == Some("total") && s.2 > 0.0)
    );
    assert_eq!(of("gpumeter_deadline_remaining_seconds")[0].2, 5400.0);
    let deadline_at = fixture_now() + SignedDuration::from_mins(90);
    #[expect(clippy::cast_precision_loss, reason = "seconds since 1970 fit in 2^52")]
    let deadline_s = deadline_at.as_second() as f64;
    assert_eq!(of("gpumeter_deadline_timestamp_seconds")[0].2, deadline_s);
    assert!(of("gpumeter_leftover_monthly_cost")[0].2 > 0.0);
    assert_eq!(of("gpumeter_watchdog_alive")[0].2, 1.0);
    assert_eq!(of("gpumeter_deadline_enforced")[0].2, 1.0);
    assert_eq!(of("gpumeter_watchdog_heartbeat_age_seconds")[0].2, 3.0);
    assert_eq!(of("gpumeter_idle_seconds")[0].2, 0.0, "training is busy");
    assert_eq!(of("gpumeter_instance_running")[0].2, 1.0);
}

#[test]
fn unsupported_metrics_are_left_out_never_zero() {
    let mut snapshot = demo_snapshot("training");
    let why = gpumeter::telemetry::Unavailable::Unsupported;
    snapshot.gpus[3].fan_pct = gpumeter::telemetry::Metric::Unavailable(why);
    snapshot.gpus[3].energy_j = gpumeter::telemetry::Metric::Unavailable(why);
    snapshot.gpus[3].uuid = gpumeter::telemetry::Metric::Unavailable(why);
    let parsed = check_grammar(&render(&snapshot));
    let for_gpu3 = |name: &str| {
        parsed
            .samples
            .iter()
            .filter(|s| s.0 == name && label(&s.1, "gpu") == Some("3"))
            .count()
    };
    assert_eq!(for_gpu3("DCGM_FI_DEV_FAN_SPEED"), 0);
    assert_eq!(for_gpu3("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"), 0);
    assert_eq!(for_gpu3("DCGM_FI_DEV_GPU_UTIL"), 1);
    let util3 = parsed
        .samples
        .iter()
        .find(|s| s.0 == "DCGM_FI_DEV_GPU_UTIL" && label(&s.1, "gpu") == Some("3"))
        .unwrap();
    assert_eq!(label(&util3.1, "UUID"), None, "no made-up UUID");

    // No GPU, no cloud, no guard: only what is known.
    let bare = Snapshot {
        now: Some(Timestamp::UNIX_EPOCH),
        ..Snapshot::default()
    };
    assert_eq!(render(&bare), "");
}

fn unknown_lines(snapshot: &Snapshot) -> Vec<(String, f64)> {
    check_grammar(&render(snapshot))
        .samples
        .into_iter()
        .filter(|s| s.0 == "gpumeter_cost_unknown_lines")
        .map(|s| (label(&s.1, "total").unwrap_or("").to_string(), s.2))
        .collect()
}

/// The demo's load balancer has no price: the totals it is left out of say so, by count,
/// instead of passing for whole.
#[test]
fn an_unpriced_line_is_counted_beside_the_totals_it_is_left_out_of() {
    let text = render(&demo_snapshot("training"));
    assert!(
        text.contains("# TYPE gpumeter_cost_unknown_lines gauge"),
        "{text}"
    );
    assert!(text.contains("# HELP gpumeter_cost_unknown_lines Lines left out"));
    let lines = unknown_lines(&demo_snapshot("training"));
    assert_eq!(
        lines,
        vec![
            ("accrued".to_string(), 1.0),
            ("leftover_monthly".to_string(), 1.0)
        ]
    );

    let mut pricing = demo_pricing().unwrap();
    pricing.sheet.extras.load_balancer_per_hour = Some(rust_decimal::Decimal::ONE);
    let whole = unknown_lines(&demo_snapshot_priced("training", Some(pricing)));
    assert_eq!(
        whole,
        vec![
            ("accrued".to_string(), 0.0),
            ("leftover_monthly".to_string(), 0.0)
        ],
        "a whole total says 0 unknown, not nothing"
    );
}

#[test]
fn an_idle_machine_counts_its_idle_seconds() {
    let parsed = check_grammar(&render(&demo_snapshot("idle")));
    let idle = parsed
        .samples
        .iter()
        .find(|s| s.0 == "gpumeter_idle_seconds")
        .unwrap();
    assert!(
        idle.2 > 500.0,
        "idle for most of the ten minutes: {}",
        idle.2
    );
}

#[test]
fn gpu_memory_climbing_to_full_is_a_gauge_per_gpu() {
    let now = fixture_now();
    let snapshot_at = |scenario: &str, minutes: u64| {
        let target = Target {
            instance_id: "i-demo".into(),
            provider: "demo".into(),
        };
        let mut collector = Collector::new(target, Spend::new(None, None, TimeZone::UTC), None);
        let sim = demo_simulator(scenario);
        let end = minutes * 60;
        for s in end - 150..=end {
            let at = Duration::from_secs(s);
            let time = now - SignedDuration::from_secs(i64::try_from(end - s).unwrap());
            collector.feed(Input::Telemetry(Telemetry::Gpu(Stamped {
                at,
                time,
                value: Ok(sim.gpus_at(at)),
            })));
        }
        check_grammar(&render(&collector.snapshot(now)))
    };
    let full = |parsed: &Parsed| -> Vec<f64> {
        parsed
            .samples
            .iter()
            .filter(|s| s.0 == "gpumeter_gpu_memory_full")
            .map(|s| s.2)
            .collect()
    };
    // The leak has climbed past 95 % of the card by 86 minutes, and goes on climbing.
    let leaking = full(&snapshot_at("memory-leak", 86));
    assert!(
        !leaking.is_empty() && leaking.iter().all(|v| *v == 1.0),
        "{leaking:?}"
    );
    // Half an hour in it is at about half: nothing to say.
    let early = full(&snapshot_at("memory-leak", 30));
    assert!(
        !early.is_empty() && early.iter().all(|v| *v == 0.0),
        "{early:?}"
    );
    let training = full(&snapshot_at("training", 86));
    assert!(training.iter().all(|v| *v == 0.0), "{training:?}");
}

/// Every metric name the example alert rules and scrape config use is one gpumeter writes.
#[test]
fn the_example_alert_rules_use_only_exposed_metrics() {
    let rules = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/deploy/prometheus/gpumeter-alerts.yml"
    ))
    .unwrap();
    let mut names = BTreeSet::new();
    for snapshot in [demo_snapshot("training"), demo_snapshot("idle")] {
        for (name, ..) in check_grammar(&render(&snapshot)).samples {
            names.insert(name);
        }
    }
    let used: BTreeSet<String> = rules
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("gpumeter_") || w.starts_with("DCGM_FI_"))
        .map(str::to_string)
        .collect();
    assert!(used.len() >= 4, "{used:?}");
    for name in &used {
        assert!(
            names.contains(name),
            "the rules use `{name}`, which is never exposed"
        );
    }
    for alert in [
        "GpuIdleBurningMoney",
        "DeadlinePassed",
        "LeftoversAfterRelease",
    ] {
        assert!(rules.contains(&format!("alert: {alert}")), "{alert}");
    }
}

#[test]
fn a_failing_gpu_read_leaves_the_gpu_timestamp_where_the_last_reading_was() {
    let now = fixture_now();
    let target = Target {
        instance_id: "i-1".into(),
        provider: "demo".into(),
    };
    let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    let mut collector = Collector::new(target, spend, None);
    let sim = demo_simulator("training");
    let read_at = now - SignedDuration::from_mins(5);
    collector.feed(Input::Telemetry(Telemetry::Gpu(Stamped {
        at: Duration::ZERO,
        time: read_at,
        value: Ok(sim.gpus_at(Duration::ZERO)),
    })));
    for s in 1..=300 {
        collector.feed(Input::Telemetry(Telemetry::Gpu(Stamped {
            at: Duration::from_secs(s),
            time: read_at + SignedDuration::from_secs(i64::try_from(s).unwrap()),
            value: Err(GpuUnavailable {
                kind: GpuUnavailableKind::Other,
                detail: "GPU is lost".into(),
            }),
        })));
    }
    let text = render(&collector.snapshot(now));
    let scrape = Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
    let gpu_time = scrape
        .samples
        .iter()
        .find(|s| {
            s.metric == "gpumeter_sample_timestamp_seconds" && s.labels.get("source") == Some("gpu")
        })
        .map(|s| s.value.clone());
    #[expect(
        clippy::cast_precision_loss,
        reason = "milliseconds since 1970 fit in 2^52"
    )]
    let expected = read_at.as_millisecond() as f64 / 1000.0;
    assert!(
        matches!(gpu_time, Some(Value::Gauge(v)) if v == expected),
        "{gpu_time:?}"
    );
}

/// The deadline's enforcement as a scrape shows it, with the guard row given and no provider
/// holding the deadline.
fn enforced(guard: Option<gpumeter::guard::GuardState>) -> Option<f64> {
    let now = fixture_now();
    let target = Target {
        instance_id: "i-1".into(),
        provider: "demo".into(),
    };
    let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    let mut collector = Collector::new(target, spend, Some(now + SignedDuration::from_hours(8)));
    let state = DemoState::fresh(now);
    collector.feed(Input::Inventory(
        Ok(Inventory {
            instance: Some(state.instance),
            resources: state.resources,
            deadline: None,
        }),
        now,
    ));
    collector.feed(Input::Guard(guard));
    let text = render(&collector.snapshot(now));
    let parsed = check_grammar(&text);
    parsed
        .samples
        .iter()
        .find(|s| s.0 == "gpumeter_deadline_enforced")
        .map(|s| s.2)
}

#[test]
fn the_deadline_is_enforced_only_while_its_watchdog_holds_its_lock() {
    let now = fixture_now();
    let row = |held: Option<bool>| {
        let mut row = guard_state(None, 1, "watchdog", now);
        if let Some(w) = row.watchdog.as_mut() {
            w.lock_held = held;
        }
        Some(row)
    };
    assert_eq!(enforced(row(Some(true))), Some(1.0));
    assert_eq!(
        enforced(row(Some(false))),
        Some(0.0),
        "a fresh heartbeat, a free lock"
    );
    assert_eq!(enforced(None), Some(0.0), "no watchdog ever ran");
    let old = guard_state(None, 1, "watchdog", now - SignedDuration::from_mins(10));
    assert_eq!(
        enforced(Some(old)),
        Some(0.0),
        "a heartbeat ten minutes old"
    );
}

/// Between full inventories `serve` only looks at the instance: a look that finds it unchanged
/// says the cloud answered (up again after a failed read, its time the look's) and keeps the
/// last inventory's cost.
#[test]
fn a_look_that_finds_nothing_changed_marks_the_cloud_up_and_keeps_the_cost() {
    let now = fixture_now();
    let target = Target {
        instance_id: "i-1".into(),
        provider: "demo".into(),
    };
    let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    let mut collector = Collector::new(target, spend, None);
    let state = DemoState::fresh(now - SignedDuration::from_hours(2));
    let read = Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: None,
    };
    collector.feed(Input::Inventory(
        Ok(read),
        now - SignedDuration::from_mins(20),
    ));
    collector.feed(Input::Inventory(
        Err(gpumeter::serve::NoInventory::Timeout),
        now - SignedDuration::from_mins(10),
    ));
    let before = scrape_of(&mut collector, now);
    assert_eq!(gauge(&before, "gpumeter_cloud_up", None), Some(0.0));
    collector.feed(Input::Unchanged(now));
    let after = scrape_of(&mut collector, now);
    assert_eq!(gauge(&after, "gpumeter_cloud_up", None), Some(1.0));
    #[expect(
        clippy::cast_precision_loss,
        reason = "milliseconds since 1970 fit in 2^52"
    )]
    let looked = now.as_millisecond() as f64 / 1000.0;
    assert_eq!(
        gauge(
            &after,
            "gpumeter_sample_timestamp_seconds",
            Some(("source", "cloud"))
        ),
        Some(looked)
    );
    let cost = |s: &Scrape| {
        s.samples
            .iter()
            .filter(|x| x.metric.starts_with("gpumeter_cost"))
            .map(|x| {
                let part = (x.labels.get("component"), x.labels.get("total"));
                format!("{} {part:?} {:?}", x.metric, x.value)
            })
            .collect::<Vec<_>>()
    };
    assert!(!cost(&after).is_empty(), "the inventory's cost is shown");
    assert_eq!(cost(&before), cost(&after));
}

fn scrape_of(collector: &mut Collector, now: jiff::Timestamp) -> Scrape {
    let text = render(&collector.snapshot(now));
    Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap()
}

/// The value of the first `metric` sample (with the label `(name, value)` where given).
fn gauge(scrape: &Scrape, metric: &str, label: Option<(&str, &str)>) -> Option<f64> {
    scrape
        .samples
        .iter()
        .find(|s| s.metric == metric && label.is_none_or(|(k, v)| s.labels.get(k) == Some(v)))
        .and_then(|s| match s.value {
            Value::Gauge(v) => Some(v),
            _ => None,
        })
}

/// A prepaid balance read with the inventory: the cash as read, and the seconds it lasts at
/// this instance's burn from when it was read, labelled as this instance's burn alone.
#[test]
fn a_prepaid_balance_is_exposed_with_the_seconds_it_lasts() {
    let now = fixture_now();
    let target = Target {
        instance_id: "i-1".into(),
        provider: "demo".into(),
    };
    let spend = Spend::new(demo_pricing(), None, TimeZone::UTC);
    let mut collector = Collector::new(target, spend, None);
    let state = DemoState::fresh(now);
    let read = Inventory {
        instance: Some(state.instance),
        resources: state.resources,
        deadline: None,
    };
    let without = scrape_of(&mut collector, now);
    assert_eq!(gauge(&without, "gpumeter_balance", None), None);
    let read_at = now - SignedDuration::from_mins(10);
    collector.feed(Input::Inventory(Ok(read), read_at));
    let cash = gpumeter::money::Money::new(
        rust_decimal::Decimal::from(100),
        gpumeter::money::Currency::USD,
    );
    let balance = gpumeter::provider::Balance {
        available: cash,
        vouchers: None,
    };
    collector.feed(Input::Balance(balance, read_at));
    let scrape = scrape_of(&mut collector, now);
    assert_eq!(
        gauge(&scrape, "gpumeter_balance", Some(("currency", "USD"))),
        Some(100.0)
    );
    let burn = gauge(
        &scrape,
        "gpumeter_burn_rate_per_hour",
        Some(("component", "total")),
    )
    .unwrap();
    let left = gauge(
        &scrape,
        "gpumeter_balance_seconds_left",
        Some(("burn", "this_instance")),
    )
    .unwrap();
    // 100 at the burn from the read, less the ten minutes since; rounded down to the second.
    let expected = 100.0 / burn * 3600.0 - 600.0;
    assert!((left - expected).abs() <= 1.0, "{left} against {expected}");

    // The account listed: this instance and a second one of the same SKU, running. The
    // balance now runs out at twice the compute, the account's burn.
    let mut this = DemoState::fresh(now).instance;
    this.id = "i-1".into();
    let mut other = this.clone();
    other.id = "i-2".into();
    collector.feed(Input::Account(vec![this, other]));
    let scrape = scrape_of(&mut collector, now);
    let account = gauge(
        &scrape,
        "gpumeter_balance_seconds_left",
        Some(("burn", "account")),
    )
    .expect("the account's burn");
    assert!(account < left * 0.9, "{account} against {left}");
}

#[test]
fn egress_is_counted_and_priced_by_destination() {
    let of = |snapshot: &Snapshot, name: &str, class: &str| -> f64 {
        let text = render(snapshot);
        let parsed = check_grammar(&text);
        parsed
            .samples
            .iter()
            .find(|s| s.0 == name && label(&s.1, "class") == Some(class))
            .unwrap_or_else(|| panic!("{name}{{class={class}}} in\n{text}"))
            .2
    };
    // No free allowance, so that every internet byte costs.
    let pricing = demo_pricing().map(|mut p| {
        p.sheet.network.free_egress_per_month = rust_decimal::Decimal::ZERO;
        p
    });
    let all_internet = demo_snapshot_split("egress-burst", pricing.clone(), 0);
    let split = demo_snapshot_split("egress-burst", pricing, 75);
    let sent = of(&all_internet, "gpumeter_egress_bytes_total", "internet");
    assert!(sent > 0.0, "the burst sent something");
    assert_eq!(
        of(&all_internet, "gpumeter_egress_bytes_total", "intranet"),
        0.0
    );
    // Three quarters went to the intranet (whole bytes, floored per sample).
    let intranet = of(&split, "gpumeter_egress_bytes_total", "intranet");
    let internet = of(&split, "gpumeter_egress_bytes_total", "internet");
    assert_eq!(intranet + internet, sent);
    assert!(
        (intranet / sent - 0.75).abs() < 0.01,
        "{intranet} of {sent}"
    );
    // The intranet is free on the demo sheet; the internet costs what it did, a quarter of it.
    assert_eq!(of(&split, "gpumeter_egress_cost_total", "intranet"), 0.0);
    let cost_all = of(&all_internet, "gpumeter_egress_cost_total", "internet");
    let cost_split = of(&split, "gpumeter_egress_cost_total", "internet");
    assert!(cost_all > 0.0);
    assert!(
        cost_split < cost_all / 3.0,
        "{cost_split} against {cost_all}"
    );
}

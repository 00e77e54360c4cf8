//! The independent reference: each serve's own `/metrics`, read by the test and added up here,
//! and what each alert rule's expression should give, worked out from those readings in Rust
//! rather than in PromQL.

use std::collections::BTreeMap;

use prometheus_parse::{Sample, Scrape, Value};

use super::http::{self, Series};
use super::{Lab, Member};

/// One serve's exposition, as read by the test.
pub struct Exposed {
    pub instance_id: String,
    pub account: String,
    samples: Vec<Sample>,
    /// When it was read, in seconds since 1970.
    read_at: f64,
}

impl Exposed {
    /// The value of `metric`'s one series whose labels include `labels`.
    pub fn value(&self, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
        let mut found = self.samples.iter().filter(|s| {
            s.metric == metric && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v))
        });
        let sample = found.next()?;
        assert!(
            found.next().is_none(),
            "{metric} {labels:?}: several series"
        );
        match sample.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => Some(v),
            _ => panic!("{metric}: not a plain sample"),
        }
    }

    /// The burn rate's total component.
    pub fn burn(&self) -> Option<f64> {
        self.value("gpumeter_burn_rate_per_hour", &[("component", "total")])
    }

    /// The instance's currency, from its burn rate.
    pub fn currency(&self) -> String {
        self.samples
            .iter()
            .find(|s| s.metric == "gpumeter_burn_rate_per_hour")
            .and_then(|s| s.labels.get("currency"))
            .unwrap_or_else(|| panic!("{}: no burn rate", self.instance_id))
            .to_string()
    }

    fn running(&self) -> bool {
        self.value("gpumeter_instance_running", &[]) == Some(1.0)
    }
}

/// Reads `member`'s `/metrics`.
pub fn read(member: &Member) -> Result<Exposed, String> {
    let (status, body) = http::get(&member.addr, "/metrics")?;
    if status != 200 {
        return Err(format!("{}: {status} {body}", member.addr));
    }
    let scrape = Scrape::parse(body.lines().map(|l| Ok(l.to_string())))
        .map_err(|e| format!("{}: {e}", member.addr))?;
    let exposed = Exposed {
        instance_id: member.spec.instance_id.to_string(),
        account: member.spec.account.to_string(),
        samples: scrape.samples,
        read_at: now_s(),
    };
    match exposed.value("gpumeter_instance_info", &[]) {
        Some(_) if exposed.burn().is_some() => Ok(exposed),
        _ => Err(format!("{}: no inventory or cost yet", member.addr)),
    }
}

/// Every member's exposition, once each has its inventory and cost.
pub fn read_all(lab: &Lab) -> Vec<Exposed> {
    lab.members
        .iter()
        .map(|m| lab.wait(&format!("{}'s /metrics", m.addr), || read(m)))
        .collect()
}

/// Sums `value` of every instance by the key `by` gives it: the reference for a PromQL `sum by`.
pub fn sum_by(
    exposed: &[Exposed],
    by: impl Fn(&Exposed) -> String,
    value: impl Fn(&Exposed) -> Option<f64>,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for e in exposed {
        if let Some(v) = value(e) {
            *out.entry(by(e)).or_insert(0.0) += v;
        }
    }
    out
}

/// What a rule's expression may give for one instance: a value in `(above, at_most]`, or
/// exactly `at_most` when `above` is `None`. Bounds, because the test reads `/metrics` after
/// Prometheus scraped it: a growing value (idle time, time past a deadline) can only have grown.
#[derive(Debug, Clone, Copy)]
pub struct Expect {
    pub above: Option<f64>,
    pub at_most: f64,
}

impl Expect {
    pub fn holds(self, value: f64) -> bool {
        match self.above {
            Some(above) => value > above && value <= self.at_most,
            None => close(value, self.at_most),
        }
    }
}

/// What the alert `name`'s expression gives, by instance id, from the serves' own readings
/// (read after the query). `idle_after` is the idle threshold of the rules loaded.
pub fn alert_expression(
    name: &str,
    exposed: &[Exposed],
    idle_after: f64,
) -> BTreeMap<String, Expect> {
    let mut out = BTreeMap::new();
    for e in exposed {
        let id = e.instance_id.clone();
        let expect = match name {
            "GpuIdleBurningMoney" => e
                .value("gpumeter_idle_seconds", &[])
                .filter(|idle| *idle > idle_after && e.burn().is_some_and(|b| b > 0.0))
                .map(|idle| Expect {
                    above: Some(idle_after),
                    at_most: idle,
                }),
            "DeadlinePassed" => e
                .value("gpumeter_deadline_remaining_seconds", &[])
                .map(|left| -left)
                .filter(|past| *past > 0.0 && e.running())
                .map(|past| Expect {
                    above: Some(0.0),
                    at_most: past,
                }),
            "LeftoversAfterRelease" => e
                .value("gpumeter_leftover_monthly_cost", &[])
                .filter(|cost| *cost > 0.0 && !e.running())
                .map(|cost| Expect {
                    above: None,
                    at_most: cost,
                }),
            "WatchdogDown" => e
                .value("gpumeter_watchdog_alive", &[])
                .filter(|alive| *alive == 0.0 && e.running())
                .map(|alive| Expect {
                    above: None,
                    at_most: alive,
                }),
            "TelemetryStale" => e
                .value("gpumeter_sample_timestamp_seconds", &[("source", "gpu")])
                .map(|at| e.read_at - at)
                .filter(|age| *age > 120.0)
                .map(|age| Expect {
                    above: Some(120.0),
                    at_most: age,
                }),
            other => panic!("no reference for the alert {other}: add one here"),
        };
        if let Some(expect) = expect {
            out.insert(id, expect);
        }
    }
    out
}

/// A query's result as `labels joined by "/"` -> value.
pub fn keyed(series: &[Series], by: &[&str]) -> BTreeMap<String, f64> {
    series
        .iter()
        .map(|s| {
            let key: Vec<&str> = by.iter().map(|l| s.label(l)).collect();
            (key.join("/"), s.value)
        })
        .collect()
}

/// `Ok` when Prometheus's answer `got` has the reference's keys and (up to rounding) values,
/// and there is something to compare.
pub fn same(
    what: &str,
    got: &BTreeMap<String, f64>,
    want: &BTreeMap<String, f64>,
) -> Result<(), String> {
    let equal = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|((gk, gv), (wk, wv))| gk == wk && close(*gv, *wv));
    if equal && !want.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{what}: Prometheus says {got:?}, the serves {want:?}"
        ))
    }
}

/// Equal up to float rounding: Prometheus and the test may add the same numbers in another
/// order.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn now_s() -> f64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    now.as_secs_f64()
}

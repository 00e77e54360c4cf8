//! Asking an instance's `gpumeter serve` whether it reports: its idle time and its watchdog.

use std::time::Duration;

use crate::fleet::Reporting;
use crate::provider::http::{Http, HttpPolicy};

/// A `gpumeter serve` endpoint that takes longer than this counts as not reporting.
const METRICS_TIMEOUT: Duration = Duration::from_secs(3);

/// Asks an instance's `gpumeter serve` whether it is idle and whether its watchdog lives.
pub async fn scrape(base: &str) -> Reporting {
    let policy = HttpPolicy {
        timeout: METRICS_TIMEOUT,
        connect_timeout: METRICS_TIMEOUT,
        retries: 0,
        throttled_retries: 0,
        ..HttpPolicy::default()
    };
    let Ok(http) = Http::new(policy) else {
        return Reporting::default();
    };
    let url = format!("{}/metrics", base.trim_end_matches('/'));
    let Ok(response) = http.client().get(url).send().await else {
        return Reporting::default();
    };
    let Ok(text) = response.text().await else {
        return Reporting::default();
    };
    reporting_from(&text)
}

/// The two series the fleet needs, from gpumeter's own exposition.
fn reporting_from(text: &str) -> Reporting {
    let value = |name: &str| {
        text.lines()
            .find(|l| {
                l.strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
            })
            .and_then(|l| l.rsplit_once(' '))
            .and_then(|(_, v)| v.parse::<f64>().ok())
    };
    Reporting {
        heartbeat: value("gpumeter_watchdog_alive").map(|v| v > 0.0),
        idle_s: value("gpumeter_idle_seconds"),
        here: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reporting_is_read_from_the_exposition() {
        let text = "# TYPE gpumeter_idle_seconds gauge\n\
                    gpumeter_idle_seconds{instance_id=\"i-1\",provider=\"aws\"} 1900\n\
                    gpumeter_watchdog_alive{instance_id=\"i-1\",provider=\"aws\"} 0\n";
        let r = reporting_from(text);
        assert_eq!(r.idle_s, Some(1900.0));
        assert_eq!(r.heartbeat, Some(false));
        assert_eq!(reporting_from("garbage"), Reporting::default());
    }
}

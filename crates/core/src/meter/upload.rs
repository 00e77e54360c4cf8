//! A large transfer to the internet while it happens: how much it has sent and cost, and the
//! provider's intranet route that would carry it for nothing. The first seed's costliest story
//! is a 500 GB upload over the public network that object storage's intranet would have carried
//! free; said while it runs, the user can stop it and switch endpoints.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::Usage;
use crate::pricing::Sheet;

/// When internet egress counts as an upload worth warning about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadRule {
    /// The window the threshold is measured over, and the quiet gap that ends an upload.
    pub window_seconds: i64,
    /// Internet bytes within the window that make it an upload.
    pub threshold_bytes: u64,
}

impl Default for UploadRule {
    /// 1 GiB in 10 minutes: 1.7 MB/s sustained, far above an ssh session or a metrics push,
    /// and at 0.09 USD/GiB or 0.8 CNY/GB already worth a look.
    fn default() -> Self {
        UploadRule {
            window_seconds: 600,
            threshold_bytes: 1 << 30,
        }
    }
}

/// An upload to the internet under way at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicUpload {
    /// When it began: the first internet bytes after a quiet gap as long as the window.
    pub since: Timestamp,
    /// Internet bytes sent since then.
    pub bytes: u64,
    /// What they have cost at the sheet's egress price, after the monthly allowance.
    pub cost: Decimal,
}

/// The upload under way at `at`, if the internet egress of the last window passes the rule's
/// threshold; `None` otherwise.
pub fn public_upload(
    sheet: &Sheet,
    usage: &Usage,
    at: Timestamp,
    rule: &UploadRule,
) -> Option<PublicUpload> {
    let internet: Vec<(Timestamp, u64)> = usage
        .traffic
        .iter()
        .filter(|t| t.at <= at)
        .map(|t| (t.at, t.split.internet_of(t.egress_bytes)))
        .filter(|&(_, bytes)| bytes > 0)
        .collect();
    let window_start = at.as_second() - rule.window_seconds;
    let window_bytes: u64 = internet
        .iter()
        .filter(|(t, _)| t.as_second() > window_start)
        .map(|(_, b)| *b)
        .sum();
    if window_bytes < rule.threshold_bytes {
        return None;
    }
    // Back from the latest sample while no gap is as long as the window.
    let mut since = internet.last()?.0;
    let mut bytes = 0u64;
    for &(t, b) in internet.iter().rev() {
        if since.as_second() - t.as_second() >= rule.window_seconds {
            break;
        }
        since = t;
        bytes = bytes.saturating_add(b);
    }
    let before = Timestamp::from_second(since.as_second() - 1).ok()?;
    let cost = super::internet_egress_cost(sheet, usage, at)
        - super::internet_egress_cost(sheet, usage, before);
    Some(PublicUpload { since, bytes, cost })
}

#[cfg(test)]
mod tests {
    use rust_decimal::dec;

    use super::*;
    use crate::meter::fixture::example_sheet;
    use crate::meter::{ComputeTerms, InstanceState, Lifecycle, Traffic};
    use crate::traffic::EgressSplit;

    fn ts(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    fn minute(at: i64, internet_gib: u64, intranet_gib: u64) -> Traffic {
        let gib = 1u64 << 30;
        Traffic {
            at: ts(at),
            egress_bytes: (internet_gib + intranet_gib) * gib,
            ingress_bytes: 0,
            split: EgressSplit {
                intranet: intranet_gib * gib,
                cross_region: 0,
            },
        }
    }

    fn usage(traffic: Vec<Traffic>) -> Usage {
        let mut u = Usage::new(
            Lifecycle::new(ts(0), InstanceState::Running),
            ComputeTerms::Hourly { per_hour: dec!(1) },
        );
        u.traffic = traffic;
        u
    }

    #[test]
    fn an_upload_is_named_with_what_it_sent_and_cost_since_it_began() {
        let mut sheet = example_sheet();
        sheet.network.free_egress_per_month = Decimal::ZERO;
        let rule = UploadRule::default();
        // An earlier upload, a quiet hour, then 2 GiB a minute for ten minutes.
        let mut traffic = vec![minute(60, 5, 0)];
        traffic.extend((0..10).map(|m| minute(3600 + m * 60, 2, 0)));
        let u = usage(traffic);
        let found = public_upload(&sheet, &u, ts(3600 + 9 * 60 + 30), &rule).unwrap();
        assert_eq!(found.since, ts(3600));
        assert_eq!(found.bytes, 20 << 30);
        // 20 GiB at 0.09: the earlier 5 GiB are not this upload's.
        assert_eq!(found.cost, dec!(1.80));
    }

    #[test]
    fn the_same_bytes_through_the_intranet_are_no_upload() {
        let sheet = example_sheet();
        let rule = UploadRule::default();
        let u = usage((0..10).map(|m| minute(m * 60, 0, 2)).collect());
        assert_eq!(public_upload(&sheet, &u, ts(570), &rule), None);
        // Below the threshold: an ssh session, a metrics push.
        let u = usage(vec![
            minute(60, 0, 0),
            Traffic {
                egress_bytes: 1 << 20,
                ..minute(120, 0, 0)
            },
        ]);
        assert_eq!(public_upload(&sheet, &u, ts(130), &rule), None);
        // Long over: the window has passed.
        let u = usage(vec![minute(60, 50, 0)]);
        assert_eq!(public_upload(&sheet, &u, ts(60 + 600), &rule), None);
        assert!(public_upload(&sheet, &u, ts(61), &rule).is_some());
    }
}

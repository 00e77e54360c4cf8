//! The plan's bandwidth (`verify --bandwidth URL`): the best second of a download against the
//! Mbps promised.
//!
//! A shaped link delivers close to its cap (TCP over it reaches nine tenths and more), so a
//! best second under half the promise is the plan, not noise: fail. Between half and
//! [`WARN_BELOW`] the far server or the route may be what is slow: warn.

use rust_decimal::prelude::ToPrimitive as _;

use super::report::{Check, Reading, Verdict, VerifyInput, What};

/// Below this share of the promised Mbps: fail.
pub const FAIL_BELOW: f64 = 0.5;
/// Below this share (and not failing): warn.
pub const WARN_BELOW: f64 = 0.8;

const CODE: &str = "network_bandwidth";

pub(super) fn machine(input: &VerifyInput<'_>) -> Option<Check> {
    let net = input.network?;
    let d = &net.download;
    let what: What = || crate::t!("verify-what-download");
    let promised = net
        .promised_mbps
        .and_then(|p| p.to_f64())
        .filter(|p| *p > 0.0);
    let rated = net
        .promised_mbps
        .and_then(|p| p.to_f64())
        .map(|p| Reading::number(p, "Mbps"));
    let with_rated = |c: Check| match &rated {
        Some(r) => c.rated(r.clone()),
        None => c,
    };
    if let Some(e) = &d.error
        && d.peak_mbps.is_none()
    {
        return Some(with_rated(Check::unread(CODE, None, e, what)));
    }
    let Some(peak) = d.peak_mbps else {
        let (seconds, bytes) = (format!("{:.2}", d.seconds), d.bytes.to_string());
        let why = move || {
            crate::t!(
                "verify-net-too-short",
                seconds = seconds.as_str(),
                bytes = bytes.as_str()
            )
        };
        return Some(with_rated(Check::unread_says(CODE, None, why, what)));
    };
    let measured = Reading::number(peak, "Mbps");
    let Some(promised) = promised else {
        let why = || crate::t!("verify-net-no-promise").into_owned();
        return Some(Check::unread_says(CODE, None, why, what).measured(measured));
    };
    let ratio = peak / promised;
    let verdict = if ratio < FAIL_BELOW {
        Verdict::Fail
    } else if ratio < WARN_BELOW {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    let (peak_s, promised_s, pct) = (
        format!("{peak:.1}"),
        net.promised_mbps
            .map(|p| p.normalize().to_string())
            .unwrap_or_default(),
        format!("{:.0}", ratio * 100.0),
    );
    let fail_pct = format!("{:.0}", FAIL_BELOW * 100.0);
    let check = Check::says(CODE, None, verdict, move || {
        let (peak, promised, pct) = (peak_s.as_str(), promised_s.as_str(), pct.as_str());
        match verdict {
            Verdict::Fail => crate::t!(
                "verify-net-fail",
                peak = peak,
                promised = promised,
                pct = pct,
                bar = fail_pct.as_str()
            ),
            Verdict::Warn => {
                crate::t!(
                    "verify-net-warn",
                    peak = peak,
                    promised = promised,
                    pct = pct
                )
            }
            Verdict::Pass | Verdict::Incomplete => {
                crate::t!(
                    "verify-net-pass",
                    peak = peak,
                    promised = promised,
                    pct = pct
                )
            }
        }
    });
    Some(with_rated(check.measured(measured)).with_ratio())
}

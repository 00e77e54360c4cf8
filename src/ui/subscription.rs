//! The words for a subscription in one place: `status`'s line and the cockpit's cost-panel cell
//! say the same facts, the line in full and the cell short.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::text::short_duration;
use crate::subscription::{EndSource, Plan, RefundTo, Standing};
use crate::t;

/// "monthly plan, ends 2026-12-01 08:00 CST (Asia/Shanghai) (in 20d0h), does not renew;
/// leaving now returns 666.67 CNY as vouchers (end date from the config)".
pub fn line(plan: Option<Plan>, s: &Standing, now: Timestamp, tz: &TimeZone) -> String {
    let at = gpumeter_core::zone::deadline_label(s.ends, now, tz);
    let when = if s.ended() {
        t!("sub-ended", at = at)
    } else {
        t!("sub-ends", at = at, left = short_duration(s.remaining))
    };
    let renews = match s.renews {
        Some(true) => t!("sub-renews-yes"),
        Some(false) => t!("sub-renews-no"),
        None => t!("sub-renews-unknown"),
    };
    let source = match s.source {
        EndSource::Provider => t!("sub-source-provider"),
        EndSource::Config => t!("sub-source-config"),
    };
    t!(
        "sub-line",
        plan = plan_name(plan),
        when = when,
        renews = renews,
        returns = returns(s),
        source = source
    )
}

fn plan_name(plan: Option<Plan>) -> std::borrow::Cow<'static, str> {
    match plan {
        Some(Plan::Day) => t!("sub-plan-day"),
        Some(Plan::Week) => t!("sub-plan-week"),
        Some(Plan::Month) => t!("sub-plan-month"),
        Some(Plan::Year) => t!("sub-plan-year"),
        None => t!("sub-plan-unstated"),
    }
}

/// What leaving now returns, said in full: an amount and where it goes, no refund by rule, or
/// why it is unknown.
fn returns(s: &Standing) -> String {
    if s.no_refund() {
        return t!("sub-no-refund").into_owned();
    }
    match &s.returns {
        Ok(money) => {
            let amount = money.to_string();
            match s.refund_to {
                Some(RefundTo::Cash) => t!("sub-returns-cash", amount = amount),
                Some(RefundTo::Vouchers) => t!("sub-returns-vouchers", amount = amount),
                None => t!("sub-returns", amount = amount),
            }
        }
        Err(why) => t!("sub-returns-unknown", why = why.shown()),
    }
}

/// "20d0h left", or "ended".
pub fn left(s: &Standing) -> String {
    if s.ended() {
        t!("sub-short-ended").into_owned()
    } else {
        t!("sub-left", left = short_duration(s.remaining))
    }
}

/// The cockpit's cell: "20d0h left · no renewal · leave now 666.67 CNY vouchers".
pub fn short(s: &Standing) -> String {
    let mut parts = vec![left(s)];
    match s.renews {
        Some(true) => parts.push(t!("sub-short-renews").into_owned()),
        Some(false) => parts.push(t!("sub-short-no-renewal").into_owned()),
        None => {}
    }
    parts.push(if s.no_refund() {
        t!("sub-short-no-refund").into_owned()
    } else {
        match &s.returns {
            Ok(money) => {
                let amount = money.to_string();
                match s.refund_to {
                    Some(RefundTo::Cash) => t!("sub-short-returns-cash", amount = amount),
                    Some(RefundTo::Vouchers) => t!("sub-short-returns-vouchers", amount = amount),
                    None => t!("sub-short-returns", amount = amount),
                }
            }
            Err(_) => t!("sub-short-unknown").into_owned(),
        }
    });
    parts.join(" · ")
}

/// Under three days left and nothing renews it: the cockpit warns.
pub fn ends_soon(s: &Standing) -> bool {
    s.renews != Some(true) && s.remaining < jiff::SignedDuration::from_hours(72)
}

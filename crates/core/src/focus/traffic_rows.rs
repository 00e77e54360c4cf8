//! An hour's bandwidth line split by destination, once the meter measured any of it going
//! elsewhere than the internet: one row per class that sent bytes or cost anything, each with
//! its gigabytes and cost, together the hour's bandwidth line to the nano-unit. The internet's
//! row keeps the rest of the line (ingress, a fixed-bandwidth plan), so nothing is lost.

use jiff::Timestamp;
use rust_decimal::Decimal;

use super::columns::Column;
use super::format::{decimal, json_object};
use super::rows::{BYTES_PER_GB, FocusHour, FocusRow, FocusSession, Line, mode_label, row};
use crate::traffic::TrafficClass;

/// The hour's bandwidth rows by class, or `None` when all of it went to the internet (the
/// single bandwidth row says it all).
pub(super) fn rows(
    session: &FocusSession,
    hour: &FocusHour,
    cost: Decimal,
    period: (Timestamp, Timestamp),
) -> Option<Vec<FocusRow>> {
    let [intranet, cross_region] = hour.split_bytes.map(|b| b.max(0));
    if intranet == 0 && cross_region == 0 {
        return None;
    }
    let internet = (hour.egress_bytes - intranet - cross_region).max(0);
    let [intranet_cost, cross_cost] = hour.split_cost;
    let classes = [
        (
            TrafficClass::Internet,
            internet,
            cost - intranet_cost - cross_cost,
        ),
        (TrafficClass::Intranet, intranet, intranet_cost),
        (TrafficClass::CrossRegion, cross_region, cross_cost),
    ];
    let mut out = Vec::new();
    for (class, bytes, cost) in classes {
        if bytes == 0 && cost.is_zero() {
            continue;
        }
        let mut r = row(session, hour, Line::Bandwidth, cost, period);
        // A class that sent nothing yet cost something (ingress, a fixed plan): no quantity.
        let gb = (bytes > 0).then(|| decimal(Decimal::from(bytes) / Decimal::from(BYTES_PER_GB)));
        for (q, u) in [
            (Column::PricingQuantity, Column::PricingUnit),
            (Column::ConsumedQuantity, Column::ConsumedUnit),
        ] {
            r.set_opt(u, gb.as_ref().map(|_| "GB".to_string()));
            r.set_opt(q, gb.clone());
        }
        r.set(
            Column::ChargeDescription,
            format!(
                "{} bandwidth to the {} of {} ({})",
                session.sku,
                class.id().replace('_', " "),
                session.instance,
                mode_label(&session.mode)
            ),
        );
        r.set(
            Column::SkuPriceId,
            format!("{}:bandwidth-{}:{}", session.sku, class.id(), session.mode),
        );
        r.set(
            Column::Tags,
            json_object(&[
                ("gpumeter-session", &session.id.to_string()),
                ("gpumeter-billing-mode", &session.mode),
                ("gpumeter-traffic-class", class.id()),
            ]),
        );
        out.push(r);
    }
    Some(out)
}

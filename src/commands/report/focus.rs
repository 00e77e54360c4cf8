//! `report --focus`: the ledger's hours as a FOCUS 1.0 dataset, CSV on stdout. The rows are
//! the core's ([`crate::focus`]); here the ledger is read, the sheet adds list prices, and the
//! rows become CSV: a header, one line per row, NULL as an empty field (how the specification's
//! own example files and the reference validator read it), RFC 4180 quoting.

use jiff::{SignedDuration, Timestamp};
use rust_decimal::Decimal;

use crate::focus::{self, FocusHour, FocusRow, FocusSession};
use crate::ledger::Ledger;
use crate::ledger::LedgerError;
use crate::ledger::focus::FocusSessionRow;
use crate::pricing::Sheet;
use crate::provider::InstanceInfo;
use crate::spend::RecordedMeter;

/// The dataset of `[since, until)` as CSV text, header first. An instance with an account
/// (`meters`) gives that account cut into hours; the others the minutes its meter recorded.
pub fn csv(
    ledger: &Ledger,
    (since, until): (Timestamp, Timestamp),
    sheet: Option<&Sheet>,
    meters: &[(InstanceInfo, RecordedMeter)],
) -> Result<String, LedgerError> {
    let (rows, metered) = ledger.focus_rows(since, until)?;
    let mut sessions: Vec<FocusSession> = rows.into_iter().map(|s| session(s, sheet)).collect();
    let instance_of = |id: i64, sessions: &[FocusSession]| {
        sessions
            .iter()
            .find(|s| s.id == id)
            .map(|s| s.instance.clone())
    };
    let accounted = |instance: &str| meters.iter().any(|(l, _)| l.id == instance);
    let (from_meter, egress): (Vec<FocusHour>, Vec<FocusHour>) = metered
        .into_iter()
        .partition(|h| instance_of(h.session, &sessions).is_none_or(|i| !accounted(&i)));
    let mut hours = from_meter;
    for (n, (listed, meter)) in meters.iter().enumerate() {
        let made = session_of_listing(listed, meter, sheet, n, until);
        if !sessions.iter().any(|s| s.instance == listed.id) {
            sessions.push(made);
        }
        let own: Vec<&FocusSession> = sessions
            .iter()
            .filter(|s| s.instance == listed.id)
            .collect();
        hours.extend(account_hours(
            meter,
            &own,
            &egress,
            listed.created,
            (since, until),
        ));
    }
    hours.sort_by_key(|h| (h.start, h.session));
    let rows = focus::build(&sessions, &hours, since, until);
    Ok(write(&rows))
}

/// The account of one instance cut into the hours of `[since, until)` from the hour it was
/// created in, each hour given to the session that ran in it (else the latest before it) and
/// the egress its meter measured then.
fn account_hours(
    meter: &RecordedMeter,
    sessions: &[&FocusSession],
    egress: &[FocusHour],
    created: Timestamp,
    (since, until): (Timestamp, Timestamp),
) -> Vec<FocusHour> {
    let hour = SignedDuration::from_hours(1);
    let first = since.max(created);
    let mut starts = vec![
        Timestamp::from_second(first.as_second() - first.as_second().rem_euclid(3600))
            .unwrap_or(first),
    ];
    while let Some(&last) = starts.last()
        && last + hour < until
    {
        starts.push(last + hour);
    }
    let mut bounds: Vec<Timestamp> = starts.iter().map(|s| (*s).max(since)).collect();
    bounds.push(until);
    let mut out = Vec::new();
    for (start, cost) in starts.into_iter().zip(meter.cut(&bounds)) {
        let Some(session) = sessions
            .iter()
            .filter(|s| s.started < start + hour)
            .max_by_key(|s| (s.ended >= start, s.started))
            .or_else(|| sessions.first())
        else {
            continue;
        };
        let measured: Vec<&FocusHour> = egress
            .iter()
            .filter(|h| h.start == start && sessions.iter().any(|s| s.id == h.session))
            .collect();
        let c = cost.accrued;
        out.push(FocusHour {
            session: session.id,
            start,
            cost: [c.compute, c.bandwidth, c.storage, c.extras],
            egress_bytes: measured.iter().map(|h| h.egress_bytes).sum(),
            split_bytes: [0, 1].map(|i| measured.iter().map(|h| h.split_bytes[i]).sum()),
            split_cost: cost.split_cost,
        });
    }
    out
}

/// A session for an instance the ledger never metered in the window (only listed), so its
/// account's hours have one: numbered below every real session's id.
fn session_of_listing(
    listed: &InstanceInfo,
    meter: &RecordedMeter,
    sheet: Option<&Sheet>,
    n: usize,
    until: Timestamp,
) -> FocusSession {
    let row = FocusSessionRow {
        id: -1 - i64::try_from(n).unwrap_or(0),
        instance: listed.id.clone(),
        provider: listed.provider.clone(),
        region: listed.region.clone(),
        sku: listed.sku.clone(),
        mode: crate::ledger::record::word(&listed.mode),
        rate: listed.live_price_per_hour.map(|p| p.to_string()),
        currency: meter.currency().unwrap_or(crate::money::Currency::USD),
        started: listed.created,
        ended: meter.released().unwrap_or(until).min(until),
    };
    session(row, sheet)
}

/// The session with its list price per hour: its own rate when it ran on demand (what the meter
/// priced it at), else the sheet's on-demand price for its SKU where the sheet prices it in the
/// session's currency.
fn session(row: FocusSessionRow, sheet: Option<&Sheet>) -> FocusSession {
    let from_sheet = sheet
        .filter(|s| s.currency == row.currency)
        .and_then(|s| s.sku(&row.sku))
        .and_then(|sku| sku.on_demand_per_hour);
    let own_rate = (row.mode == "on_demand")
        .then(|| row.rate.as_deref().and_then(|r| r.parse::<Decimal>().ok()))
        .flatten();
    FocusSession {
        id: row.id,
        instance: row.instance,
        provider: row.provider,
        region: row.region,
        sku: row.sku,
        mode: row.mode,
        list_per_hour: own_rate.or(from_sheet),
        currency: row.currency,
        started: row.started,
        ended: row.ended,
    }
}

/// The rows as CSV under the full header (RFC 4180 quoting by the csv crate); each value made
/// one line first, an unknown (NULL) left empty.
pub fn write(rows: &[FocusRow]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // Writing to memory fails only on a ragged row, which the row builder never makes.
    let _ = w.write_record(focus::header());
    for row in rows {
        let fields = row.values().iter().map(|v| {
            v.as_deref()
                .map(|v| gpumeter_core::text::one_line(v, 4096))
                .unwrap_or_default()
        });
        let _ = w.write_record(fields);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_alone_has_every_column() {
        let text = write(&[]);
        assert_eq!(text.lines().count(), 1);
        assert_eq!(text.trim_end().split(',').count(), focus::header().len());
    }
}

//! `report --focus`: the ledger's hours as a FOCUS 1.0 dataset, CSV on stdout. The rows are
//! the core's ([`crate::focus`]); here the ledger is read, the sheet adds list prices, and the
//! rows become CSV: a header, one line per row, NULL as an empty field (how the specification's
//! own example files and the reference validator read it), RFC 4180 quoting.

use jiff::Timestamp;
use rust_decimal::Decimal;

use crate::focus::{self, FocusRow, FocusSession};
use crate::ledger::Ledger;
use crate::ledger::LedgerError;
use crate::ledger::focus::FocusSessionRow;
use crate::pricing::Sheet;

/// The dataset of `[since, until)` as CSV text, header first.
pub fn csv(
    ledger: &Ledger,
    since: Timestamp,
    until: Timestamp,
    sheet: Option<&Sheet>,
) -> Result<String, LedgerError> {
    let (sessions, hours) = ledger.focus_rows(since, until)?;
    let sessions: Vec<FocusSession> = sessions.into_iter().map(|s| session(s, sheet)).collect();
    let rows = focus::build(&sessions, &hours, since, until);
    Ok(write(&rows))
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

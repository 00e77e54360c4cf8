//! `report --focus`: the ledger's hours as a FOCUS 1.0 dataset, CSV on stdout. The rows are
//! the core's ([`crate::focus`]); here the ledger is read, the sheet adds list prices, and the
//! rows become CSV: a header, one line per row, NULL as an empty field (how the specification's
//! own example files and the reference validator read it), RFC 4180 quoting.

use std::fmt::Write as _;

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

/// The rows as CSV under the full header.
pub fn write(rows: &[FocusRow]) -> String {
    let mut out = focus::header().join(",");
    out.push('\n');
    for row in rows {
        for (i, value) in row.values().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if let Some(value) = value {
                field(&mut out, value);
            }
        }
        out.push('\n');
    }
    out
}

/// One field, made one line and quoted when it holds a comma or a quote (RFC 4180).
fn field(out: &mut String, value: &str) {
    let value = gpumeter_core::text::one_line(value, 4096);
    if value.contains([',', '"']) {
        let _ = write!(out, "\"{}\"", value.replace('"', "\"\""));
    } else {
        out.push_str(&value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_or_quotes_are_quoted_and_nulls_are_empty() {
        let mut out = String::new();
        field(&mut out, "{\"a\":\"b,c\"}");
        assert_eq!(out, "\"{\"\"a\"\":\"\"b,c\"\"}\"");
        let text = write(&[]);
        assert_eq!(text.lines().count(), 1);
        assert_eq!(text.trim_end().split(',').count(), focus::header().len());
    }
}

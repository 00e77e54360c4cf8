//! Reading the ledger's typed columns back: Unix seconds as instants, currency codes checked.

use jiff::Timestamp;
use rusqlite::Row;

use crate::money::Currency;

/// A stored instant (Unix seconds); one out of range reads as the epoch.
pub(super) fn ts(seconds: i64) -> Timestamp {
    Timestamp::from_second(seconds).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// The currency in column `idx`; a code that is not one fails the read, so no amount is shown
/// in a currency it was not kept in.
pub(super) fn currency(r: &Row<'_>, idx: usize) -> rusqlite::Result<Currency> {
    let text: String = r.get(idx)?;
    text.parse().map_err(|e: crate::money::BadCurrency| {
        rusqlite::Error::FromSqlConversionFailure(idx, rusqlite::types::Type::Text, e.into())
    })
}

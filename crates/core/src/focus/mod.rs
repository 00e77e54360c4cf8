//! The ledger as a FOCUS 1.0 dataset (FinOps Open Cost and Usage Specification): one row per
//! instance, cost line and hour, every column of the specification plus the five pre-1.0
//! names the reference validator 1.0.0 checks. Pure: the ledger's sums come in as
//! [`FocusSession`] and [`FocusHour`], the rows go out as text values, `None` for NULL; the
//! edge writes them as CSV.

pub mod columns;
pub mod format;
pub mod rows;
mod traffic_rows;

pub use columns::{Column, SPEC_COLUMNS, header};
pub use rows::{FocusHour, FocusRow, FocusSession, build};

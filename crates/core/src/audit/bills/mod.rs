//! Reading a bill: the format told from the header row, each row into a [`BillLine`], and an
//! error that names the file, line and column of anything that cannot be read.

use super::BillLine;

/// A bill that cannot be read, with where and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct BillError {
    pub file: String,
    /// 1-based; 1 is the header.
    pub line: u64,
    /// 1-based column number, or the column's name where it has one (`BilledCost`).
    pub column: String,
    /// What was found and what was expected.
    pub message: String,
}

/// Every line of the bill `file` (its name, for errors and evidence) whose bytes (already
/// decompressed) are `bytes`.
pub fn read_bill(file: &str, bytes: &[u8]) -> Result<Vec<BillLine>, BillError> {
    let _ = (file, bytes);
    todo!("the bill readers are built in this module")
}

//! Price sheets: the schema, loading with file:line:column errors, and the bundled sheets.
//!
//! A sheet is a TOML file (see `pricing/README.md`). [`load_str`] turns its text
//! into a checked [`Sheet`] or a [`SheetError`] that points at the offending line and column;
//! nothing is ever half-loaded.

mod bundled;
mod decimal;
mod describe;
mod error;
mod load;
mod raw;
mod resolve;
pub mod sheet;
mod sku;
mod values;

pub use bundled::{bundled, bundled_sheet, find_sku, load_bundled};
pub use decimal::MAX_EXACT_FLOAT_DIGITS;
pub use describe::{sheet_heading, sku_details, sku_lines, stale_warning};
pub use error::{ErrorKind, Location, SheetError};
pub use load::load_str;
pub use sheet::{
    Billing, ComputeUnits, DataUnit, DiskPrice, DurationDiscount, Extras, Network, OtherExtra,
    OtherPrice, Sheet, Sku, StopPolicy, Storage,
};

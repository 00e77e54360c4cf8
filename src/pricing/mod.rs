//! Price sheets: the schema, loading with file:line:column errors, and the bundled sheets.

pub mod sheet;

pub use sheet::{
    Billing, ComputeUnits, DataUnit, DiskPrice, Extras, Network, Sheet, Sku, StopPolicy, Storage,
};

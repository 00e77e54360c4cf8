//! `gpumeter audit`: the provider's bill against the ledger. Bills of four shapes become one
//! [`BillLine`] each ([`bills`]); the ledger's instances and resources come in as
//! [`AuditLedger`]; the findings say where the bill and the truth differ. Pure: files are read
//! at the edge and handed in as bytes.

pub mod bill;
pub mod bills;
pub mod ledger;

pub use bill::{BillFormat, BillLine, ChargeKind, LineSource, TransferScope};
pub use bills::{BillError, read_bill};
pub use ledger::{AuditLedger, LedgerInstance, LedgerResource};

//! `gpumeter audit`: the provider's bill against the ledger. Bills of four shapes become one
//! [`BillLine`] each ([`bills`]); the ledger's instances and resources come in as
//! [`AuditLedger`]; the findings say where the bill and the truth differ. Pure: files are read
//! at the edge and handed in as a stream of bytes.

pub mod bill;
pub mod bills;
pub mod charges;
mod compute;
pub mod evidence;
pub mod findings;
mod index;
pub mod ledger;
mod leftovers;
pub mod matching;
pub mod report;

pub use bill::{BillFormat, BillLine, ChargeKind, LineSource, TransferScope};
pub use bills::{BillError, each_line, each_line_read_ahead, read_bill, read_bill_from};
pub use charges::{Charge, Charges, Places};
pub use findings::{
    Amounts, Cause, Finding, FindingKind, Leftover, LeftoverWhy, Mismatch, OverlapCharge, Transfer,
    Unexplained,
};
pub use ledger::{AuditLedger, LedgerInstance, LedgerResource};
pub use matching::{audit, audit_charges};
pub use report::{AuditReport, Tolerance};

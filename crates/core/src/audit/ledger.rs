//! What the ledger knows, as `audit` needs it: each instance that ran, when, where, what the
//! meter billed for it; each resource seen with it and until when.

use jiff::Timestamp;
use serde::Serialize;

use crate::meter::ResourceKind;
use crate::money::Money;

/// The ledger's instances and resources for the audited span.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AuditLedger {
    pub instances: Vec<LedgerInstance>,
    pub resources: Vec<LedgerResource>,
}

/// One instance the ledger saw.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerInstance {
    pub id: String,
    pub provider: String,
    pub region: Option<String>,
    pub sku: Option<String>,
    /// First seen running (its first session's start).
    pub started: Timestamp,
    /// Last seen; for a released instance, when it was seen gone.
    pub last_seen: Timestamp,
    pub released: Option<Timestamp>,
    /// The compute the meter billed over the audited span (whole steps and the minimum
    /// applied), in the session's currency; `None` when the ledger has no price for it.
    pub metered: Option<Money>,
    /// The rate the meter used, per hour.
    pub rate_per_hour: Option<Money>,
    /// The sheet's billing step for its compute, in seconds (1 for per-second billing, 3600
    /// for hourly); `None` when no sheet says.
    pub step_seconds: Option<u32>,
}

/// One resource seen with an instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LedgerResource {
    pub instance: String,
    pub id: String,
    pub kind: ResourceKind,
    pub created: Timestamp,
    pub first_seen: Timestamp,
    pub last_seen: Timestamp,
    /// When the ledger saw it gone; `None` while it may still exist.
    pub gone: Option<Timestamp>,
    pub deleted_with_instance: bool,
}

//! What several of these tests share: the demo instance's guard state as the ledger keeps it.

pub mod guard_state;

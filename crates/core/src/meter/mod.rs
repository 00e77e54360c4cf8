//! The cost engine. Pure: time, usage and prices are arguments; nothing here reads the clock,
//! the network, the disk or the terminal.
//!
//! - [`lifecycle`]: an instance's states over time, cut into intervals.
//! - [`usage`]: what is priced (compute terms, traffic, linked resources).
//! - [`accrue`](mod@accrue): cost so far, billed so far and burn rate at an instant.
//! - [`project`](mod@project): the cost at a later instant; what outlives a release.
//! - [`upload`]: a large transfer to the internet under way and what it has cost.
//! - [`unpriced`]: the lines naming what the sheet cannot price, and how a terminal says them.
//! - [`estimate`](mod@estimate): a plan priced in each billing mode, with the break-even point.

pub mod accrue;
mod bandwidth;
pub mod breakdown;
pub mod estimate;
pub mod fixture;
pub mod lifecycle;
pub mod project;
pub mod unpriced;
pub mod upload;
pub mod usage;

pub use accrue::{Accrual, accrue};
pub use bandwidth::{BURN_WINDOW_SECONDS, ClassCost, EgressByClass, internet_egress_cost};
pub use breakdown::{Breakdown, CentsBreakdown};
pub use lifecycle::{InstanceState, Interval, Lifecycle};
pub use project::{Leftover, leftover_monthly_total, leftovers, monthly_after_release, project};
pub use usage::{BillingMode, ComputeTerms, NoPrice, Resource, ResourceKind, Traffic, Usage};

#[cfg(test)]
mod tests;

//! gpumeter's core: what the cockpit knows and decides, with no I/O. Time, readings and the
//! provider's answers come in as arguments; effects go out as values for the edges to run.
//!
//! - [`money`]: amounts with a currency, exact decimals.
//! - [`pricing`]: the price-sheet schema, parsing and the bundled sheets.
//! - [`meter`]: what an instance has cost, component by component, at an instant.
//! - [`spend`]: a live instance's meter: its pricing, the spend so far and the burn.
//! - [`subscription`]: a plan paid ahead: its end, its renewal, what leaving early returns.
//! - [`guard`]: the rules that turn telemetry, spend and time into alerts and actions.
//! - [`cloud`]: what a provider reports (instance, resources) and is asked to do (actions).
//! - [`telemetry`]: GPU and host readings as plain data, their history and the findings.
//! - [`fleet`]: every configured instance priced, sorted and flagged.
//! - [`app`]: the cockpit's state, the key table and `update`.
//! - [`audit`]: the provider's bill against the ledger.
//! - [`demo`]: the demo cloud's state and the demo cockpit at a fixed instant.
//! - [`traffic`]: where sent bytes went (intranet, cross-region, internet) and what each costs.
//! - [`text`]: outside text made one safe line to show.
//! - [`cell`]: table cells padded by the columns they take on a terminal.
//! - [`verify`]: the GPU you got against the GPU you pay for: facts, benchmark, verdict.
//! - [`i18n`]: the message catalogue every word a user reads comes from, in their language.
//!
//! The crate's dependencies are the test of the boundary: no runtime, no terminal, no HTTP, no
//! database. A change that needs one belongs at the edge, in the `gpumeter` crate.

pub mod app;
pub mod audit;
pub mod cell;
pub mod cloud;
pub mod demo;
pub mod fleet;
pub mod focus;
pub mod guard;
pub mod i18n;
pub mod meter;
pub mod money;
pub mod pricing;
pub mod spend;
pub mod subscription;
pub mod telemetry;
pub mod text;
pub mod traffic;
pub mod verify;
pub mod zone;

//! `gpumeter pricing list | show | validate`.

use std::process::ExitCode;

use super::{CommandResult, Failure};
use crate::cli::PricingCommand;

pub fn run(_cmd: &PricingCommand) -> CommandResult {
    Err(Failure::bad_input("pricing is not built yet"))
        .map(|()| ExitCode::SUCCESS)
}

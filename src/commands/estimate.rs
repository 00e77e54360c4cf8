//! `gpumeter estimate`: the pre-rental budget.

use std::process::ExitCode;

use super::{CommandResult, Failure};
use crate::cli::EstimateArgs;

pub fn run(_args: &EstimateArgs) -> CommandResult {
    Err(Failure::bad_input("estimate is not built yet"))
        .map(|()| ExitCode::SUCCESS)
}

//! `gpumeter pricing list | show | validate`. Only this edge reads the clock (for the
//! stale-sheet warning).

use std::path::Path;
use std::process::ExitCode;

use jiff::civil::Date;

use super::{CommandResult, Failure, load_sheet_for, today};
use crate::cli::PricingCommand;
use crate::pricing::{self, Sheet, Sku};

pub fn run(cmd: &PricingCommand) -> CommandResult {
    match cmd {
        PricingCommand::List => {
            list(today());
            Ok(ExitCode::SUCCESS)
        }
        PricingCommand::Show {
            sku,
            provider,
            sheet,
        } => show(sku, provider.as_deref(), sheet.as_deref()),
        PricingCommand::Validate { file } => validate(file),
    }
}

fn warn_if_stale(sheet: &Sheet, today: Date) {
    if let Some(warning) = pricing::stale_warning(sheet, today) {
        super::emit_err(&format!("gpumeter: {warning}"));
    }
}

fn list(today: Date) {
    for (i, sheet) in pricing::bundled().iter().enumerate() {
        if i > 0 {
            super::emit("");
        }
        super::emit(&pricing::sheet_heading(sheet));
        for line in pricing::sku_lines(sheet) {
            super::emit(&format!("  {line}"));
        }
        warn_if_stale(sheet, today);
    }
}

/// One named sheet (`--provider` or `--sheet`, warned about by the loader if stale), or else
/// every bundled sheet that has the SKU.
fn show(sku: &str, provider: Option<&str>, file: Option<&Path>) -> CommandResult {
    if provider.is_some() && file.is_some() {
        return Err(Failure::bad_input(crate::t!("err-provider-and-sheet")));
    }
    let named = load_sheet_for(provider, file)?;
    let found: Vec<(&Sheet, &Sku)> = if let Some(sheet) = &named {
        sheet.sku(sku).map(|s| (sheet, s)).into_iter().collect()
    } else {
        let found = pricing::find_sku(sku, None);
        for (sheet, _) in &found {
            warn_if_stale(sheet, today());
        }
        found
    };
    if found.is_empty() {
        let place = match (provider, file) {
            (Some(id), _) => crate::t!("estimate-sheet", sheet = id),
            (_, Some(path)) => path.display().to_string(),
            _ => crate::t!("pricing-any-bundled").into_owned(),
        };
        return Err(Failure::bad_input(crate::t!(
            "pricing-no-sku",
            sku = sku,
            place = place
        )));
    }
    for (i, (sheet, found_sku)) in found.iter().enumerate() {
        if i > 0 {
            super::emit("");
        }
        super::emit(&found_sku.name);
        super::emit_part(&pricing::sku_details(sheet, found_sku));
    }
    Ok(ExitCode::SUCCESS)
}

fn validate(file: &Path) -> CommandResult {
    if let Some(sheet) = load_sheet_for(None, Some(file))? {
        super::emit(&crate::t!(
            "pricing-valid",
            file = file.display().to_string(),
            heading = pricing::sheet_heading(&sheet)
        ));
    }
    Ok(ExitCode::SUCCESS)
}

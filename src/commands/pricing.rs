//! `gpumeter pricing list | show | validate`. Only this edge reads the clock (for the
//! stale-sheet warning).

use std::path::Path;
use std::process::ExitCode;

use jiff::civil::Date;

use super::{CommandResult, Failure, today};
use crate::cli::PricingCommand;
use crate::pricing::{self, Sheet, Sku};

pub fn run(cmd: &PricingCommand) -> CommandResult {
    let today = today();
    match cmd {
        PricingCommand::List => {
            list(today);
            Ok(ExitCode::SUCCESS)
        }
        PricingCommand::Show {
            sku,
            provider,
            sheet,
        } => show(sku, provider.as_deref(), sheet.as_deref(), today),
        PricingCommand::Validate { file } => validate(file, today),
    }
}

fn warn_if_stale(sheet: &Sheet, today: Date) {
    if let Some(warning) = pricing::stale_warning(sheet, today) {
        eprintln!("gpumeter: {warning}");
    }
}

fn bundled(id: &str) -> Result<&'static Sheet, Failure> {
    pricing::bundled_sheet(id).ok_or_else(|| {
        let known: Vec<&str> = pricing::bundled().iter().map(|s| s.id.as_str()).collect();
        Failure::bad_input(format!(
            "--provider: no bundled sheet `{id}`; the bundled sheets are {}",
            known.join(", ")
        ))
    })
}

fn load(path: &Path) -> Result<Sheet, Failure> {
    pricing::load_file(path).map_err(|e| Failure::bad_input(e.to_string()))
}

fn list(today: Date) {
    for (i, sheet) in pricing::bundled().iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!("{}", pricing::sheet_heading(sheet));
        for line in pricing::sku_lines(sheet) {
            println!("  {line}");
        }
        warn_if_stale(sheet, today);
    }
}

fn show(sku: &str, provider: Option<&str>, file: Option<&Path>, today: Date) -> CommandResult {
    let owned;
    let found: Vec<(&Sheet, &Sku)> = match (provider, file) {
        (Some(_), Some(_)) => {
            return Err(Failure::bad_input(
                "--provider and --sheet both name a price sheet; give one",
            ));
        }
        (None, Some(path)) => {
            owned = load(path)?;
            owned.sku(sku).map(|s| (&owned, s)).into_iter().collect()
        }
        (Some(id), None) => {
            bundled(id)?;
            pricing::find_sku(sku, Some(id))
        }
        (None, None) => pricing::find_sku(sku, None),
    };
    if found.is_empty() {
        let place = match (provider, file) {
            (Some(id), _) => format!("sheet `{id}`"),
            (_, Some(path)) => path.display().to_string(),
            _ => "any bundled sheet".to_string(),
        };
        return Err(Failure::bad_input(format!(
            "no SKU `{sku}` in {place}; `gpumeter pricing list` shows them all"
        )));
    }
    for (i, (sheet, found_sku)) in found.iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!("{}", found_sku.name);
        print!("{}", pricing::sku_details(sheet, found_sku));
        warn_if_stale(sheet, today);
    }
    Ok(ExitCode::SUCCESS)
}

fn validate(file: &Path, today: Date) -> CommandResult {
    let sheet = load(file)?;
    println!("{}: ok, {}", file.display(), pricing::sheet_heading(&sheet));
    warn_if_stale(&sheet, today);
    Ok(ExitCode::SUCCESS)
}

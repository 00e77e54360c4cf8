//! `gpumeter audit`: the provider's bill against the ledger. The bills are read here, the
//! ledger's view of the span is read from the ledger, the core matches them, and the findings
//! are printed (text or `--json`) and, with `--evidence DIR`, written as a refund case.
//! Exit 0: the bill and the ledger agree within the tolerance; 3: something was found; 2: a
//! bill or a flag that cannot be read.

mod evidence;
mod in_order;
mod json;
mod read;
mod text;

use std::io::Write as _;
use std::process::ExitCode;

use gpumeter_core::audit::{AuditLedger, AuditReport, Charges, Tolerance, audit_charges};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::context::Context;
use super::report::{account, window};
use super::{CommandResult, Failure, emit, printable_out};
use crate::cli::{AuditArgs, Cli};
use crate::ledger::{self, Ledger};
use crate::money::Money;
use crate::provider::InstanceInfo;
use crate::spend::RecordedMeter;

/// Each instance with an account is metered by it: the compute it billed in the span (up to
/// now), the same account `report` and `status` give, in place of the minutes a running meter
/// happened to record.
fn metered_from_accounts(
    view: &mut AuditLedger,
    meters: &[(InstanceInfo, RecordedMeter)],
    (since, until): (Timestamp, Timestamp),
    now: Timestamp,
) {
    for (listed, meter) in meters {
        let Some(inst) = view.instances.iter_mut().find(|i| i.id == listed.id) else {
            continue;
        };
        if let Some(cost) = meter.between(since.min(now), until.min(now)) {
            inst.metered = Some(Money::new(cost.billed.compute, cost.billed.currency));
        }
    }
}

/// Exit status when the bill and the ledger differ.
pub const EXIT_FOUND: u8 = 3;

pub fn run(cli: &Cli, args: &AuditArgs) -> CommandResult {
    let ctx = Context::load(cli)?;
    if args.tolerance.is_sign_negative() {
        return Err(Failure::bad_input(crate::t!("err-tolerance")));
    }
    let now = Timestamp::now();
    let now = Timestamp::from_second(now.as_second()).unwrap_or(now);
    let tz = ctx.config.user_zone().tz;
    let charges = read::bills(&args.bills)?;
    let span = span(args, &charges, now, &tz)?;
    let path = ledger::path_in(&ctx.data_dir, ctx.demo);
    if ctx.demo && !path.exists() {
        let mut fresh = Ledger::open(&path).map_err(|e| Failure::failed(e.shown()))?;
        ledger::demo::seed(&mut fresh, now).map_err(|e| Failure::failed(e.shown()))?;
    }
    if !path.exists() {
        return Err(Failure::failed(crate::t!(
            "err-no-ledger",
            path = path.display().to_string()
        )));
    }
    let ledger = Ledger::open_read_only(&path).map_err(|e| Failure::failed(e.shown()))?;
    let mut view = ledger
        .audit_ledger(span.0, span.1)
        .map_err(|e| Failure::failed(e.shown()))?;
    let records = account::records(&ctx, &ledger).map_err(|e| Failure::failed(e.shown()))?;
    metered_from_accounts(&mut view, &account::meters(&records, now), span, now);
    let report = audit_charges(&charges, &view, span, Tolerance::percent(args.tolerance));
    if let Some(dir) = &args.evidence {
        evidence::write(dir, &report, &view, &args.bills, &ledger)?;
    }
    // Written as it is made; a reader that went away (`| head`) ends it quietly, as `emit`.
    let mut out = printable_out::stdout();
    let written = if args.json {
        json::write(&report, &view, &charges, &mut out)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        text::write(&report, &charges, args.bills.len(), &tz, &mut out)
    };
    let _ = written.and_then(|()| out.flush());
    drop(out);
    if !args.json
        && let Some(dir) = &args.evidence
    {
        emit(&format!("evidence written to {}", dir.display()));
    }
    let code = exit_code(&report);
    // Let go with the process, which ends here: freeing a million findings and the bill's
    // fold one allocation at a time would add a tenth of a second to a large audit.
    std::mem::forget((report, charges));
    Ok(code)
}

/// 0 when the bill and the ledger agree, [`EXIT_FOUND`] otherwise.
pub fn exit_code(report: &AuditReport) -> ExitCode {
    if report.agrees() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FOUND)
    }
}

/// `[since, until)`: the flags where given, else the bills' own first and last charge.
fn span(
    args: &AuditArgs,
    charges: &Charges,
    now: Timestamp,
    tz: &TimeZone,
) -> Result<(Timestamp, Timestamp), Failure> {
    let bound = |flag: &str, text: &Option<String>, default: Option<Timestamp>| match text {
        Some(text) => window::parse_bound(text, now, tz)
            .map_err(|e| Failure::bad_input(format!("{flag}: {e}"))),
        None => {
            default.ok_or_else(|| Failure::bad_input(crate::t!("err-audit-no-period", flag = flag)))
        }
    };
    let since = bound("--since", &args.since, charges.first_start())?;
    let until = bound("--until", &args.until, charges.last_end())?;
    if since >= until {
        return Err(Failure::bad_input(crate::t!(
            "err-since-before-until",
            since = since.to_string(),
            until = until.to_string()
        )));
    }
    Ok((since, until))
}

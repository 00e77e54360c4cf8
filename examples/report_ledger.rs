//! Writes the ledger `scripts/report-bench` times `report` over: a fleet of instances watched
//! for whole UTC days, one session each and one row a minute, through the ledger's own writer.
//!
//! `report_ledger PATH [INSTANCES] [DAYS]` (24 and 30: 1,036,800 minute rows) starts on
//! 2026-04-01T00:00:00Z and prints that instant and the end of the last day, one a line.

use std::process::ExitCode;

use gpumeter::ledger::{Batch, GpuMinute, Ledger, MinuteBucket, SessionStart};
use gpumeter::meter::{BillingMode, Breakdown};
use gpumeter::money::Currency;
use jiff::{SignedDuration, Timestamp};
use rust_decimal::{Decimal, dec};

const START: &str = "2026-04-01T00:00:00Z";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: i64| args.get(i).map_or(Ok(default), |a| a.parse::<i64>());
    let (Some(path), Ok(instances), Ok(days)) = (args.first(), number(1, 24), number(2, 30)) else {
        eprintln!("usage: report_ledger PATH [INSTANCES] [DAYS]");
        return ExitCode::from(2);
    };
    match fill(std::path::Path::new(path), instances, days) {
        Ok((start, end)) => {
            println!("{start}\n{end}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("report_ledger: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One instance's cost for one minute: a compute rate of its own, storage, egress while busy
/// and a licence in the extras, none of them a whole number of nano-units per minute.
fn minute_cost(instance: i64, busy: bool) -> Breakdown {
    let per_minute = |per_hour: Decimal| per_hour / dec!(60);
    Breakdown {
        currency: Currency::USD,
        compute: per_minute(dec!(1.21) + Decimal::from(instance) * dec!(0.37)),
        bandwidth: if busy { dec!(0.0000137) } else { Decimal::ZERO },
        storage: per_minute(dec!(0.219)),
        extras: per_minute(dec!(0.07)),
    }
}

fn fill(
    path: &std::path::Path,
    instances: i64,
    days: i64,
) -> Result<(Timestamp, Timestamp), Box<dyn std::error::Error>> {
    let start: Timestamp = START.parse()?;
    let mut ledger = Ledger::open(path)?;
    let mut sessions = Vec::new();
    for i in 0..instances {
        sessions.push(ledger.start_session(&SessionStart {
            instance: format!("i-fleet-{i:02}"),
            provider: "demo".into(),
            region: None,
            sku: "g5.xlarge".into(),
            mode: BillingMode::OnDemand,
            rate_per_hour: None,
            currency: Currency::USD,
            at: start,
            billing: None,
        })?);
    }
    let mut batch = Batch::default();
    for minute in 0..days * 1440 {
        let at = start + SignedDuration::from_mins(minute);
        // Idle from 02:00 to 08:00 each day.
        let idle = (120..480).contains(&(minute % 1440));
        for (i, session) in (0..).zip(&sessions) {
            let wobble = f64::from(u32::try_from((minute + i * 13) % 17).unwrap_or(0));
            batch.minutes.push(MinuteBucket {
                session: *session,
                start: at,
                cost: minute_cost(i, !idle),
                idle,
                gpu: GpuMinute {
                    util_samples: 60,
                    util_mean_pct: Some(if idle { 0.0 } else { 80.0 + wobble }),
                    util_max_pct: Some(if idle { 1.0 } else { 97.0 }),
                    power_samples: 60,
                    power_mean_w: Some(if idle { 60.0 } else { 320.0 } + wobble),
                    energy_j: 60.0 * (if idle { 60.0 } else { 320.0 } + wobble),
                },
                egress_bytes: if idle { 0 } else { 15_000_000 },
                egress_split: gpumeter_core::traffic::EgressSplit::default(),
                split_cost: gpumeter::ledger::SplitCost::default(),
            });
        }
        // An hour of the fleet a transaction, so filling takes seconds, not minutes.
        if minute % 60 == 59 {
            ledger.write(&batch)?;
            batch = Batch::default();
        }
    }
    ledger.write(&batch)?;
    let end = start + SignedDuration::from_mins(days * 1440);
    for session in sessions {
        ledger.end_session(session, end)?;
    }
    Ok((start, end))
}

//! The surfaces the account consistency tests read beside `status`: `fleet --json`'s row and a
//! `serve` scrape, each held to status's account; and hours that pass, by running every
//! process under libfaketime with the clock moved on.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};

use proptest::test_runner::TestCaseError;
use proptest::{prop_assert, prop_assert_eq};
use rust_decimal::Decimal;
use serde_json::Value;

/// Where distributions put libfaketime (Debian's `faketime` package, built from source).
const FAKETIME: [&str; 4] = [
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/local/lib/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
];

/// libfaketime, which moves the clock of the processes the tests start. Missing, hours cannot
/// pass: outside CI the test says so and goes on without them; under `CI` it fails, as
/// `scripts/test` installs it there.
pub fn faketime() -> Option<&'static str> {
    let found = FAKETIME
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    if found.is_none() {
        crate::peer::missing("libfaketime (hours passing)");
    }
    found
}

/// Runs `command` `hours` later than now (nothing changes at 0, or without libfaketime).
pub fn later(command: &mut Command, hours: u32) -> &mut Command {
    if hours > 0
        && let Some(lib) = faketime()
    {
        command
            .env("LD_PRELOAD", lib)
            .env("FAKETIME", format!("+{hours}h"))
            .env("FAKETIME_DONT_RESET", "1");
    }
    command
}

pub fn dec(v: &Value) -> Decimal {
    v.as_str()
        .unwrap_or_else(|| panic!("not money: {v}"))
        .parse()
        .unwrap()
}

/// `fleet --json`'s row of status's instance, when fleet lists it, renders the same account:
/// what it cost to the cent and by line, what it burns, what keeps billing and what is unknown.
/// `fleet_read` is read just after `status`, so only the accrual in between may differ.
pub fn fleet_agrees(fleet: &Value, status: &Value, after: &Value) -> Result<(), TestCaseError> {
    let id = &status["instance"]["id"];
    let Some(row) = fleet
        .as_array()
        .and_then(|rows| rows.iter().find(|r| &r["instance_id"] == id))
    else {
        prop_assert!(
            status["instance"]["state"] == "released",
            "fleet lists no {} while it is not released: {}",
            id,
            fleet
        );
        return Ok(());
    };
    let cost = &row["cost"];
    prop_assert!(cost.is_object(), "{}", row);
    let (before, now) = (&status["cost"], &after["cost"]);
    for line in ["compute", "bandwidth", "storage", "extras", "total"] {
        let (low, high) = (dec(&before[line]), dec(&now[line]));
        let cent = Decimal::new(1, 2);
        prop_assert!(
            low - cent <= dec(&cost[line]) && dec(&cost[line]) <= high + cent,
            "{}: fleet {} outside status {} .. {}",
            line,
            cost[line],
            low,
            high
        );
    }
    prop_assert_eq!(&cost["unknown"], &before["unknown"]);
    // The burn is a rate, not a sum: it is status's before fleet's read or status's after it
    // (a resource the provider drops in between changes it).
    let burn = dec(&row["burn_per_hour"]).round_dp(2);
    let rates = [dec(&before["burn_per_hour"]), dec(&now["burn_per_hour"])];
    prop_assert!(
        rates.contains(&burn),
        "burn {} not in {:?}: {}",
        burn,
        rates,
        row
    );
    let still = &status["still_billing_monthly"];
    prop_assert_eq!(dec(&row["leftover_monthly"]), dec(&still["known"]));
    prop_assert_eq!(&row["leftover_unknown"], &still["unknown"]);
    Ok(())
}

/// A `gpumeter serve` started with `args` and `hours` on the clock, scraped until it exports
/// a cost, then stopped: the scrape's body.
pub fn scrape(args: &[&std::ffi::OsStr], hours: u32) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpumeter"));
    let mut child = later(&mut command, hours)
        .args(args)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let serving = BufReader::new(child.stderr.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .find(|l| l.contains("serving"))
        .unwrap_or_default();
    let port = serving
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .and_then(|p| p.parse::<u16>().ok())
        .unwrap_or_else(|| panic!("{serving}"));
    let addr = format!("127.0.0.1:{port}");
    let get = || crate::serve_fleet_cli::get(&addr);
    let started = std::time::Instant::now();
    let mut body = get();
    while !body.contains("gpumeter_cost_total{") && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(200));
        body = get();
    }
    let _ = child.kill();
    let _ = child.wait();
    body
}

/// The value of the series `name` whose labels include `label`, from a scrape.
pub fn series(body: &str, name: &str, label: &str) -> Decimal {
    let line = body
        .lines()
        .find(|l| l.starts_with(&format!("{name}{{")) && l.contains(label))
        .unwrap_or_else(|| panic!("no {name} with {label} in\n{body}"));
    let value: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
    Decimal::try_from(value).unwrap()
}

/// A scrape exports the account `status` gave before it (`status`) and after it (`after`):
/// each line within a cent of status's (which shares the cents out by largest remainder), the
/// total between the two, what keeps billing and how many lines have no price.
pub fn scrape_agrees(body: &str, status: &Value, after: &Value) -> Result<(), TestCaseError> {
    let cost = &status["cost"];
    let mut total = Decimal::ZERO;
    let cent = Decimal::new(1, 2);
    for component in ["compute", "storage", "bandwidth", "extras"] {
        let label = format!("component=\"{component}\"");
        let exact = series(body, "gpumeter_cost_total", &label);
        let (low, high) = (dec(&cost[component]), dec(&after["cost"][component]));
        prop_assert!(
            low - cent < exact && exact < high + cent,
            "{}: {} outside {} .. {}\n{}",
            component,
            exact,
            low,
            high,
            body
        );
        total += exact;
    }
    let total =
        total.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    prop_assert!(
        dec(&cost["total"]) <= total && total <= dec(&after["cost"]["total"]),
        "{} outside {} .. {}",
        total,
        cost["total"],
        after["cost"]["total"]
    );
    let compute_burn = series(body, "gpumeter_burn_rate_per_hour", "component=\"compute\"");
    if status["instance"]["state"] == "released" {
        prop_assert_eq!(compute_burn, Decimal::ZERO);
    }
    let still = &status["still_billing_monthly"];
    let left = series(body, "gpumeter_leftover_monthly_cost", "currency=");
    prop_assert_eq!(left, dec(&still["known"]));
    let unknown = still["unknown"].as_array().map_or(0, Vec::len);
    let lines = series(
        body,
        "gpumeter_cost_unknown_lines",
        "total=\"leftover_monthly\"",
    );
    prop_assert_eq!(lines, Decimal::from(unknown));
    Ok(())
}

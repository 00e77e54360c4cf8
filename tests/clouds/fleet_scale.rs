//! A benchmark, not a test (`scripts/fleet-bench` runs it): `gpumeter fleet --json` over five
//! loopback accounts (three on the Alibaba peer, two on the Tencent peer) holding 100 GPU
//! instances and 500 orphan disks in all, then 1,000 and 5,000. Every account pages at the
//! services' own maximum of 100 items and answers at most 20 calls a second, throttling the
//! rest; then the same without the limit.
//! Past the limit the wall time is the limit's (the floor of calls at the allowed rate is
//! printed beside it); without it, wall time, memory and calls must all grow no faster than the
//! fleet. Each size runs three times; the medians of wall time and peak memory are printed,
//! with how they grow from the small fleet to the large one. It checks that every instance
//! and orphan was found, so a fast run that misses some does not count.

use std::time::Duration;

use crate::alibaba_peer::Peer as AliPeer;
use crate::common::fleet_bin::{Account, FleetBin, instance_ids, orphan_ids};
use crate::tencent_peer::Peer as TcPeer;

const ACCOUNTS: usize = 5;
const ORPHANS_PER_INSTANCE: usize = 5;
const PAGE: usize = 100;
const CALLS_PER_SECOND: usize = 20;
const RUNS: usize = 3;
const LABELS: [&str; ACCOUNTS] = ["a1", "a2", "a3", "t1", "t2"];

struct Figures {
    wall: Duration,
    /// Kept in KiB as a u32: a fleet reader over 4 TiB would be a finding of its own.
    peak_kib: u32,
    calls: usize,
    throttled: usize,
}

/// One fleet of `instances` GPU instances (the peers' main ones among them) and five times as
/// many orphans, read `RUNS` times: the median run. With `limit`, each account answers that
/// many calls a second and throttles the rest.
fn measure(instances: usize, limit: Option<usize>) -> Option<Figures> {
    let per_account = instances / ACCOUNTS;
    let orphans = per_account * ORPHANS_PER_INSTANCE;
    let alibaba: Vec<AliPeer> = (0..3).map(|_| AliPeer::start()).collect::<Option<_>>()?;
    let tencent: Vec<TcPeer> = (0..2).map(|_| TcPeer::start()).collect::<Option<_>>()?;
    for p in &alibaba {
        p.fleet_world(per_account - 1, orphans);
        p.cloud(|c| c.page_cap = Some(PAGE));
        if let Some(n) = limit {
            p.rate_limit(n);
        }
    }
    for p in &tencent {
        p.fleet_world(per_account - 1, orphans);
        p.cloud(|c| c.page_cap = Some(PAGE));
        if let Some(n) = limit {
            p.rate_limit(n);
        }
    }
    let mut accounts: Vec<Account<'_>> = alibaba
        .iter()
        .zip(&LABELS[..3])
        .map(|(p, l)| Account::Alibaba(l, p))
        .collect();
    accounts.extend(
        tencent
            .iter()
            .zip(&LABELS[3..])
            .map(|(p, l)| Account::Tencent(l, p)),
    );
    let bin = FleetBin::new(&format!("scale-{instances}"), &accounts);
    let mut runs: Vec<(Duration, u32)> = (0..RUNS)
        .map(|_| {
            let run = bin.run(&[]);
            let found: usize = LABELS
                .iter()
                .map(|l| instance_ids(&run.rows, l).len())
                .sum();
            let loose: usize = LABELS
                .iter()
                .map(|l| {
                    orphan_ids(&run.rows, l)
                        .iter()
                        .filter(|id| id.contains("orphan"))
                        .count()
                })
                .sum();
            assert_eq!(found, instances, "every instance found");
            assert_eq!(loose, orphans * ACCOUNTS, "every orphan found");
            (run.wall, u32::try_from(run.peak_kib).unwrap_or(u32::MAX))
        })
        .collect();
    let calls = alibaba.iter().map(|p| p.calls().len()).sum::<usize>()
        + tencent.iter().map(|p| p.calls().len()).sum::<usize>();
    let throttled = alibaba.iter().map(AliPeer::throttled).sum::<usize>()
        + tencent.iter().map(TcPeer::throttled).sum::<usize>();
    let mut peaks: Vec<u32> = runs.iter().map(|r| r.1).collect();
    runs.sort_by_key(|r| r.0);
    peaks.sort_unstable();
    Some(Figures {
        wall: runs[RUNS / 2].0,
        peak_kib: peaks[RUNS / 2],
        calls: calls / RUNS,
        throttled: throttled / RUNS,
    })
}

/// A count as a float, for a ratio.
fn real(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

#[test]
#[ignore = "a benchmark: scripts/fleet-bench runs it in release"]
fn fleet_grows_no_faster_than_the_fleet() {
    for (what, limit) in [
        (
            "rate-limited to 20 calls/s an account",
            Some(CALLS_PER_SECOND),
        ),
        ("no rate limit (the peers' own serving time included)", None),
    ] {
        let (Some(small), Some(large)) = (measure(100, limit), measure(1000, limit)) else {
            return;
        };
        println!("{what}:");
        for (n, f) in [(100, &small), (1000, &large)] {
            // Past the limit, no reader can be faster than its calls at the allowed rate.
            let floor = limit.map_or(String::new(), |l| {
                let per_account = f.calls.div_ceil(ACCOUNTS);
                format!(", {:.2} s at the limit", real(per_account) / real(l))
            });
            println!(
                "  {n:>4} instances and {:>4} orphans in {ACCOUNTS} accounts: {:>6.2} s{floor}, \
                 peak {:>6.1} MiB, {} calls ({} throttled) a run",
                n * ORPHANS_PER_INSTANCE,
                f.wall.as_secs_f64(),
                f64::from(f.peak_kib) / 1024.0,
                f.calls,
                f.throttled
            );
        }
        let wall = large.wall.as_secs_f64() / small.wall.as_secs_f64();
        let memory = f64::from(large.peak_kib) / f64::from(small.peak_kib);
        let calls = real(large.calls) / real(small.calls);
        println!(
            "  1,000 : 100 instances: wall time {wall:.2}x, peak memory {memory:.2}x, \
             calls {calls:.2}x (linear is 10x)"
        );
        assert!(
            memory <= 10.0,
            "memory grew faster than the fleet: {memory:.2}x"
        );
        assert!(
            calls <= 10.0,
            "calls grew faster than the fleet: {calls:.2}x"
        );
        // Under the limit the small fleet never waits and the large one must: the wall time's
        // growth is the limit's, and its floor is printed beside it.
        if limit.is_none() {
            assert!(
                wall <= 10.0,
                "wall time grew faster than the fleet: {wall:.2}x"
            );
        }
    }
}

use rusqlite::params;

use super::*;

/// The slices as SQLite's own `GROUP BY` sums them: what the report read before the minutes
/// were summed as they stream, and the oracle they must still match.
const GROUP_BY: &str = "
    SELECT session, start - start % ?3, sum(compute), sum(bandwidth), sum(storage),
           sum(extras), sum(idle_cost), sum(idle_minutes), sum(util_samples),
           total(util_mean * util_samples), max(util_max), total(energy_j), sum(egress_bytes),
           sum(intranet_bytes), sum(cross_region_bytes)
    FROM buckets WHERE start >= ?1 AND start < ?2
    GROUP BY session, start - start % ?3 ORDER BY 2, 1";

fn oracle(ledger: &Ledger, from: i64, to: i64) -> Vec<SliceRow> {
    let mut stmt = ledger.conn.prepare(GROUP_BY).unwrap();
    stmt.query_map(params![from, to, SLICE_SECONDS], |r| {
        Ok(SliceRow {
            session: r.get(0)?,
            start: ts(r.get(1)?),
            cost: [r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?],
            idle_cost: r.get(6)?,
            idle_minutes: r.get(7)?,
            util_samples: r.get(8)?,
            util_sum: r.get(9)?,
            util_max: r.get(10)?,
            energy_j: r.get(11)?,
            egress_bytes: r.get(12)?,
            split_bytes: [r.get(13)?, r.get(14)?],
        })
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

fn ledger_with_sessions(dir: &tempfile::TempDir, sessions: i64) -> Ledger {
    let ledger = Ledger::open(dir.path().join("ledger.sqlite")).unwrap();
    for id in 1..=sessions {
        ledger
            .conn
            .execute(
                "INSERT INTO sessions (id, instance, provider, sku, mode, currency, started,
                                       last_seen)
                 VALUES (?1, 'i-' || ?1, 'demo', 'x', 'on_demand', 'USD', 0, 0)",
                [id],
            )
            .unwrap();
    }
    ledger
}

/// A row as the writer or the hourly rollup leaves it; `util` `None` is a minute without a
/// utilisation reading.
fn insert(ledger: &Ledger, start: i64, session: i64, span: i64, i: i64, util: Option<f64>) {
    let cost = [
        41_666_667 + i * 7,
        i * 1_234_567 % 999_983,
        123_457,
        if i % 11 == 0 { -5 } else { 1 },
    ];
    let idle = i % 3 == 0;
    #[expect(clippy::cast_precision_loss, reason = "small test numbers")]
    let wobble = (i % 97) as f64 / 7.0;
    ledger
        .conn
        .execute(
            "INSERT INTO buckets (start, session, span, compute, bandwidth, storage, extras,
                 idle_cost, idle_minutes, util_samples, util_mean, util_max, power_samples,
                 power_mean, energy_j, egress_bytes)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 8, 250.0, ?13, ?14)",
            params![
                start,
                session,
                span,
                cost[0],
                cost[1],
                cost[2],
                cost[3],
                if idle { cost.iter().sum() } else { 0 },
                i64::from(idle) * span / 60,
                if util.is_some() { i % 5 + 1 } else { 0 },
                util,
                util.map(|u| u + 0.5),
                1000.0 / 3.0 + wobble,
                i * 1000,
            ],
        )
        .unwrap();
}

/// Three sessions over two days, starting and stopping at odd minutes, some minutes without a
/// reading, and an hour rolled up by retention before them.
#[test]
fn the_streamed_slices_are_sqlites_group_by() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_with_sessions(&dir, 3);
    let day = 1_777_593_600;
    insert(&ledger, day - 3600, 2, 3600, 5, Some(31.25));
    for minute in 0..2 * 1440 {
        for session in 1..=3 {
            let i = minute * 3 + session;
            let running = match session {
                1 => true,
                2 => (7..1900).contains(&minute),
                _ => minute % 40 < 17,
            };
            if running {
                #[expect(clippy::cast_precision_loss, reason = "small test numbers")]
                let util = (i % 13 != 0).then_some((i % 100) as f64 + 0.1);
                insert(&ledger, day + minute * 60, session, 60, i, util);
            }
        }
    }
    for (from, to) in [
        (day - 7200, day + 2 * 86_400),
        (day + 61, day + 86_400 + 899),
        (day + 60, day + 61),
        (day + 3 * 86_400, day + 4 * 86_400),
    ] {
        assert_eq!(ledger.slices(from, to).unwrap(), oracle(&ledger, from, to));
    }
    // Every quarter hour of session 1, the first 127 of session 2, six in eight of session 3
    // and the rolled-up hour: the comparison above is not over a handful of rows.
    assert_eq!(
        oracle(&ledger, day - 7200, day + 2 * 86_400).len(),
        192 + 127 + 144 + 1
    );
}

#[test]
fn a_sum_beyond_64_bits_is_an_error_not_a_wrapped_total() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_with_sessions(&dir, 1);
    for minute in 0..2 {
        ledger
            .conn
            .execute(
                "INSERT INTO buckets (start, session, span, compute, bandwidth, storage, extras,
                     idle_cost, idle_minutes, util_samples, power_samples, energy_j,
                     egress_bytes)
                 VALUES (?1, 1, 60, ?2, 0, 0, 0, 0, 0, 0, 0, 0.0, 0)",
                params![minute * 60, i64::MAX - 1],
            )
            .unwrap();
    }
    let err = ledger.slices(0, 3600).unwrap_err();
    assert!(matches!(err, LedgerError::BadValue { .. }), "{err}");
    assert!(oracle_fails(&ledger), "SQLite's sum() refuses it too");
}

fn oracle_fails(ledger: &Ledger) -> bool {
    let mut stmt = ledger.conn.prepare(GROUP_BY).unwrap();
    stmt.query_map(params![0, 3600, SLICE_SECONDS], |r| r.get::<_, i64>(2))
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .is_err()
}

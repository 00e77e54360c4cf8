//! The ledger's tables, as forward migrations. `PRAGMA user_version` holds how many have run;
//! `PRAGMA application_id` marks the file as a gpumeter ledger. A migration is never edited once
//! released: a change is a new entry at the end.
//!
//! Amounts that are summed (costs) are integer nano-units of the session's currency (10⁻⁹), so
//! SQLite sums them exactly and a rollup cannot drift; see [`super::amount`]. A price that is
//! never summed (the session's rate) is kept as exact decimal text. Times are Unix seconds.

use rusqlite::Transaction;

/// "gpuM" in ASCII: marks the file as a gpumeter ledger.
pub const APPLICATION_ID: i64 = 0x6770_754d;

/// Each entry moves the schema one version forward; the version is the number applied.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: sessions, buckets, events, resources seen, guard state.
    "
    CREATE TABLE sessions (
        id        INTEGER PRIMARY KEY,
        instance  TEXT NOT NULL,
        provider  TEXT NOT NULL,
        sku       TEXT NOT NULL,
        mode      TEXT NOT NULL,
        rate      TEXT,
        currency  TEXT NOT NULL,
        started   INTEGER NOT NULL,
        ended     INTEGER,
        last_seen INTEGER NOT NULL
    );
    CREATE INDEX sessions_instance ON sessions (instance);

    CREATE TABLE buckets (
        start         INTEGER NOT NULL,
        session       INTEGER NOT NULL REFERENCES sessions (id),
        span          INTEGER NOT NULL,
        compute       INTEGER NOT NULL,
        bandwidth     INTEGER NOT NULL,
        storage       INTEGER NOT NULL,
        extras        INTEGER NOT NULL,
        idle_cost     INTEGER NOT NULL,
        idle_minutes  INTEGER NOT NULL,
        util_samples  INTEGER NOT NULL,
        util_mean     REAL,
        util_max      REAL,
        power_samples INTEGER NOT NULL,
        power_mean    REAL,
        energy_j      REAL NOT NULL,
        egress_bytes  INTEGER NOT NULL,
        PRIMARY KEY (start, session)
    ) WITHOUT ROWID;

    CREATE TABLE events (
        id       INTEGER PRIMARY KEY,
        session  INTEGER REFERENCES sessions (id),
        instance TEXT,
        at       INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        level    TEXT NOT NULL,
        text     TEXT NOT NULL,
        intent   TEXT,
        request  TEXT,
        answer   TEXT,
        outcome  TEXT
    );
    CREATE INDEX events_at ON events (at);

    CREATE TABLE instances (
        id         TEXT PRIMARY KEY,
        provider   TEXT NOT NULL,
        sku        TEXT,
        state      TEXT NOT NULL,
        first_seen INTEGER NOT NULL,
        last_seen  INTEGER NOT NULL,
        released   INTEGER
    ) WITHOUT ROWID;

    CREATE TABLE resources (
        instance              TEXT NOT NULL,
        id                    TEXT NOT NULL,
        kind                  TEXT NOT NULL,
        name                  TEXT NOT NULL,
        class                 TEXT,
        size_gib              TEXT NOT NULL,
        state                 TEXT NOT NULL,
        deleted_with_instance INTEGER NOT NULL,
        created               INTEGER NOT NULL,
        first_seen            INTEGER NOT NULL,
        last_seen             INTEGER NOT NULL,
        gone                  INTEGER,
        PRIMARY KEY (instance, id)
    ) WITHOUT ROWID;

    CREATE TABLE guard (
        instance         TEXT PRIMARY KEY,
        deadline         INTEGER,
        on_expiry        TEXT NOT NULL,
        grace_s          INTEGER NOT NULL,
        provider_held    INTEGER,
        snooze_until     INTEGER,
        watchdog_pid     INTEGER,
        heartbeat        INTEGER,
        revision         INTEGER NOT NULL,
        updated          INTEGER NOT NULL,
        updated_by       TEXT NOT NULL
    ) WITHOUT ROWID;
    ",
    // 2: the region an instance was seen in, so a not-found in another region is not taken for
    // its release. NULL (every row before this) stands for any region.
    "
    ALTER TABLE sessions ADD COLUMN region TEXT;
    ALTER TABLE instances ADD COLUMN region TEXT;
    ",
    // 3: how the session's compute is billed (whole steps, a minimum per run), so `report` can
    // show the bill beside what accrued. NULL (every row before this): billed as accrued.
    "
    ALTER TABLE sessions ADD COLUMN step_seconds INTEGER;
    ALTER TABLE sessions ADD COLUMN minimum_seconds INTEGER;
    ",
    // 4: the idle rule the watchdog enforces and since when it has seen the machine idle, so
    // `watchdog --status` and the cockpit can show it. NULL: no watchdog published one.
    "
    ALTER TABLE guard ADD COLUMN idle_after_s INTEGER;
    ALTER TABLE guard ADD COLUMN on_idle TEXT;
    ALTER TABLE guard ADD COLUMN idle_since INTEGER;
    ",
    // 5: what `gpumeter verify` found, kept as evidence (for a refund request) and for the
    // cockpit's GPU panel. `report` is the whole answer as JSON: every check with the measured
    // and the rated value, NVML's facts and the benchmark's figures.
    "
    CREATE TABLE verifications (
        id       INTEGER PRIMARY KEY,
        instance TEXT,
        at       INTEGER NOT NULL,
        verdict  TEXT NOT NULL,
        summary  TEXT NOT NULL,
        headline TEXT NOT NULL,
        report   TEXT NOT NULL
    );
    CREATE INDEX verifications_at ON verifications (at);
    ",
    // 6: who acted. NULL: the cockpit or the watchdog (told apart by the session); `command`:
    // a command line (`gpumeter release`, `stop`, `cleanup`, `verify --on-fail`), so the audit's
    // evidence has every action and the cockpit does not take one for the watchdog's.
    "
    ALTER TABLE events ADD COLUMN origin TEXT;
    ",
    // 7: the instance as its provider last listed it (JSON: its type, billing mode, creation
    // and state changes), so a fresh process can still price an instance the provider no
    // longer lists after its release. NULL: not kept yet; its compute stays unknown.
    // `instance_release` says when each instance went: its first confirmed release since it
    // was first listed, else the first inventory that no longer listed it, whichever came
    // first. A release recorded before the instance was ever listed is not its release.
    "
    ALTER TABLE instances ADD COLUMN listing TEXT;
    CREATE VIEW instance_release AS
      SELECT i.id AS id, min(coalesce(i.released, r.at), coalesce(r.at, i.released)) AS released
      FROM instances i LEFT JOIN (
        SELECT coalesce(e.instance, s.instance) AS instance, min(e.at) AS at
        FROM events e LEFT JOIN sessions s ON e.session = s.id
        JOIN instances seen ON seen.id = coalesce(e.instance, s.instance)
        WHERE e.intent = 'release' AND e.outcome = 'confirmed' AND e.at >= seen.first_seen
        GROUP BY 1
      ) r ON r.instance = i.id;
    ",
    // 8: the budget crossings the watchdog has sent to the webhooks, one row per limit and
    // threshold, so a watchdog that starts again does not send them again. A new limit is a
    // new budget: its crossings are sent afresh.
    "
    CREATE TABLE budget_said (
        instance     TEXT NOT NULL,
        scope        TEXT NOT NULL,
        limit_amount TEXT NOT NULL,
        currency     TEXT NOT NULL,
        threshold    INTEGER NOT NULL,
        at           INTEGER NOT NULL,
        PRIMARY KEY (instance, scope, limit_amount, currency, threshold)
    ) WITHOUT ROWID;
    ",
    // 9: `stopped_release_after` as a watchdog enforces it, one row per instance: the time it
    // releases a stopped instance after (`after_s`, NULL when none enforces it: published at
    // start, cleared at exit) and, for a cloud that does not date shutdowns, when the watchdog
    // first saw the instance stopped (`seen`, NULL while it is not stopped), so a watchdog that
    // starts again keeps the clock.
    "
    CREATE TABLE stopped_release (
        instance TEXT PRIMARY KEY,
        after_s  INTEGER,
        seen     INTEGER
    ) WITHOUT ROWID;
    ",
    // 10: of each minute's egress, the bytes the machine's sockets sent to the intranet and to
    // other regions, and what they cost (nano-units, within `bandwidth`); the rest is internet.
    // 0 (every row before this): all of it internet, as it was priced then.
    "
    ALTER TABLE buckets ADD COLUMN intranet_bytes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE buckets ADD COLUMN cross_region_bytes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE buckets ADD COLUMN intranet_cost INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE buckets ADD COLUMN cross_region_cost INTEGER NOT NULL DEFAULT 0;
    ",
];

/// The version that split each minute's egress by destination: a file opened read-only at an
/// earlier one is not migrated, and its minutes read as all internet.
pub(super) const EGRESS_SPLIT_VERSION: i64 = 10;

/// The columns of a minute's egress split by destination (intranet bytes, cross-region
/// bytes, intranet cost, cross-region cost) as a file at `version` holds them: zeros before
/// [`EGRESS_SPLIT_VERSION`].
pub(super) fn egress_split_columns(version: i64) -> [&'static str; 4] {
    if version < EGRESS_SPLIT_VERSION {
        ["0", "0", "0", "0"]
    } else {
        [
            "intranet_bytes",
            "cross_region_bytes",
            "intranet_cost",
            "cross_region_cost",
        ]
    }
}

/// The schema version this build writes and reads.
pub fn current_version() -> i64 {
    i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX)
}

/// Runs the migrations after `from`, inside the caller's (immediate) transaction, and records
/// the new version and the application id.
pub fn migrate(tx: &Transaction<'_>, from: i64) -> rusqlite::Result<()> {
    let start = usize::try_from(from.max(0)).unwrap_or(usize::MAX);
    for sql in MIGRATIONS.iter().skip(start) {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.pragma_update(None, "user_version", current_version())?;
    Ok(())
}

/// A ledger file at `path` as version `version` left it, holding what `rows` inserts, never
/// migrated: how the tests read an old ledger.
#[cfg(test)]
pub(super) fn old_ledger(path: &std::path::Path, version: usize, rows: &str) {
    let old = rusqlite::Connection::open(path).unwrap();
    for sql in &MIGRATIONS[..version] {
        old.execute_batch(sql).unwrap();
    }
    old.execute_batch(rows).unwrap();
    old.pragma_update(None, "application_id", APPLICATION_ID)
        .unwrap();
    old.pragma_update(None, "user_version", i64::try_from(version).unwrap())
        .unwrap();
}

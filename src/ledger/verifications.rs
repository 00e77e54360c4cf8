//! What `gpumeter verify` found on this machine, one row per run: the verdict, the line the
//! cockpit shows, and the whole report as JSON, kept as evidence.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::error::LedgerError;
use super::store::Ledger;

/// One run of `verify`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    /// The instance it ran on, where `verify` knew it.
    pub instance: Option<String>,
    pub at: Timestamp,
    /// `pass`, `warn` or `fail`.
    pub verdict: String,
    /// The cockpit's line: "97 % of rated, dedicated".
    pub summary: String,
    pub headline: String,
    /// The report as JSON.
    pub report: String,
}

impl Ledger {
    /// Keeps one run of `verify`.
    pub fn record_verification(&self, v: &Verification) -> Result<(), LedgerError> {
        self.conn
            .execute(
                "INSERT INTO verifications (instance, at, verdict, summary, headline, report)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    v.instance,
                    v.at.as_second(),
                    v.verdict,
                    v.summary,
                    v.headline,
                    v.report
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The latest run of `verify` for `instance`, or run with no instance known (on this
    /// machine, which is the instance); `None` when there has been none.
    pub fn last_verification(&self, instance: &str) -> Result<Option<Verification>, LedgerError> {
        self.conn
            .query_row(
                "SELECT instance, at, verdict, summary, headline, report FROM verifications
                 WHERE instance = ?1 OR instance IS NULL ORDER BY at DESC, id DESC LIMIT 1",
                params![instance],
                |r| {
                    Ok(Verification {
                        instance: r.get(0)?,
                        at: Timestamp::from_second(r.get(1)?).unwrap_or(Timestamp::UNIX_EPOCH),
                        verdict: r.get(2)?,
                        summary: r.get(3)?,
                        headline: r.get(4)?,
                        report: r.get(5)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(instance: Option<&str>, at: i64, verdict: &str) -> Verification {
        Verification {
            instance: instance.map(str::to_owned),
            at: Timestamp::from_second(at).unwrap(),
            verdict: verdict.into(),
            summary: format!("{verdict} at {at}"),
            headline: "h".into(),
            report: "{}".into(),
        }
    }

    #[test]
    fn the_latest_run_for_the_instance_or_the_machine_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::open(dir.path().join("l.sqlite")).unwrap();
        assert_eq!(ledger.last_verification("i-1").unwrap(), None);
        ledger
            .record_verification(&run(Some("i-1"), 100, "pass"))
            .unwrap();
        ledger
            .record_verification(&run(Some("i-2"), 300, "fail"))
            .unwrap();
        let last = ledger.last_verification("i-1").unwrap().unwrap();
        assert_eq!((last.verdict.as_str(), last.at.as_second()), ("pass", 100));
        ledger.record_verification(&run(None, 200, "warn")).unwrap();
        let last = ledger.last_verification("i-1").unwrap().unwrap();
        assert_eq!(
            last.verdict, "warn",
            "a run with no instance is this machine's"
        );
        assert_eq!(last.summary, "warn at 200");
    }
}

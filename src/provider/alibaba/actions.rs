//! Snapshot-clean and the auto-release deadline, each read back before it is reported (release,
//! stop and start run in the skeleton's [`actions`]). A call that fails leaves the outcome to
//! the read-back: if DescribeInstances shows the effect, it happened; if it does not, the report
//! says so and is not confirmed.

use async_trait::async_trait;
use jiff::{SignedDuration, Timestamp};

use super::AlibabaCloud;
use super::model::{self, Ack, parse_time};
use super::rpc::{Product, describe};
use crate::provider::ProviderError;
use crate::provider::rpc_cloud::actions::{self, Outcome, OwnActions, SnapshotPlan};
use crate::provider::rpc_cloud::{CallError, InstanceApi};

/// Alibaba refuses an auto-release time sooner than this.
pub const MIN_AHEAD: SignedDuration = SignedDuration::from_mins(30);
/// ... or later than three years ahead.
pub const MAX_AHEAD: SignedDuration = SignedDuration::from_hours(3 * 365 * 24);

fn when(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

impl AlibabaCloud {
    pub(super) fn line(&self, product: Product, action: &str, params: &[(&str, String)]) -> String {
        let mut all = Vec::new();
        if super::rpc::takes_region(action) {
            all.push(("RegionId", self.region().to_string()));
        }
        all.extend(params.iter().cloned());
        describe(product, action, &all)
    }
}

#[async_trait]
impl OwnActions for AlibabaCloud {
    async fn snapshot_clean(&self, plan: SnapshotPlan<'_>) -> Result<Outcome, ProviderError> {
        let (keep, final_snapshot, shown) = plan;
        self.clean_snapshots(keep, final_snapshot, shown).await
    }

    async fn set_deadline(&self, at: Option<Timestamp>) -> Result<Outcome, ProviderError> {
        let at = at.map(to_minute);
        if let Some(at) = at {
            check_ahead(at, self.common.now())?;
        }
        let id = self.instance_id().await?;
        let mut params = vec![("InstanceId", id.clone())];
        if let Some(at) = at {
            params.push(("AutoReleaseTime", model::format_time(at)));
        }
        let mut calls = vec![self.line(Product::Ecs, "ModifyInstanceAutoReleaseTime", &params)];
        let call = self
            .rpc
            .call::<Ack>(Product::Ecs, "ModifyInstanceAutoReleaseTime", &params)
            .await;
        if call.is_ok() {
            // Accepted: the provider knows the instance.
            self.saw(&id);
        }
        calls.push(self.readback_line(&id, &crate::t!("alibaba-until-release-time")));
        let holds =
            |i: Option<&model::Instance>| i.is_none_or(|i| parse_time(&i.auto_release_time) == at);
        let read =
            actions::poll(self, &id, self.common.readback.attempts_after(&call), holds).await;
        let held = |i: &model::Instance| {
            parse_time(&i.auto_release_time).map_or_else(
                || crate::t!("alibaba-holds-no-release").into_owned(),
                |t| crate::t!("alibaba-holds-release-at", at = when(t)),
            )
        };
        if matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let summary = match (&call, &read) {
            (_, Ok(None)) => crate::t!("alibaba-deadline-released", id = id.as_str()),
            (_, Ok(Some(i))) if holds(Some(i)) => match at {
                Some(at) => crate::t!("alibaba-deadline-set", id = id.as_str(), at = when(at)),
                None => crate::t!("alibaba-deadline-cancelled", id = id.as_str()),
            },
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), Ok(Some(i))) => crate::t!("alibaba-deadline-accepted-holds", held = held(i)),
            (Err(e), Ok(Some(i))) => crate::t!(
                "alibaba-deadline-failed-holds",
                error = e.to_string(),
                held = held(i)
            ),
            (Ok(_), Err(e)) => crate::t!(
                "alibaba-accepted-unread",
                call = "ModifyInstanceAutoReleaseTime",
                error = e.to_string()
            ),
        };
        let confirmed = matches!(&read, Ok(Some(i)) if holds(Some(i)));
        Ok((confirmed, summary, calls))
    }
}

/// The provider keeps minutes only: drop the seconds (never later than asked).
pub fn to_minute(at: Timestamp) -> Timestamp {
    let s = at.as_second();
    Timestamp::from_second(s - s.rem_euclid(60)).unwrap_or(at)
}

/// Rejects an auto-release time the provider would refuse, before calling it.
pub fn check_ahead(at: Timestamp, now: Timestamp) -> Result<(), ProviderError> {
    let ahead = at.duration_since(now);
    if ahead < MIN_AHEAD {
        let mins = ahead.as_secs().div_euclid(60);
        return Err(ProviderError::rejected("alibaba").with_message(&crate::t!(
            "alibaba-too-soon",
            at = when(at),
            mins = mins.to_string()
        )));
    }
    if ahead > MAX_AHEAD {
        return Err(ProviderError::rejected("alibaba")
            .with_message(&crate::t!("alibaba-too-late", at = when(at))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thirty_minute_rule_is_checked_before_calling() {
        let now: Timestamp = "2026-01-01T10:00:00Z".parse().unwrap();
        let at = |mins: i64| now + SignedDuration::from_mins(mins);
        assert!(check_ahead(at(29), now).is_err());
        assert!(check_ahead(at(30), now).is_ok());
        assert!(
            check_ahead(at(-5), now)
                .unwrap_err()
                .to_string()
                .contains("30 minutes")
        );
        assert!(check_ahead(at(60 * 24 * 365 * 4), now).is_err());
    }

    #[test]
    fn the_thirty_minute_rule_reads_in_chinese() {
        use crate::i18n::{Lang, scoped};
        let now: Timestamp = "2026-01-01T10:00:00Z".parse().unwrap();
        let soon = now + SignedDuration::from_mins(10);
        let e = scoped(Lang::ZhCn, || check_ahead(soon, now).unwrap_err());
        let message = e.message();
        assert!(message.contains("阿里云要求"), "{message}");
        assert!(
            message.contains("2026-01-01 10:10 UTC 距现在 10 分钟"),
            "{message}"
        );
    }

    #[test]
    fn deadlines_drop_their_seconds() {
        let t: Timestamp = "2026-01-01T10:31:59Z".parse().unwrap();
        assert_eq!(model::format_time(to_minute(t)), "2026-01-01T10:31:00Z");
    }
}

//! The release deadline (an instance action timer), read back before it is reported (release,
//! stop and start run in the skeleton's [`actions`]). A call that fails leaves the outcome to
//! the read-back: if the provider shows the effect, it happened; if not, the report says so and
//! is not confirmed.

use async_trait::async_trait;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use super::TencentCloud;
use super::api::{ApiError, describe};
use super::inventory::{earliest, timer_filter, zoneless};
use super::model::{self, format_time};
use crate::provider::http::Repeat;
use crate::provider::rpc_cloud::actions::{self, Outcome, OwnActions};
use crate::provider::rpc_cloud::{Call, CallError};
use crate::provider::{Action, ProviderError};

/// The provider refuses an action time sooner than this.
pub const MIN_AHEAD: SignedDuration = SignedDuration::from_mins(5);

fn when(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
}

pub(super) fn ids(id: &str) -> Value {
    json!({"InstanceIds": [id]})
}

fn import_body(id: &str, at: Timestamp) -> Value {
    json!({"InstanceIds": [id], "ActionTimer": {"TimerAction": "TerminateInstances", "ActionTime": format_time(at)}})
}

impl TencentCloud {
    pub(super) fn plan_calls(&self, action: &Action) -> Vec<String> {
        let id = self.planned_instance();
        match action {
            Action::Release => actions::plan(self, Call::Release, &id),
            Action::Stop => actions::plan(self, Call::Stop, &id),
            Action::Start => actions::plan(self, Call::Start, &id),
            Action::SnapshotClean { .. } | Action::Cleanup { .. } => Vec::new(),
            Action::SetDeadline { at } => {
                let mut calls = vec![describe("DescribeInstancesActionTimer", &timer_filter(&id))];
                if let Some(at) = at {
                    calls.push(describe(
                        "ImportInstancesActionTimer",
                        &import_body(&id, *at),
                    ));
                }
                let others = crate::t!("tencent-plan-other-timers");
                calls.push(describe(
                    "DeleteInstancesActionTimer",
                    &json!({ "ActionTimerIds": [others] }),
                ));
                calls.push(crate::t!(
                    "tencent-plan-read-back-timer",
                    call = describe("DescribeInstancesActionTimer", &timer_filter(&id))
                ));
                calls
            }
        }
    }

    /// Sends `action` with `body`, its line added to `calls`; the error, if it failed.
    async fn noted<R: serde::de::DeserializeOwned>(
        &self,
        calls: &mut Vec<String>,
        (action, body, repeat): (&'static str, &Value, Repeat),
    ) -> Option<ApiError> {
        calls.push(describe(action, body));
        self.api.call::<R>(action, body, repeat).await.err()
    }
}

/// Snapshots live in the CBS API, which this adapter does not call: snapshot-clean is the
/// skeleton's refusal.
#[async_trait]
impl OwnActions for TencentCloud {
    async fn set_deadline(&self, at: Option<Timestamp>) -> Result<Outcome, ProviderError> {
        // `ActionTime` holds whole seconds: what is read back is compared with what was sent.
        let at = at.map(|t| Timestamp::from_second(t.as_second()).unwrap_or(t));
        if let Some(at) = at {
            check_ahead(at, self.common.now())?;
        }
        let id = self.instance_id().await?;
        let mut calls = vec![describe("DescribeInstancesActionTimer", &timer_filter(&id))];
        let before = self.timers(&id).await?;
        // The new timer first, then the old ones go: a failure never leaves no deadline at all.
        let mut failure: Option<ApiError> = None;
        if let Some(at) = at {
            let body = import_body(&id, at);
            // No idempotency token: a repeat could add a second timer, so it is sent once.
            let import = ("ImportInstancesActionTimer", &body, Repeat::Once);
            failure = self.noted::<model::ImportReply>(&mut calls, import).await;
        }
        let old: Vec<String> = before
            .iter()
            .filter(|t| at.is_none() || model::parse_action_time(&t.action_time).instant() != at)
            .map(|t| t.action_timer_id.clone())
            .collect();
        if failure.is_none() && !old.is_empty() {
            let body = json!({ "ActionTimerIds": old });
            let delete = ("DeleteInstancesActionTimer", &body, Repeat::Safe);
            failure = self.noted::<model::Ack>(&mut calls, delete).await;
        }
        calls.push(crate::t!(
            "rpc-call-read-back",
            call = describe("DescribeInstancesActionTimer", &timer_filter(&id))
        ));
        let holds = |timers: &[model::ActionTimer]| match at {
            Some(at) => earliest(timers) == Some(at),
            None => timers.is_empty(),
        };
        let attempts = if failure.is_none() {
            self.common.readback.attempts
        } else {
            1
        };
        let mut read = self.timers(&id).await;
        for _ in 1..attempts {
            if matches!(&read, Ok(t) if holds(t)) || matches!(&read, Err(ApiError::Auth { .. })) {
                break;
            }
            tokio::time::sleep(self.common.readback.interval).await;
            read = self.timers(&id).await;
        }
        let held = |timers: &[model::ActionTimer]| {
            let line = earliest(timers).map_or_else(
                || crate::t!("tencent-holds-no-timer").into_owned(),
                |t| crate::t!("tencent-holds-timer-at", at = when(t)),
            );
            let plain = zoneless(timers);
            if plain.is_empty() {
                return line;
            }
            // The API documents no zone for `YYYY-MM-DD hh:mm:ss`: the instant is unknown.
            crate::t!(
                "tencent-holds-zoneless",
                held = line,
                times = plain.join(", ")
            )
        };
        let confirmed = matches!(&read, Ok(t) if holds(t));
        let summary = match (&failure, &read) {
            (_, Ok(t)) if holds(t) => match at {
                Some(at) => crate::t!("tencent-deadline-set", id = id.as_str(), at = when(at)),
                None => crate::t!("tencent-deadline-cancelled", id = id.as_str()),
            },
            (Some(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Some(e), Err(_)) => return Err(e.clone().into()),
            (None, Ok(t)) => crate::t!("tencent-deadline-accepted-holds", held = held(t)),
            (Some(e), Ok(t)) => crate::t!(
                "tencent-deadline-failed-holds",
                error = e.to_string(),
                held = held(t)
            ),
            (None, Err(e)) => crate::t!("tencent-deadline-unread", error = e.to_string()),
        };
        Ok((confirmed, summary, calls))
    }
}

/// Rejects an action time the provider would refuse, before calling it.
pub fn check_ahead(at: Timestamp, now: Timestamp) -> Result<(), ProviderError> {
    let ahead = at.duration_since(now);
    if ahead < MIN_AHEAD {
        return Err(ProviderError::rejected("tencent").with_message(&crate::t!(
            "tencent-too-soon",
            at = when(at),
            secs = ahead.as_secs().to_string()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_minute_rule_reads_in_chinese() {
        use crate::i18n::{Lang, scoped};
        let now: Timestamp = "2026-01-01T10:00:00Z".parse().unwrap();
        let soon = now + SignedDuration::from_mins(4);
        let e = scoped(Lang::ZhCn, || check_ahead(soon, now).unwrap_err());
        let message = e.message();
        assert!(message.contains("腾讯云要求"), "{message}");
        assert!(
            message.contains("2026-01-01 10:04:00 UTC 距现在 240 秒"),
            "{message}"
        );
    }

    #[test]
    fn the_five_minute_rule_is_checked_before_calling() {
        let now: Timestamp = "2026-01-01T10:00:00Z".parse().unwrap();
        assert!(check_ahead(now + SignedDuration::from_mins(4), now).is_err());
        assert!(check_ahead(now + SignedDuration::from_mins(5), now).is_ok());
        assert!(
            check_ahead(now, now)
                .unwrap_err()
                .to_string()
                .contains("5 minutes")
        );
    }
}

//! Release, stop, start and the release deadline (an instance action timer), each read back
//! before it is reported. A call that fails leaves the outcome to the read-back: if the provider shows the
//! effect, it happened; if not, the report says so and is not confirmed.

use std::fmt::Write as _;

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use super::TencentCloud;
use super::api::{ApiError, describe};
use super::inventory::{earliest, timer_filter, zoneless};
use super::model::{self, format_time};
use crate::provider::http::Repeat;
use crate::provider::{Action, ActionReport, ProviderError};

/// The provider refuses an action time sooner than this.
pub const MIN_AHEAD: SignedDuration = SignedDuration::from_mins(5);

type Read = Result<Option<model::Instance>, ApiError>;
type Outcome = (bool, String, Vec<String>);

fn when(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
}

fn status_of(read: &Read) -> String {
    match read {
        Ok(Some(i)) => format!("lists it as {}", i.instance_state),
        Ok(None) => "no longer lists it".into(),
        Err(e) => format!("could not be read ({e})"),
    }
}

fn ids(id: &str) -> Value {
    json!({"InstanceIds": [id]})
}

fn terminate_body(id: &str) -> Value {
    json!({"InstanceIds": [id], "ReleaseAddress": true})
}

fn import_body(id: &str, at: Timestamp) -> Value {
    json!({"InstanceIds": [id], "ActionTimer": {"TimerAction": "TerminateInstances", "ActionTime": format_time(at)}})
}

impl TencentCloud {
    fn stop_body(&self, id: &str) -> Value {
        json!({"InstanceIds": [id], "StopType": "SOFT_FIRST", "StoppedMode": self.stopped_mode.as_str()})
    }

    fn readback_line(id: &str, until: &str) -> String {
        format!(
            "{} (read back until {until})",
            describe("DescribeInstances", &ids(id))
        )
    }

    /// Reads the instance until `done` holds, at most `attempts` times; a refused key ends it.
    /// Not listed counts only when several reads in a row agree.
    async fn poll(
        &self,
        id: &str,
        attempts: u32,
        done: impl Fn(Option<&model::Instance>) -> bool,
    ) -> Read {
        self.readback
            .poll_listed(
                attempts,
                || self.describe_instance(id),
                done,
                |e| matches!(e, ApiError::Auth { .. }),
            )
            .await
    }

    pub(super) fn plan_calls(&self, action: &Action) -> Vec<String> {
        let id = self.planned_instance();
        match action {
            Action::Release => vec![
                describe("TerminateInstances", &terminate_body(&id)),
                Self::readback_line(&id, "it is no longer listed"),
            ],
            Action::Stop => vec![
                describe("StopInstances", &self.stop_body(&id)),
                Self::readback_line(&id, "STOPPED, then its StopChargingMode"),
            ],
            Action::Start => vec![
                describe("DescribeInstances", &ids(&id)),
                describe("StartInstances", &ids(&id)),
                Self::readback_line(&id, "RUNNING"),
            ],
            Action::SnapshotClean { .. } | Action::Cleanup { .. } => Vec::new(),
            Action::SetDeadline { at } => {
                let mut calls = vec![describe("DescribeInstancesActionTimer", &timer_filter(&id))];
                if let Some(at) = at {
                    calls.push(describe(
                        "ImportInstancesActionTimer",
                        &import_body(&id, *at),
                    ));
                }
                calls.push(describe(
                    "DeleteInstancesActionTimer",
                    &json!({"ActionTimerIds": ["<each other pending release timer>"]}),
                ));
                calls.push(
                    describe("DescribeInstancesActionTimer", &timer_filter(&id))
                        + " (read back until the earliest pending timer is the deadline)",
                );
                calls
            }
        }
    }

    pub(super) async fn run_action(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let (confirmed, summary, calls) = match action {
            Action::Release => self.release().await?,
            Action::Stop => self.stop().await?,
            Action::Cleanup { .. } => return Err(crate::provider::cleanup::not_here("tencent")),
            Action::Start => self.start().await?,
            Action::SnapshotClean { .. } => {
                return Err(ProviderError::unsupported(
                    "tencent",
                    "clean snapshots (they live in the CBS API, which this adapter does not call)",
                ));
            }
            Action::SetDeadline { at } => self.set_deadline(*at).await?,
        };
        Ok(ActionReport {
            action: action.clone(),
            confirmed,
            summary,
            calls,
        })
    }

    async fn release(&self) -> Result<Outcome, ProviderError> {
        let id = self.instance_id().await?;
        let body = terminate_body(&id);
        let mut calls = vec![describe("TerminateInstances", &body)];
        // Repeating a terminate cannot do more: a second one finds nothing to terminate.
        let call = self
            .api
            .call::<model::Ack>("TerminateInstances", &body, Repeat::Safe)
            .await;
        if call.is_ok() {
            // Accepted: the provider knows the instance.
            self.sightings.saw("tencent", Some(self.region()), &id);
        }
        let gone_already = matches!(&call, Err(e) if e.is_not_found());
        calls.push(Self::readback_line(&id, "it is no longer listed"));
        let attempts = if gone_already {
            1
        } else {
            self.readback.attempts_after(&call)
        };
        let gone = |i: Option<&model::Instance>| i.is_none_or(|i| i.instance_state == "SHUTDOWN");
        let read = self.poll(&id, attempts, gone).await;
        // Not listed after a call that was not accepted: released only if it was ever seen.
        if call.is_err() && matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let leftovers = self.leftover_note(&id);
        let summary = match (&call, &read) {
            (_, Ok(None)) if gone_already => {
                format!(
                    "{id} was already released: the provider no longer lists the instance this data directory saw"
                )
            }
            (_, Ok(None)) => format!("{id} released: the provider no longer lists it{leftovers}"),
            (_, Ok(Some(i))) if gone(Some(i)) => {
                format!("{id} is in the recycle bin (SHUTDOWN): compute no longer bills{leftovers}")
            }
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), _) => format!(
                "TerminateInstances was accepted, but the provider {}",
                status_of(&read)
            ),
            (Err(e), _) => format!(
                "TerminateInstances failed ({e}); the provider {}",
                status_of(&read)
            ),
        };
        let confirmed = matches!(&read, Ok(found) if gone(found.as_ref()));
        Ok((confirmed, summary, calls))
    }

    /// What the release left billing, from what was last seen with the instance.
    fn leftover_note(&self, id: &str) -> String {
        let staying: Vec<String> = self
            .known(id)
            .iter()
            .filter(|r| !r.deleted_with_instance)
            .map(|r| format!("{} {}", r.kind.label(), r.id))
            .collect();
        if staying.is_empty() {
            String::new()
        } else {
            format!("; still billing: {}", staying.join(", "))
        }
    }

    async fn stop(&self) -> Result<Outcome, ProviderError> {
        let id = self.instance_id().await?;
        let asked = self.stopped_mode.as_str();
        let body = self.stop_body(&id);
        let mut calls = vec![describe("StopInstances", &body)];
        // Stopping a stopped instance changes nothing: safe to repeat.
        let call = self
            .api
            .call::<model::Ack>("StopInstances", &body, Repeat::Safe)
            .await;
        if call.is_ok() {
            // Accepted: the provider knows the instance.
            self.sightings.saw("tencent", Some(self.region()), &id);
        }
        calls.push(Self::readback_line(
            &id,
            "STOPPED, then its StopChargingMode",
        ));
        let stopped = |i: &model::Instance| i.instance_state == "STOPPED";
        let read = self
            .poll(&id, self.readback.attempts_after(&call), |i| {
                i.is_none_or(stopped)
            })
            .await;
        if matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let summary = match (&call, &read) {
            (_, Ok(None)) => {
                format!("{id} is no longer listed: it is released, there is nothing to stop")
            }
            (_, Ok(Some(i))) if stopped(i) => stop_summary(&id, asked, &i.stop_charging_mode),
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), _) => format!(
                "StopInstances was accepted, but the provider {}",
                status_of(&read)
            ),
            (Err(e), _) => format!(
                "StopInstances failed ({e}); the provider {}",
                status_of(&read)
            ),
        };
        let confirmed = matches!(&read, Ok(Some(i)) if stopped(i));
        Ok((confirmed, summary, calls))
    }

    /// `StartInstances` of a stopped instance, read back until DescribeInstances shows it
    /// `RUNNING` (it goes `STARTING` first). The instance is read before: one already running,
    /// or no longer listed, is left alone.
    async fn start(&self) -> Result<Outcome, ProviderError> {
        let id = self.instance_id().await?;
        let mut calls = vec![describe("DescribeInstances", &ids(&id))];
        match self.describe_instance(&id).await? {
            None => {
                self.absent(&id)?;
                return Ok((
                    false,
                    format!("{id} is no longer listed: it is released, there is nothing to start"),
                    calls,
                ));
            }
            Some(i) if i.instance_state == "RUNNING" => {
                return Ok((true, format!("{id} is already running (`RUNNING`)"), calls));
            }
            Some(_) => {}
        }
        let body = ids(&id);
        calls.push(describe("StartInstances", &body));
        // Starting a starting instance changes nothing: safe to repeat.
        let call = self
            .api
            .call::<model::Ack>("StartInstances", &body, Repeat::Safe)
            .await;
        calls.push(Self::readback_line(&id, "RUNNING"));
        let running = |i: &model::Instance| i.instance_state == "RUNNING";
        let read = self
            .poll(&id, self.readback.attempts_after(&call), |i| {
                i.is_none_or(running)
            })
            .await;
        if matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let summary = match (&call, &read) {
            (_, Ok(None)) => {
                format!("{id} is no longer listed: it is released, there is nothing to start")
            }
            (_, Ok(Some(i))) if running(i) => {
                format!("{id} started: the provider lists it as RUNNING, and compute bills again")
            }
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), _) => format!(
                "StartInstances was accepted, but the provider {}",
                status_of(&read)
            ),
            (Err(e), _) => format!(
                "StartInstances failed ({e}); the provider {}",
                status_of(&read)
            ),
        };
        let confirmed = matches!(&read, Ok(Some(i)) if running(i));
        Ok((confirmed, summary, calls))
    }

    async fn set_deadline(&self, at: Option<Timestamp>) -> Result<Outcome, ProviderError> {
        // `ActionTime` holds whole seconds: what is read back is compared with what was sent.
        let at = at.map(|t| Timestamp::from_second(t.as_second()).unwrap_or(t));
        if let Some(at) = at {
            check_ahead(at, (self.clock)())?;
        }
        let id = self.instance_id().await?;
        let mut calls = vec![describe("DescribeInstancesActionTimer", &timer_filter(&id))];
        let before = self.timers(&id).await?;
        // The new timer first, then the old ones go: a failure never leaves no deadline at all.
        let mut failure: Option<ApiError> = None;
        if let Some(at) = at {
            let body = import_body(&id, at);
            calls.push(describe("ImportInstancesActionTimer", &body));
            // No idempotency token: a repeat could add a second timer, so it is sent once.
            if let Err(e) = self
                .api
                .call::<model::ImportReply>("ImportInstancesActionTimer", &body, Repeat::Once)
                .await
            {
                failure = Some(e);
            }
        }
        let old: Vec<String> = before
            .iter()
            .filter(|t| at.is_none() || model::parse_action_time(&t.action_time).instant() != at)
            .map(|t| t.action_timer_id.clone())
            .collect();
        if failure.is_none() && !old.is_empty() {
            let body = json!({ "ActionTimerIds": old });
            calls.push(describe("DeleteInstancesActionTimer", &body));
            if let Err(e) = self
                .api
                .call::<model::Ack>("DeleteInstancesActionTimer", &body, Repeat::Safe)
                .await
            {
                failure = Some(e);
            }
        }
        calls.push(describe("DescribeInstancesActionTimer", &timer_filter(&id)) + " (read back)");
        let holds = |timers: &[model::ActionTimer]| match at {
            Some(at) => earliest(timers) == Some(at),
            None => timers.is_empty(),
        };
        let attempts = if failure.is_none() {
            self.readback.attempts
        } else {
            1
        };
        let mut read = self.timers(&id).await;
        for _ in 1..attempts {
            if matches!(&read, Ok(t) if holds(t)) || matches!(&read, Err(ApiError::Auth { .. })) {
                break;
            }
            tokio::time::sleep(self.readback.interval).await;
            read = self.timers(&id).await;
        }
        let held = |timers: &[model::ActionTimer]| {
            let mut line = earliest(timers).map_or_else(
                || "no release timer".to_string(),
                |t| format!("a release timer at {}", when(t)),
            );
            let plain = zoneless(timers);
            if !plain.is_empty() {
                // The API documents no zone for `YYYY-MM-DD hh:mm:ss`: the instant is unknown.
                let _ = write!(
                    line,
                    " (read back without a time zone: {}; the API does not say which zone, so it is not confirmed)",
                    plain.join(", ")
                );
            }
            line
        };
        let confirmed = matches!(&read, Ok(t) if holds(t));
        let summary = match (&failure, &read) {
            (_, Ok(t)) if holds(t) => match at {
                Some(at) => format!(
                    "the provider will release {id} at {} (action timer read back)",
                    when(at)
                ),
                None => format!("release timer of {id} cancelled: the provider holds none"),
            },
            (Some(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Some(e), Err(_)) => return Err(e.clone().into()),
            (None, Ok(t)) => format!(
                "the timer calls were accepted, but the provider holds {}",
                held(t)
            ),
            (Some(e), Ok(t)) => format!("{e}; the provider holds {}", held(t)),
            (None, Err(e)) => {
                format!("the timer calls were accepted, but reading them back failed ({e})")
            }
        };
        Ok((confirmed, summary, calls))
    }
}

fn stop_summary(id: &str, asked: &str, mode: &str) -> String {
    match mode {
        "STOP_CHARGING" => format!(
            "{id} stopped (STOP_CHARGING): CPU and memory no longer bill; disks, bandwidth and images still do"
        ),
        "KEEP_CHARGING" if asked == "STOP_CHARGING" => format!(
            "{id} stopped, but still charging compute (KEEP_CHARGING): the provider did not apply \
             STOP_CHARGING to this instance, so everything still bills"
        ),
        "KEEP_CHARGING" => {
            format!("{id} stopped, still charging compute (KEEP_CHARGING, as asked)")
        }
        other => {
            format!("{id} stopped; StopChargingMode reads `{other}`, so assume compute still bills")
        }
    }
}

/// Rejects an action time the provider would refuse, before calling it.
pub fn check_ahead(at: Timestamp, now: Timestamp) -> Result<(), ProviderError> {
    let ahead = at.duration_since(now);
    if ahead < MIN_AHEAD {
        return Err(ProviderError::rejected("tencent").with_message(&format!(
            "Tencent Cloud needs a release timer at least 5 minutes ahead: {} is {} s from now",
            when(at),
            ahead.as_secs()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn stop_summaries_tell_the_billing_truth() {
        assert!(
            stop_summary("ins-1", "STOP_CHARGING", "KEEP_CHARGING")
                .contains("still charging compute (KEEP_CHARGING)")
        );
        assert!(stop_summary("ins-1", "STOP_CHARGING", "STOP_CHARGING").contains("no longer bill"));
        assert!(
            stop_summary("ins-1", "STOP_CHARGING", "NOT_APPLICABLE")
                .contains("assume compute still bills")
        );
    }
}

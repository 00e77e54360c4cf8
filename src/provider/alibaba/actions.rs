//! Release, stop, start, snapshot-clean and the auto-release deadline, each read back before
//! it is reported. A call that fails leaves the outcome to the read-back: if DescribeInstances shows
//! the effect, it happened; if it does not, the report says so and is not confirmed.

use jiff::{SignedDuration, Timestamp};

use super::AlibabaCloud;
use super::inventory::json_ids;
use super::model::{self, Ack, parse_time};
use super::rpc::{Product, RpcError, describe};
use crate::provider::{Action, ActionReport, ProviderError};

/// Alibaba refuses an auto-release time sooner than this.
pub const MIN_AHEAD: SignedDuration = SignedDuration::from_mins(30);
/// ... or later than three years ahead.
pub const MAX_AHEAD: SignedDuration = SignedDuration::from_hours(3 * 365 * 24);

type Read = Result<Option<model::Instance>, RpcError>;

fn when(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

fn status_of(read: &Read) -> String {
    match read {
        Ok(Some(i)) => format!("lists it as {}", i.status),
        Ok(None) => "no longer lists it".into(),
        Err(e) => format!("could not be read ({e})"),
    }
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

    pub(super) fn readback_line(&self, id: &str, until: &str) -> String {
        format!(
            "{} (read back until {until})",
            self.line(
                Product::Ecs,
                "DescribeInstances",
                &[("InstanceIds", json_ids(&[id]))]
            )
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
                |e| matches!(e, RpcError::Auth { .. }),
            )
            .await
    }

    pub(super) async fn run_action(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let (confirmed, summary, calls) = match action {
            Action::Release => self.release().await?,
            Action::Stop => self.stop().await?,
            Action::Cleanup { .. } => return Err(crate::provider::cleanup::not_here("alibaba")),
            Action::Start => self.start().await?,
            Action::SnapshotClean {
                keep,
                final_snapshot,
                delete,
            } => {
                self.snapshot_clean(*keep, *final_snapshot, delete.as_deref())
                    .await?
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

    async fn release(&self) -> Result<(bool, String, Vec<String>), ProviderError> {
        let id = self.instance_id().await?;
        let params = [("InstanceId", id.clone()), ("Force", "true".to_string())];
        let mut calls = vec![self.line(Product::Ecs, "DeleteInstance", &params)];
        let call = self
            .rpc
            .call::<Ack>(Product::Ecs, "DeleteInstance", &params)
            .await;
        if call.is_ok() {
            // Accepted: the provider knows the instance.
            self.sightings.saw("alibaba", Some(self.region()), &id);
        }
        let gone_already = matches!(&call, Err(e) if e.is_not_found());
        calls.push(self.readback_line(&id, "it is no longer listed"));
        let attempts = if gone_already {
            1
        } else {
            self.readback.attempts_after(&call)
        };
        let read = self.poll(&id, attempts, |i| i.is_none()).await;
        // Not listed after a call that was not accepted: released only if it was ever seen.
        if call.is_err() && matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let summary = match (&call, &read) {
            (_, Ok(None)) if gone_already => {
                format!(
                    "{id} was already released: the provider no longer lists the instance this data directory saw"
                )
            }
            (_, Ok(None)) => format!(
                "{id} released: the provider no longer lists it{}",
                self.leftover_note().await
            ),
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), _) => format!(
                "DeleteInstance was accepted, but the provider {}",
                status_of(&read)
            ),
            (Err(e), _) => format!(
                "DeleteInstance failed ({e}); the provider {}",
                status_of(&read)
            ),
        };
        Ok((matches!(read, Ok(None)), summary, calls))
    }

    /// What the release left billing, from what this process saw linked to the instance.
    async fn leftover_note(&self) -> String {
        if self.known().linked.is_empty() {
            return "; run `gpumeter checklist` for what still bills".into();
        }
        match self.read_inventory().await {
            Ok(inv) if inv.resources.is_empty() => "; nothing linked to it is left".into(),
            Ok(inv) => {
                let names: Vec<String> = inv
                    .resources
                    .iter()
                    .map(|r| format!("{} {}", r.kind.label(), r.id))
                    .collect();
                format!("; still billing: {}", names.join(", "))
            }
            Err(e) => format!("; the leftovers could not be listed ({e})"),
        }
    }

    async fn stop(&self) -> Result<(bool, String, Vec<String>), ProviderError> {
        let id = self.instance_id().await?;
        let asked = self.stopped_mode.as_str();
        let params = [
            ("InstanceId", id.clone()),
            ("StoppedMode", asked.to_string()),
        ];
        let mut calls = vec![self.line(Product::Ecs, "StopInstance", &params)];
        let call = self
            .rpc
            .call::<Ack>(Product::Ecs, "StopInstance", &params)
            .await;
        if call.is_ok() {
            // Accepted: the provider knows the instance.
            self.sightings.saw("alibaba", Some(self.region()), &id);
        }
        calls.push(self.readback_line(&id, "Stopped, then its StoppedMode"));
        let read = self
            .poll(&id, self.readback.attempts_after(&call), |i| {
                i.is_none_or(|i| i.status == "Stopped")
            })
            .await;
        if matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let summary = match (&call, &read) {
            (_, Ok(None)) => {
                format!("{id} is no longer listed: it is released, there is nothing to stop")
            }
            (_, Ok(Some(i))) if i.status == "Stopped" => stop_summary(&id, asked, &i.stopped_mode),
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), _) => format!(
                "StopInstance was accepted, but the provider {}",
                status_of(&read)
            ),
            (Err(e), _) => format!(
                "StopInstance failed ({e}); the provider {}",
                status_of(&read)
            ),
        };
        let confirmed = matches!(&read, Ok(Some(i)) if i.status == "Stopped");
        Ok((confirmed, summary, calls))
    }

    /// `StartInstance` of a stopped instance, read back until DescribeInstances shows it
    /// `Running` (it goes `Starting` first). The instance is read before: one already running,
    /// or no longer listed, is left alone.
    async fn start(&self) -> Result<(bool, String, Vec<String>), ProviderError> {
        let id = self.instance_id().await?;
        let mut calls = vec![self.line(
            Product::Ecs,
            "DescribeInstances",
            &[("InstanceIds", json_ids(&[&id]))],
        )];
        match self.describe_instance(&id).await? {
            None => {
                self.absent(&id)?;
                return Ok((
                    false,
                    format!("{id} is no longer listed: it is released, there is nothing to start"),
                    calls,
                ));
            }
            Some(i) if i.status == "Running" => {
                return Ok((true, format!("{id} is already running (`Running`)"), calls));
            }
            Some(_) => {}
        }
        let params = [("InstanceId", id.clone())];
        calls.push(self.line(Product::Ecs, "StartInstance", &params));
        let call = self
            .rpc
            .call::<Ack>(Product::Ecs, "StartInstance", &params)
            .await;
        calls.push(self.readback_line(&id, "Running"));
        let running = |i: &model::Instance| i.status == "Running";
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
                format!("{id} started: the provider lists it as Running, and compute bills again")
            }
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), _) => format!(
                "StartInstance was accepted, but the provider {}",
                status_of(&read)
            ),
            (Err(e), _) => format!(
                "StartInstance failed ({e}); the provider {}",
                status_of(&read)
            ),
        };
        let confirmed = matches!(&read, Ok(Some(i)) if running(i));
        Ok((confirmed, summary, calls))
    }

    async fn set_deadline(
        &self,
        at: Option<Timestamp>,
    ) -> Result<(bool, String, Vec<String>), ProviderError> {
        let at = at.map(to_minute);
        if let Some(at) = at {
            check_ahead(at, (self.clock)())?;
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
            self.sightings.saw("alibaba", Some(self.region()), &id);
        }
        calls.push(self.readback_line(&id, "AutoReleaseTime shows it"));
        let holds =
            |i: Option<&model::Instance>| i.is_none_or(|i| parse_time(&i.auto_release_time) == at);
        let read = self
            .poll(&id, self.readback.attempts_after(&call), holds)
            .await;
        let held = |i: &model::Instance| {
            parse_time(&i.auto_release_time).map_or_else(
                || "no auto-release time".to_string(),
                |t| format!("auto-release at {}", when(t)),
            )
        };
        if matches!(read, Ok(None)) {
            self.absent(&id)?;
        }
        let summary = match (&call, &read) {
            (_, Ok(None)) => format!("{id} is no longer listed: it is released"),
            (_, Ok(Some(i))) if holds(Some(i)) => match at {
                Some(at) => format!(
                    "the provider will release {id} at {} (auto-release time read back)",
                    when(at)
                ),
                None => {
                    format!("auto-release of {id} cancelled: the provider holds no release time")
                }
            },
            (Err(e), _) if e.is_refusal() => return Err(e.clone().into()),
            (Err(e), Err(_)) => return Err(e.clone().into()),
            (Ok(_), Ok(Some(i))) => format!(
                "ModifyInstanceAutoReleaseTime was accepted, but the provider holds {}",
                held(i)
            ),
            (Err(e), Ok(Some(i))) => format!(
                "ModifyInstanceAutoReleaseTime failed ({e}); the provider holds {}",
                held(i)
            ),
            (Ok(_), Err(e)) => format!(
                "ModifyInstanceAutoReleaseTime was accepted, but reading it back failed ({e})"
            ),
        };
        let confirmed = matches!(&read, Ok(Some(i)) if holds(Some(i)));
        Ok((confirmed, summary, calls))
    }
}

fn stop_summary(id: &str, asked: &str, mode: &str) -> String {
    match mode {
        "StopCharging" => format!(
            "{id} stopped (StopCharging): compute no longer bills; disks, EIPs and snapshots still do"
        ),
        "KeepCharging" if asked == "StopCharging" => format!(
            "{id} stopped, but still charging compute (KeepCharging): the provider did not apply \
             StopCharging to this instance, so everything still bills"
        ),
        "KeepCharging" => format!("{id} stopped, still charging compute (KeepCharging, as asked)"),
        other => {
            format!("{id} stopped; StoppedMode reads `{other}`, so assume compute still bills")
        }
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
        return Err(ProviderError::rejected("alibaba").with_message(&format!(
            "Alibaba Cloud needs the auto-release time at least 30 minutes ahead: {} is {mins} min from now",
            when(at)
        )));
    }
    if ahead > MAX_AHEAD {
        return Err(ProviderError::rejected("alibaba").with_message(&format!(
            "Alibaba Cloud takes an auto-release time at most 3 years ahead, not {}",
            when(at)
        )));
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
    fn deadlines_drop_their_seconds() {
        let t: Timestamp = "2026-01-01T10:31:59Z".parse().unwrap();
        assert_eq!(model::format_time(to_minute(t)), "2026-01-01T10:31:00Z");
    }

    #[test]
    fn stop_summaries_tell_the_billing_truth() {
        assert!(
            stop_summary("i-1", "StopCharging", "KeepCharging")
                .contains("still charging compute (KeepCharging)")
        );
        assert!(
            stop_summary("i-1", "StopCharging", "StopCharging").contains("compute no longer bills")
        );
        assert!(
            stop_summary("i-1", "StopCharging", "Not-applicable")
                .contains("assume compute still bills")
        );
    }
}

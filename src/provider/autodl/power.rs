//! Power off, power on and release, each read back through the status call until AutoDL shows
//! it done. A release powers the instance off first where it runs: the documentation says an
//! instance may not release before it is shut down ("在释放实例前请先关机实例，否则可能无法释放").

use std::ops::ControlFlow::{Break, Continue};

use super::Autodl;
use super::calls::{self, POWER_OFF, POWER_ON, RELEASE, describe_call, instance_call, status};
use super::model::state_of;
use crate::meter::InstanceState;
use crate::provider::ProviderError;
use crate::provider::bearer::{Api, ApiError};

/// What the adapter is asked to do to the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Stop,
    Start,
    Release,
}

impl Verb {
    fn word(self) -> std::borrow::Cow<'static, str> {
        match self {
            Verb::Stop => crate::t!("autodl-verb-power-off"),
            Verb::Start => crate::t!("autodl-verb-power-on"),
            Verb::Release => crate::t!("autodl-verb-release"),
        }
    }
}

/// `power_on`'s `payload`: `gpu` starts the instance with its cards. The documentation says
/// the API cannot start one without them ("暂不支持API以无卡模式开机"), so the no-GPU mode
/// (无卡模式) is refused here rather than sent as the `non_gpu` community scripts send to the
/// console's private endpoint.
pub fn power_on_payload(with_gpu: bool) -> Result<&'static str, ProviderError> {
    if with_gpu {
        Ok(WITH_GPU)
    } else {
        Err(ProviderError::unsupported(
            super::ID,
            crate::t!("autodl-no-gpu-unsupported"),
        ))
    }
}

/// `power_on`'s documented `payload` (有卡开机).
pub const WITH_GPU: &str = "gpu";

pub fn read_call(id: &str) -> String {
    Api::describe("GET", &calls::status_path(id))
}

impl Autodl {
    /// Runs `verb` on instance `id` unless it is already where `verb` takes it, then reads the
    /// status back until it is there.
    pub(super) async fn run(
        &self,
        api: &Api,
        id: &str,
        verb: Verb,
        calls: &mut Vec<String>,
    ) -> Result<(bool, String), ApiError> {
        calls.push(read_call(id));
        let before = status(api, id).await?;
        api.listed_or_absent(&self.held.sightings, id, before.is_some(), None)
            .map_err(ApiError::Unseen)?;
        let word = verb.word();
        let Some(now) = before else {
            return Ok(if verb == Verb::Release {
                (
                    true,
                    crate::t!("autodl-already-released-unknown").into_owned(),
                )
            } else {
                (false, crate::t!("autodl-gone-nothing-to", verb = word))
            });
        };
        match (verb, state_of(&now)) {
            (Verb::Release, InstanceState::Released) => {
                return Ok((true, crate::t!("autodl-already-released", status = now)));
            }
            (_, InstanceState::Released) => {
                return Ok((
                    false,
                    crate::t!("autodl-released-nothing-to", status = now, verb = word),
                ));
            }
            (Verb::Stop, InstanceState::Stopped) => {
                return Ok((true, crate::t!("autodl-already-shut-down", status = now)));
            }
            (Verb::Start, _) if now == "running" => {
                return Ok((true, crate::t!("autodl-already-running").into_owned()));
            }
            (Verb::Release, state) if state.is_up() => {
                let (off, summary) = self.send(api, id, Verb::Stop, calls).await?;
                if !off {
                    return Ok((
                        false,
                        crate::t!("autodl-not-released-power-off", summary = summary),
                    ));
                }
            }
            _ => {}
        }
        self.send(api, id, verb, calls).await
    }

    /// Sends `verb`'s call and reads the status back until it shows the effect.
    async fn send(
        &self,
        api: &Api,
        id: &str,
        verb: Verb,
        calls: &mut Vec<String>,
    ) -> Result<(bool, String), ApiError> {
        let (path, payload) = match verb {
            Verb::Stop => (POWER_OFF, None),
            Verb::Start => (POWER_ON, Some(WITH_GPU)),
            Verb::Release => (RELEASE, None),
        };
        calls.push(describe_call(path, id, payload));
        instance_call(api, path, id, payload).await?;
        calls.push(crate::t!("autodl-plan-read-back", call = read_call(id)));
        let word = verb.word();
        let reads = |s: &str| crate::t!("autodl-accepted-reads", verb = &*word, status = s);
        let seen = |found: Option<&String>| match (verb, found.map(String::as_str)) {
            (Verb::Release, None) => Break(crate::t!("autodl-accepted-gone", verb = &*word)),
            (_, None) => Continue(crate::t!("autodl-unknown-instance").into_owned()),
            (Verb::Release, Some(s)) if state_of(s) == InstanceState::Released => Break(reads(s)),
            (Verb::Stop, Some(s)) if state_of(s) == InstanceState::Stopped => Break(reads(s)),
            (Verb::Start, Some(s @ "running")) => Break(reads(s)),
            (_, Some(s)) => Continue(crate::t!("autodl-reads-back", status = s)),
        };
        Ok(self
            .held
            .readback
            .confirm(&word, || status(api, id), seen)
            .await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_no_gpu_mode_is_refused_as_the_documentation_says() {
        assert_eq!(power_on_payload(true).unwrap(), "gpu");
        let e = power_on_payload(false).unwrap_err();
        assert!(e.is_unsupported(), "{e:?}");
        assert!(e.to_string().contains("无卡模式"), "{e}");
    }
}

//! The skeleton of a signed-API cloud (Alibaba, Tencent, and the next one like them): each fills
//! in its own calls (how a call is named, sent and described, how its errors read, what its
//! instance states are called) and the generic functions here run the rest, the same way for
//! all of them: the start, stop and release sequences with their read-back ([`actions`]) and
//! the deletes of what an instance leaves behind ([`delete`]), and listings read to their end
//! ([`paging`]).

pub mod actions;
pub mod delete;
pub mod instance;
pub mod paging;

/// The region ids a DescribeRegions answer lists, in its order, trimmed; an item without one is
/// not a region. A region that takes no new instance may still hold what bills, so every one
/// listed is kept.
pub fn region_names<'a>(ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    ids.into_iter()
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(str::to_string)
        .collect()
}

use async_trait::async_trait;

use super::ProviderError;
use super::readback::Readback;

/// A cloud's error, as the skeleton judges it.
pub trait CallError: std::fmt::Display + Clone + Into<ProviderError> + Send + Sync {
    /// The provider said no to the request itself (not a 5xx, not a lost answer).
    fn is_refusal(&self) -> bool;
    /// The provider's not-found answer for the id.
    fn is_not_found(&self) -> bool;
    /// A refused key: waiting will not make it valid.
    fn is_auth(&self) -> bool;
}

/// An instance as the cloud's DescribeInstances lists it.
pub trait Listed: Send + Sync {
    /// The provider's word for its state.
    fn state(&self) -> &str;
    /// What the provider says a stopped instance still bills (its stopped mode).
    fn stopped_mode(&self) -> &str;
}

/// The instance actions the skeleton runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    Release,
    Stop,
    Start,
}

/// A cloud's words, as its API spells them.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    /// The call each action sends: release, stop, start.
    pub calls: [&'static str; 3],
    /// The states a start and a stop end in.
    pub running: &'static str,
    pub stopped: &'static str,
    pub stopped_mode: StoppedMode,
}

/// The field that says what a stopped instance still bills, and its values.
#[derive(Debug, Clone, Copy)]
pub struct StoppedMode {
    pub field: &'static str,
    /// The value that stops compute billing, and what still bills then, in a sentence.
    pub stop_charging: (&'static str, &'static str),
    /// The value that keeps compute billing.
    pub keep_charging: &'static str,
}

impl Words {
    /// Why a stopped instance's compute still bills, as a sweep's state
    /// (`Stopped (KeepCharging): compute still bills`); `None` when its stopped mode stops the
    /// compute bill. A mode left out or spelled otherwise is read as billing: keeping the
    /// charge is the provider's default.
    pub fn still_billing(&self, instance: &impl Listed) -> Option<String> {
        let mode = instance.stopped_mode();
        if mode == self.stopped_mode.stop_charging.0 {
            return None;
        }
        let unstated = format!("{} not stated", self.stopped_mode.field);
        let mode = if mode.is_empty() { &unstated } else { mode };
        Some(format!("{} ({mode}): compute still bills", self.stopped))
    }

    pub fn call(&self, call: Call) -> &'static str {
        let [release, stop, start] = self.calls;
        match call {
            Call::Release => release,
            Call::Stop => stop,
            Call::Start => start,
        }
    }
}

/// What one cloud fills in.
#[async_trait]
pub trait InstanceApi: Send + Sync {
    type Instance: Listed;
    type Error: CallError;
    const WORDS: Words;

    fn readback(&self) -> &Readback;
    /// The instance the actions are for.
    async fn instance_id(&self) -> Result<String, ProviderError>;
    /// One read of instance `id`; `None` when the provider does not list it.
    async fn describe_instance(&self, id: &str) -> Result<Option<Self::Instance>, Self::Error>;
    /// The call for `call` on instance `id`, in the words `--dry-run` prints.
    fn call_line(&self, call: Call, id: &str) -> String;
    /// The read of instance `id`, in those words.
    fn describe_line(&self, id: &str) -> String;
    /// Sends `call` for instance `id`.
    async fn send(&self, call: Call, id: &str) -> Result<(), Self::Error>;
    /// The provider accepted a call for instance `id`: it knows the instance.
    fn saw(&self, id: &str);
    /// The core's rule for an instance the provider does not list: released if it was seen,
    /// else an error naming where it was looked for.
    fn absent(&self, id: &str) -> Result<(), ProviderError>;
    /// The stopped mode a stop asks for.
    fn asked_mode(&self) -> &'static str;
    /// Whether a released instance still listed is in the provider's recycle bin, where it no
    /// longer bills compute.
    fn recycled(&self, _instance: &Self::Instance) -> bool {
        false
    }
    /// What the release of `id` left billing, as a note after the summary (`; still billing: ...`).
    async fn leftover_note(&self, id: &str) -> String;

    /// The read-back of instance `id`, in the words `--dry-run` prints.
    fn readback_line(&self, id: &str, until: &str) -> String {
        format!("{} (read back until {until})", self.describe_line(id))
    }
}

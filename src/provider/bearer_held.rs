//! What each one-key adapter (Lambda Cloud, RunPod, Vast.ai, AutoDL) holds alike beside its own
//! ids: the API (or why there is none), the states it saw, the read-back, the sightings and what
//! the last listing could not read; and the Provider methods and refusals that follow from them.

use std::sync::Mutex;

use super::bearer::{
    Api, ApiError, ApiKey, Cloud, Readback, StateLog, read_back_removal, removal_read_back,
};
use super::http::HttpPolicy;
use super::seen::Sightings;
use super::{Action, ActionReport, LinkedResource, ProviderError, ProviderKind};

pub struct Held {
    api: Result<Api, ProviderError>,
    pub log: StateLog,
    pub readback: Readback,
    pub sightings: Sightings,
    gaps: Mutex<Vec<String>>,
}

impl Held {
    pub fn new(
        cloud: Cloud,
        key: Result<ApiKey, ProviderError>,
        endpoint: &str,
        policy: HttpPolicy,
    ) -> Self {
        Held {
            api: key.and_then(|key| Api::new(cloud, endpoint, key, policy)),
            log: StateLog::default(),
            readback: Readback::default(),
            sightings: Sightings::default(),
            gaps: Mutex::new(Vec::new()),
        }
    }

    pub fn api(&self) -> Result<&Api, ProviderError> {
        self.api.as_ref().map_err(Clone::clone)
    }

    pub fn gaps(&self) -> Vec<String> {
        self.gaps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    pub fn set_gaps(&self, gaps: Vec<String>) {
        *self
            .gaps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = gaps;
    }
}

/// The instance the adapter watches, or the error that says how to name it: `what` is the
/// provider's word for it (`pod`), and inside the `inside` (`container`) `var` names it.
pub fn watched<'a>(
    id: Option<&'a str>,
    kind: ProviderKind,
    (what, inside, var): (&str, &str, &str),
) -> Result<&'a str, ProviderError> {
    id.ok_or_else(|| {
        let name = kind.id();
        ProviderError::state(
            name,
            crate::t!(
                "prov-no-instance",
                name = name,
                what = what,
                inside = inside,
                var = var
            ),
        )
        .with_fix(&crate::t!(
            "prov-no-instance-fix",
            inside = inside,
            var = var
        ))
    })
}

/// The listing `found`, or none and a gap (`what` unknown) when the key may not make that call:
/// the instance read with this key, so the key is good, and a 401 or 403 is that call's alone.
pub fn or_gap<T>(
    api: &Api,
    found: Result<Vec<T>, ApiError>,
    what: &str,
    gaps: &mut Vec<String>,
) -> Result<Vec<T>, ProviderError> {
    match found {
        Ok(found) => Ok(found),
        Err(e) if matches!(e.status(), Some(401 | 403)) => {
            gaps.push(crate::t!(
                "prov-gap",
                what = what,
                error = api.error(e).shown()
            ));
            Ok(Vec::new())
        }
        Err(e) => Err(api.error(e)),
    }
}

/// The calls deleting `r` makes: DELETE `path`, then GET `list` until `r` is no longer listed.
pub fn delete_plan(r: &LinkedResource, path: &str, list: &str) -> Vec<String> {
    vec![
        Api::describe("DELETE", path),
        removal_read_back(&Api::describe("GET", list), &r.id),
    ]
}

/// Ends the delete of `r`, whose DELETE `path` answered `sent`: a 404 (already gone, or the
/// wrong endpoint) leaves it to the read-back, which lists `list` through `listed` until `r` is
/// no longer there; any other refusal is the error.
pub async fn read_back_delete<Fut>(
    (api, readback): (&Api, &Readback),
    r: &LinkedResource,
    (path, list): (&str, &str),
    sent: Result<(), ApiError>,
    listed: impl FnMut() -> Fut,
) -> Result<ActionReport, ProviderError>
where
    Fut: Future<Output = Result<Option<()>, ApiError>>,
{
    match sent {
        Err(e) if e.status() != Some(404) => Err(api.error(e)),
        _ => Ok(read_back_removal(
            api,
            readback,
            r,
            Api::describe("DELETE", path),
            &Api::describe("GET", list),
            listed,
        )
        .await),
    }
}

/// Why `kind` refuses `action` when it is none of release, stop and start: a cleanup runs one
/// delete at a time, and no bearer cloud holds a deadline; `snapshots` says why it has none.
pub fn refusal(kind: ProviderKind, action: &Action, snapshots: &str) -> ProviderError {
    let what = match action {
        Action::Cleanup { .. } => return super::cleanup::not_here(kind.id()),
        Action::SnapshotClean { .. } => crate::t!("prov-no-snapshots", why = snapshots),
        _ => crate::t!("prov-no-deadline", provider = kind.display_name()),
    };
    ProviderError::unsupported(kind.id(), what)
}

/// The `Provider` methods a bearer adapter answers from its kind and its `held` field.
macro_rules! held_provider_methods {
    ($kind:expr) => {
        fn name(&self) -> &'static str {
            $kind.id()
        }

        fn add_seen(&self, seen: &crate::provider::Seen) {
            self.held.sightings.add(seen);
        }

        fn gaps(&self) -> Vec<String> {
            self.held.gaps()
        }

        fn capabilities(&self) -> crate::provider::Capabilities {
            $kind.capabilities()
        }
    };
}

pub(crate) use held_provider_methods;

/// An account listing's row: these APIs hold no deadline for an instance and give it no tags.
pub fn listed(instance: super::InstanceInfo, resources: Vec<LinkedResource>) -> super::Discovered {
    super::Discovered {
        instance,
        resources,
        deadline: None,
        tags: std::collections::BTreeMap::new(),
    }
}

/// `resource`, as attached to instance `id`.
pub fn attached(resource: &LinkedResource, id: &str) -> LinkedResource {
    LinkedResource {
        attached_to: Some(id.to_string()),
        ..resource.clone()
    }
}

//! AutoDL (autodl.com), on its developer API at `https://api.autodl.com` with the token alone in
//! `Authorization` (控制台 → 设置 → 开发者Token): the Pro instance's status and list row, power
//! off, power on (with its GPUs) and release, each read back; the account's private images,
//! which outlive a release; and the wallet's balance in CNY.
//!
//! Sources, each cited beside what it documents: the instance Pro API
//! (https://www.autodl.com/docs/instance_pro_api/), the elastic deployment API's image list
//! (https://www.autodl.com/docs/esd_api_doc/) and the balance
//! (https://www.autodl.com/docs/common_api/). What they leave open is in
//! docs/providers/autodl.md.
//!
//! The instance details call (`GET .../pro/snapshot`) is never made: it answers the root
//! password and the Jupyter token, and nothing here needs them. Its name is no disk snapshot:
//! the API has none to list or delete.

mod balance;
pub mod calls;
pub mod model;
mod power;
pub mod token;

pub use power::{Verb, power_on_payload};

use std::collections::BTreeMap;

use async_trait::async_trait;
use jiff::Timestamp;

use self::calls::{POWER_OFF, POWER_ON, RELEASE, describe_call};
use self::model::{Image, Row, row_state, sku_of, state_of};
use super::bearer::{
    Api, ApiError, Cloud, Forbidden, KeyEnv, Readback, Scheme, Settings, StateLog,
};
use super::bearer_held::{Held, held_provider_methods, listed, refusal};
use super::http::HttpPolicy;
use super::refresh::Look;
use super::{
    Action, ActionReport, Balance, Discovered, InstanceInfo, Inventory, LinkedResource, Provider,
    ProviderError, ProviderKind,
};
use crate::meter::{BillingMode, ResourceKind};

pub use token::{FILE_VAR, TOKEN_VAR};
/// Points the adapter at another endpoint (tests use a loopback server).
pub const ENDPOINT_VAR: &str = "GPUMETER_AUTODL_ENDPOINT";
pub const DEFAULT_ENDPOINT: &str = "https://api.autodl.com";
const ID: &str = ProviderKind::Autodl.id();
/// A refused token's answer is not documented: a 401 or a 403 is read as one.
const CLOUD: Cloud = Cloud {
    kind: ProviderKind::Autodl,
    key_var: TOKEN_VAR,
    forbidden: Forbidden::Key,
    scheme: Scheme::Bare,
    endpoint: (ENDPOINT_VAR, DEFAULT_ENDPOINT),
};

/// The variables the adapter reads.
pub const VARS: [&str; 5] = [TOKEN_VAR, FILE_VAR, ENDPOINT_VAR, "XDG_CONFIG_HOME", "HOME"];

/// The token from `env` or the user's token file, the endpoint, and the instance from the flags
/// or config (AutoDL sets no variable inside the instance that names its Pro id).
pub fn settings(env: &KeyEnv, instance: Option<String>) -> Settings {
    Settings {
        key: token::token(env, ID),
        endpoint: CLOUD.base_url(env),
        instance_id: instance,
    }
}

pub struct Autodl {
    held: Held,
    instance: Option<String>,
}

impl Autodl {
    pub fn new(settings: Settings, policy: HttpPolicy) -> Self {
        Autodl {
            held: Held::new(CLOUD, settings.key, &settings.endpoint, policy),
            instance: settings.instance_id,
        }
    }

    super::setters::with_setters! {
        with_readback(readback: Readback) in held;
    }

    fn instance(&self) -> Result<&str, ProviderError> {
        self.instance.as_deref().ok_or_else(|| {
            ProviderError::state(ID, crate::t!("autodl-no-instance"))
                .with_fix(&crate::t!("autodl-fix-instance"))
        })
    }

    fn info(row: &Row, now: Timestamp, log: &StateLog) -> InstanceInfo {
        let created = row.created.unwrap_or(now);
        let state = row_state(row);
        InstanceInfo {
            id: row.id.clone(),
            name: row.name.clone(),
            provider: ID.into(),
            region: row.region.clone(),
            sku: sku_of(row),
            mode: BillingMode::OnDemand,
            state,
            created,
            // The details call's `payg_price` gives no unit, and it carries secrets: the sheet
            // prices the instance.
            live_price_per_hour: None,
            history: log.saw(created, state, row.stopped_at, now),
        }
    }

    /// The private images, or none and a gap where the account may not list them (the image
    /// list belongs to the elastic deployment API, which asks for a verified company).
    async fn images(&self, api: &Api, gaps: &mut Vec<String>) -> Result<Vec<Image>, ProviderError> {
        match calls::images(api).await {
            Ok(images) => Ok(images),
            Err(e @ ApiError::Refused { .. }) => {
                gaps.push(crate::t!(
                    "autodl-gap-images-refused",
                    error = api.error(e).to_string()
                ));
                Ok(Vec::new())
            }
            Err(e) if matches!(e.status(), Some(403)) => {
                gaps.push(crate::t!(
                    "autodl-gap-images",
                    error = api.error(e).to_string()
                ));
                Ok(Vec::new())
            }
            Err(e) => Err(api.error(e)),
        }
    }
}

/// A private image as a resource that outlives any instance.
fn image(i: &Image, now: Timestamp) -> LinkedResource {
    LinkedResource {
        id: i.uuid.clone(),
        name: i.name.clone(),
        kind: ResourceKind::Image,
        class: None,
        // The listing gives no size: unknown, not none.
        size_gib: rust_decimal::Decimal::ZERO,
        state: i.status.clone(),
        created: i.created.unwrap_or(now),
        deleted_with_instance: false,
        backs_image: None,
        attached_to: None,
        exposure: super::Exposure::default(),
        origin: None,
        tags: BTreeMap::new(),
    }
}

#[async_trait]
impl Provider for Autodl {
    held_provider_methods!(ProviderKind::Autodl);

    fn plan_instance(&self, action: &Action) -> Vec<String> {
        let id = self.instance.clone().unwrap_or_else(|| "$INSTANCE".into());
        let read = power::read_call(&id);
        let back = crate::t!("autodl-plan-read-back", call = read.as_str());
        match action {
            Action::Stop => vec![read, describe_call(POWER_OFF, &id, None), back],
            Action::Start => vec![
                read,
                describe_call(POWER_ON, &id, Some(power::WITH_GPU)),
                back,
            ],
            Action::Release => vec![
                read.clone(),
                crate::t!(
                    "autodl-plan-when-runs",
                    call = describe_call(POWER_OFF, &id, None)
                ),
                describe_call(RELEASE, &id, None),
                back,
            ],
            _ => Vec::new(),
        }
    }

    async fn inventory(&self) -> Result<Inventory, ProviderError> {
        let api = self.held.api()?;
        let id = self.instance()?;
        let now = Timestamp::now();
        let rows = calls::instances(api).await.map_err(|e| api.error(e))?;
        let row = rows.iter().find(|r| r.id == id);
        api.listed_or_absent(&self.held.sightings, id, row.is_some(), None)?;
        let mut gaps = Vec::new();
        let images = self.images(api, &mut gaps).await?;
        self.held.set_gaps(gaps);
        Ok(Inventory {
            instance: row.map(|r| Self::info(r, now, &self.held.log)),
            resources: images.iter().map(|i| image(i, now)).collect(),
            deadline: None,
        })
    }

    async fn look(&self) -> Result<Look, ProviderError> {
        let api = self.held.api()?;
        let id = self.instance()?;
        let found = calls::status(api, id).await.map_err(|e| api.error(e))?;
        Ok(Look::State(found.map(|s| state_of(&s))))
    }

    async fn instances(&self) -> Result<Vec<Discovered>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let rows = calls::instances(api).await.map_err(|e| api.error(e))?;
        Ok(rows
            .iter()
            .filter(|r| r.gpus > 0)
            .map(|r| {
                self.held.sightings.saw(ID, None, &r.id);
                listed(Self::info(r, now, &StateLog::default()), Vec::new())
            })
            .collect())
    }

    /// The private images: they bill for storage whether or not an instance runs.
    async fn sweep(&self) -> Result<Vec<LinkedResource>, ProviderError> {
        let api = self.held.api()?;
        let now = Timestamp::now();
        let images = calls::images(api).await.map_err(|e| api.error(e))?;
        Ok(images.iter().map(|i| image(i, now)).collect())
    }

    async fn delete(&self, resource: &LinkedResource) -> Result<ActionReport, ProviderError> {
        Err(ProviderError::unsupported(
            ID,
            crate::t!(
                "autodl-delete-unsupported",
                kind = resource.kind.label(),
                id = resource.id.as_str()
            ),
        ))
    }

    async fn balance(&self) -> Result<Option<Balance>, ProviderError> {
        let api = self.held.api()?;
        let data = calls::wallet(api).await.map_err(|e| api.error(e))?;
        balance::parse(&data).map(Some).ok_or_else(|| {
            api.error(ApiError::malformed(
                &Api::describe("POST", calls::BALANCE),
                crate::t!("autodl-no-field", field = "assets"),
            ))
        })
    }

    async fn act(&self, action: &Action) -> Result<ActionReport, ProviderError> {
        let verb = match action {
            Action::Stop => Verb::Stop,
            Action::Start => Verb::Start,
            Action::Release => Verb::Release,
            other => {
                return Err(refusal(
                    CLOUD.kind,
                    other,
                    &crate::t!("autodl-no-snapshots"),
                ));
            }
        };
        let api = self.held.api()?;
        let id = self.instance()?;
        let mut calls = Vec::new();
        let outcome = self.run(api, id, verb, &mut calls).await;
        api.report(action, id, calls, outcome)
    }
}

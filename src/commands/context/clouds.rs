//! The GPU clouds with one key (Lambda Cloud, RunPod, Vast.ai, AutoDL) and live prices: where a
//! provider's API reports the instance's price per hour, the meter prices compute with it
//! ([`PriceSource::Live`]) and keeps the sheet for storage, bandwidth and extras, with the
//! provider's own rates on top where it reports them (a Vast.ai host's storage and bandwidth).

use std::sync::Arc;

use rust_decimal::Decimal;

use super::Context;
use crate::commands::Failure;
use crate::config::{ProviderKind, SheetRef};
use crate::meter::ComputeTerms;
use crate::pricing::Sku;
use crate::provider::autodl::{self, Autodl};
use crate::provider::bearer::KeyEnv;
use crate::provider::http::HttpPolicy;
use crate::provider::lambda::{Lambda, LambdaSettings};
use crate::provider::runpod::{self, Runpod};
use crate::provider::vast::{self, Vast};
use crate::provider::{InstanceInfo, Provider, ProviderError};
use crate::spend::{PriceSource, Pricing};

impl Context {
    /// The Lambda, RunPod or Vast.ai adapter from its standard variables and `[instance]`;
    /// a missing key is bad input that names the variable to set.
    pub fn gpu_cloud(&self, kind: ProviderKind) -> Result<Arc<dyn Provider>, Failure> {
        let id = self.config.instance.id.clone();
        let policy = HttpPolicy::default();
        let missing = |name: &str, e: &ProviderError| {
            Failure::provider(super::super::EXIT_BAD_INPUT, name, e)
        };
        let adapter: Arc<dyn Provider> = match kind {
            ProviderKind::Lambda => {
                let s = LambdaSettings::from_process(id);
                if let Err(e) = &s.key {
                    return Err(missing(kind.id(), e));
                }
                Arc::new(Lambda::new(s, policy))
            }
            ProviderKind::Runpod => {
                let s = runpod::settings_from_process(id);
                if let Err(e) = &s.key {
                    return Err(missing(kind.id(), e));
                }
                Arc::new(Runpod::new(s, policy))
            }
            ProviderKind::Vast => {
                let s = vast::settings_from_process(id);
                if let Err(e) = &s.key {
                    return Err(missing(kind.id(), e));
                }
                Arc::new(Vast::new(s, policy))
            }
            ProviderKind::Autodl => {
                // The account's variables over the process's, as `fleet` names them.
                let vars = autodl::VARS.map(|name| (name, self.var(name).unwrap_or_default()));
                let s = autodl::settings(&KeyEnv::from_pairs(vars), id);
                if let Err(e) = &s.key {
                    return Err(missing(kind.id(), e));
                }
                Arc::new(Autodl::new(s, policy))
            }
            ProviderKind::Aws
            | ProviderKind::Alibaba
            | ProviderKind::Tencent
            | ProviderKind::Command
            | ProviderKind::Demo => {
                return Err(Failure::bad_input(crate::t!(
                    "err-not-bearer-key",
                    provider = kind.to_string()
                )));
            }
        };
        // Kept so pricing can ask it for the rates its inventory reported.
        let _ = self.adapter.set(Arc::clone(&adapter));
        Ok(adapter)
    }

    /// Live pricing for `instance` when its provider reported a price per hour: compute at that
    /// price, everything else from `sheet_ref` (with the provider's own rates, if any). The SKU
    /// comes from the sheet when it lists the instance's type, else stands for the live price.
    pub(super) fn live_pricing(
        &self,
        sheet_ref: &SheetRef,
        instance: &InstanceInfo,
    ) -> Result<Option<Pricing>, Failure> {
        let Some(per_hour) = instance.live_price_per_hour else {
            return Ok(None);
        };
        let sheet = self.sheet(sheet_ref)?;
        let sheet = self
            .adapter
            .get()
            .and_then(|p| p.own_sheet(&sheet))
            .unwrap_or(sheet);
        let sku = sheet.sku(&instance.sku).cloned().unwrap_or_else(|| Sku {
            name: instance.sku.clone(),
            gpu_model: instance.sku.clone(),
            gpu_count: 1,
            gpu_memory_gib: Decimal::ZERO,
            on_demand_per_hour: Some(per_hour),
            spot_per_hour: None,
            monthly: None,
            daily: None,
            weekly: None,
            yearly: None,
            compute_units: None,
        });
        Ok(Some(Pricing {
            source: PriceSource::Live,
            sheet,
            sku,
            mode: instance.mode,
            terms: ComputeTerms::Hourly { per_hour },
            licenses: None,
            bandwidth_mbps: None,
        }))
    }
}

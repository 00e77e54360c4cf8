//! What `fleet` reads, from the config: the instances `[[fleet]]` names, the accounts it lists
//! by API (a table that names no instance), or, with no `[[fleet]]` at all, the configured
//! instance. The filters drop the accounts they rule out before anything is read.

use std::collections::BTreeMap;

use super::super::context::Context;
use crate::config::{InstanceConfig, ProviderKind};
use crate::fleet::{FleetFilter, Origin};

/// One named instance.
pub struct Listed {
    pub origin: Origin,
    pub instance: InstanceConfig,
    pub metrics: Option<String>,
    pub env: BTreeMap<String, String>,
}

/// One account and region, read by listing.
pub struct Account {
    /// Its instance id is empty.
    pub origin: Origin,
    /// The provider and region, no id.
    pub instance: InstanceConfig,
    pub env: BTreeMap<String, String>,
}

pub enum Target {
    Instance(Listed),
    Account(Account),
}

/// `[[fleet]]`'s instances and accounts the filter keeps; without any `[[fleet]]`, the
/// configured instance (or the demo's).
pub fn targets(ctx: &Context, filter: &FleetFilter) -> Vec<Target> {
    let mut out = Vec::new();
    let mut seen: Vec<(ProviderKind, String)> = Vec::new();
    for entry in &ctx.config.fleet {
        let origin_in = |region: Option<String>| Origin {
            account: entry.account.clone().unwrap_or_default(),
            provider: entry.provider.id().to_string(),
            region,
            instance_id: String::new(),
        };
        let instance_in = |region: Option<String>| InstanceConfig {
            provider: Some(entry.provider),
            region,
            ..InstanceConfig::default()
        };
        if entry.discovers() {
            for region in entry.each_region() {
                if filter.reads(entry.provider.id(), region.as_deref()) {
                    out.push(Target::Account(Account {
                        origin: origin_in(region.clone()),
                        instance: instance_in(region),
                        env: entry.env.clone(),
                    }));
                }
            }
            continue;
        }
        // Named instances live in the table's one region.
        if !filter.reads(entry.provider.id(), entry.region.as_deref()) {
            continue;
        }
        let origin = origin_in(entry.region.clone());
        let instance = instance_in(entry.region.clone());
        for (i, id) in entry.instances.iter().enumerate() {
            if seen.contains(&(entry.provider, id.clone())) {
                continue;
            }
            seen.push((entry.provider, id.clone()));
            out.push(Target::Instance(Listed {
                origin: Origin {
                    instance_id: id.clone(),
                    ..origin.clone()
                },
                instance: InstanceConfig {
                    id: Some(id.clone()),
                    ..instance.clone()
                },
                metrics: entry.metrics.get(i).cloned(),
                env: entry.env.clone(),
            }));
        }
    }
    if ctx.config.fleet.is_empty() && (ctx.demo || ctx.config.instance.provider.is_some()) {
        let kind = if ctx.demo {
            ProviderKind::Demo
        } else {
            ctx.config.instance.provider.unwrap_or(ProviderKind::Demo)
        };
        if filter.reads(kind.id(), ctx.config.instance.region.as_deref()) {
            out.push(Target::Instance(Listed {
                origin: Origin {
                    account: String::new(),
                    provider: kind.id().to_string(),
                    region: ctx.config.instance.region.clone(),
                    instance_id: ctx.config.instance.id.clone().unwrap_or_default(),
                },
                instance: ctx.config.instance.clone(),
                metrics: None,
                env: BTreeMap::new(),
            }));
        }
    }
    out
}

//! What every command that touches an instance needs: the config, the data directory, the
//! provider adapter and the pricing of the instance. Built once at the edge from flags and the
//! config file.

mod clouds;
pub(crate) mod detected;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use jiff::Timestamp;

use super::Failure;
use crate::cli::Cli;
use crate::config::{Config, InstanceConfig, ProviderKind, SheetRef};
use crate::demo::demo_pricing;
use crate::detect::Detected;
use crate::ledger::{EventRecord, Ledger, path_in};
use crate::meter::{BillingMode, ComputeTerms};
use crate::provider::alibaba::AlibabaCloud;
use crate::provider::alibaba::credentials::cli_profile as alibaba_cli_profile;
use crate::provider::aws::Aws;
use crate::provider::aws::credentials::{AwsEnv, AwsSettings};
use crate::provider::demo::DemoCloud;
use crate::provider::http::HttpPolicy;
use crate::provider::{
    Action, ActionReport, InstanceInfo, Inventory, Provider, ProviderError, Seen, none::NoProvider,
};
use crate::spend::{PriceOrigin, PriceSource, Pricing, sheet_for_region};
use detected::{detected_here, fill_from};

/// Actions the demo cloud refuses, comma-separated (`release,stop`): shows the error path.
pub const DEMO_FAIL_ENV: &str = "GPUMETER_DEMO_FAIL";
/// How long a demo action takes, in milliseconds.
pub const DEMO_DELAY_ENV: &str = "GPUMETER_DEMO_DELAY_MS";
/// A prepaid balance for the demo cloud (`"300"`, in the demo sheet's currency): what the
/// account held when the demo instance was created, which its running draws down.
pub const DEMO_BALANCE_ENV: &str = "GPUMETER_DEMO_BALANCE";

pub struct Context {
    pub config: Config,
    pub data_dir: PathBuf,
    pub demo: bool,
    pub read_only: bool,
    /// Say nothing on stderr (a stale sheet, an unpriced SKU): set where a screen is drawn.
    pub quiet: bool,
    /// The adapter [`Context::gpu_cloud`] made, asked for its own rates when pricing.
    adapter: OnceLock<Arc<dyn Provider>>,
    /// Variables read in place of the process's (a `[[fleet]]` account's `env`).
    env: BTreeMap<String, String>,
    /// How patient the AWS, Alibaba and Tencent adapters' calls are.
    http: HttpPolicy,
    /// What the machine said about itself, when neither flags nor config name a provider.
    pub detected: Detected,
}

impl Context {
    /// How the host is read: the metered interfaces, and where the instance runs, so that what
    /// its sockets send is priced by destination (none known: all of it is internet).
    pub fn host_config(&self) -> crate::telemetry::HostConfig {
        let t = &self.config.telemetry;
        let instance = &self.config.instance;
        let provider = instance
            .provider
            .or(self.detected.provider.as_ref().map(|f| f.value));
        let region = instance
            .region
            .clone()
            .or_else(|| self.detected.region.as_ref().map(|f| f.value.clone()));
        crate::telemetry::HostConfig {
            metered_interfaces: (!t.metered_interfaces.is_empty())
                .then(|| t.metered_interfaces.clone()),
            traffic: provider.map(|p| {
                gpumeter_core::traffic::Classifier::new(
                    p.id(),
                    region.as_deref().unwrap_or_default(),
                    &t.intranet,
                )
            }),
            ..crate::telemetry::HostConfig::default()
        }
    }

    pub fn load(cli: &Cli) -> Result<Self, Failure> {
        let (mut config, _) =
            Config::load(cli.config.as_deref()).map_err(|e| Failure::bad_input(e.shown()))?;
        // `--provider`, `--instance` and `--region` override `[instance]` in the config.
        let target = cli.target();
        let instance = &mut config.instance;
        instance.provider = target.cloud.or(instance.provider);
        instance.id = target.instance.or_else(|| instance.id.take());
        instance.region = target.region.or_else(|| instance.region.take());
        let data_dir = match &cli.data_dir {
            Some(dir) => dir.clone(),
            None => directories::ProjectDirs::from("", "", "gpumeter")
                .map(|d| d.data_dir().to_path_buf())
                .ok_or_else(|| Failure::bad_input(crate::t!("err-no-data-dir")))?,
        };
        let demo = cli.demo || config.instance.provider == Some(ProviderKind::Demo);
        let detected = if demo || config.instance.provider.is_some() {
            Detected::default()
        } else {
            detected_here()
        };
        fill_from(&mut config.instance, &detected);
        Ok(Context {
            read_only: cli.read_only || config.read_only,
            config,
            data_dir,
            demo,
            quiet: false,
            adapter: OnceLock::new(),
            env: detected::unanswered(&detected),
            http: HttpPolicy::default(),
            detected,
        })
    }

    /// The same settings aimed at another instance in place of `[instance]`: how `gpumeter
    /// fleet` reads each instance of `[[fleet]]`.
    #[must_use]
    pub fn for_instance(&self, instance: InstanceConfig) -> Context {
        Context {
            demo: self.demo || instance.provider == Some(ProviderKind::Demo),
            config: Config {
                instance,
                ..self.config.clone()
            },
            data_dir: self.data_dir.clone(),
            read_only: self.read_only,
            quiet: self.quiet,
            adapter: OnceLock::new(),
            env: self.env.clone(),
            http: self.http,
            detected: Detected::default(),
        }
    }

    /// Aimed at `instance` in another account, as `fleet` reads it: its adapter reads `env` in
    /// place of the process's variables of the same names, and outwaits the account's rate
    /// limit ([`HttpPolicy::listing`]).
    #[must_use]
    pub fn for_account(&self, instance: InstanceConfig, env: &BTreeMap<String, String>) -> Context {
        let mut ctx = self.for_instance(instance);
        ctx.env
            .extend(env.iter().map(|(k, v)| (k.clone(), v.clone())));
        ctx.http = HttpPolicy::listing();
        ctx
    }

    /// A variable as this context's adapters read it: the account's own, else the process's.
    fn var(&self, name: &str) -> Option<String> {
        self.env
            .get(name)
            .cloned()
            .or_else(|| std::env::var(name).ok())
    }

    /// The provider adapter the flags and config select, told what this data directory has
    /// seen exist (for the rule that an instance it does not list counts as released only
    /// then), behind the one-lining every answer passes through before it is read or printed.
    pub fn provider(&self) -> Result<Arc<dyn Provider>, Failure> {
        let adapter = self.adapter_for_config()?;
        adapter.add_seen(&self.seen());
        Ok(Arc::new(crate::provider::one_line::OneLine(adapter)))
    }

    /// Every instance the ledger has seen; none when there is no ledger yet or it cannot be
    /// read, which only makes an absent instance an error rather than "released".
    pub fn seen(&self) -> Seen {
        Ledger::open_read_only(path_in(&self.data_dir, self.demo))
            .and_then(|l| l.seen())
            .unwrap_or_default()
    }

    /// Records in the ledger what the provider listed: the instance, so a later run that no
    /// longer finds it knows it existed, and its resources, so a later reading still counts
    /// what they accrued once they are gone. Best effort: a sighting not recorded only makes
    /// that later run refuse to call the instance released, or count less storage.
    pub fn record_sighting(&self, inventory: Option<&Inventory>) {
        let Some((inventory, id)) = inventory.and_then(|i| Some((i, self.instance_id(i)?))) else {
            return;
        };
        if let Ok(mut ledger) = Ledger::open(path_in(&self.data_dir, self.demo)) {
            let _ = ledger.saw_inventory(&id, inventory, Timestamp::now());
        }
    }

    /// Records in the ledger an action run from this command line against `inventory`'s
    /// instance, with the provider's answer and read-back, so the audit's evidence has it.
    /// Not recorded, it is said on stderr; the action's own outcome stands either way.
    pub fn record_action(
        &self,
        inventory: Option<&Inventory>,
        action: &Action,
        result: &Result<ActionReport, ProviderError>,
    ) {
        let Some(id) = inventory.and_then(|i| self.instance_id(i)) else {
            return;
        };
        let event = EventRecord::action(Timestamp::now(), action, result).from_command(id);
        let kept = Ledger::open(path_in(&self.data_dir, self.demo))
            .and_then(|mut l| l.record_event(event).map(|_| ()));
        if let Err(e) = kept {
            let not_recorded = crate::t!(
                "err-not-recorded",
                action = crate::ui::words::verb(action),
                error = e.shown()
            );
            super::emit_err(&format!("gpumeter: {not_recorded}"));
        }
    }

    /// What the ledger recorded of `inventory`'s instance (its last listing, its release, the
    /// resources seen), for [`crate::spend::account`]; empty when it holds nothing.
    pub fn recorded(&self, inventory: &Inventory) -> crate::spend::Recorded {
        let Some(id) = self.instance_id(inventory) else {
            return crate::spend::Recorded::default();
        };
        let Ok(ledger) = Ledger::open_read_only(path_in(&self.data_dir, self.demo)) else {
            return crate::spend::Recorded::default();
        };
        ledger.recorded(&id)
    }

    /// The calendar month `now` falls in (in `tz`), with what the ledger recorded in it across
    /// instances; nothing when the ledger cannot be read, so a budget counts this run only.
    pub fn spent_this_month(
        &self,
        currency: crate::money::Currency,
        now: jiff::Timestamp,
        tz: &jiff::tz::TimeZone,
    ) -> Option<crate::guard::MonthSpend> {
        let (_, since, _) = crate::guard::month::month_of(now, tz)?;
        let before = Ledger::open_read_only(path_in(&self.data_dir, self.demo))
            .and_then(|l| l.spent_between(since, now, tz, currency))
            .unwrap_or(crate::money::Money::zero(currency));
        crate::guard::MonthSpend::new(before, now, tz)
    }

    /// Gives `spend` what the ledger recorded of the configured instance (its last listing, its
    /// release, the resources seen, the egress measured), so a process started after a release
    /// prices it as the one that saw it did.
    pub fn restore_spend(&self, spend: &mut crate::spend::Spend) {
        let none = Inventory {
            instance: None,
            resources: Vec::new(),
            deadline: None,
        };
        let recorded = self.recorded(&none);
        if let Some((instance, released)) = recorded.instance {
            spend.restore(instance, released);
        }
        spend.remember(&recorded.resources);
        spend.remember_traffic(&recorded.traffic);
    }

    /// The guard row the ledger holds for `inventory`'s instance; `None` when there is none or
    /// the ledger cannot be read.
    pub fn guard_row(&self, inventory: &Inventory) -> Option<crate::guard::GuardState> {
        let id = self.instance_id(inventory)?;
        Ledger::open_read_only(path_in(&self.data_dir, self.demo))
            .ok()?
            .guard(&id)
            .ok()
            .flatten()
    }

    /// The instance an inventory is of: the one it lists, else the configured one.
    fn instance_id(&self, inventory: &Inventory) -> Option<String> {
        inventory
            .instance
            .as_ref()
            .map(|i| i.id.clone())
            .or_else(|| self.config.instance.id.clone())
    }

    fn adapter_for_config(&self) -> Result<Arc<dyn Provider>, Failure> {
        let adapter = self.configured_adapter();
        match (adapter, &self.detected.provider) {
            (Err(why), Some(_)) => detected::stand_in(self, &why).ok_or(why),
            (adapter, _) => adapter,
        }
    }

    fn configured_adapter(&self) -> Result<Arc<dyn Provider>, Failure> {
        if self.demo {
            return Ok(Arc::new(self.demo_cloud()));
        }
        match self.config.instance.provider {
            None => Ok(Arc::new(NoProvider::new(crate::t!("context-no-provider")))),
            Some(ProviderKind::Aws) => Ok(Arc::new(self.aws()?)),
            Some(ProviderKind::Alibaba) => self.alibaba(),
            Some(ProviderKind::Tencent) => self.tencent(),
            Some(ProviderKind::Command) => {
                Ok(Arc::new(crate::provider::command::CommandProvider::new(
                    self.config.command.clone(),
                    self.config.instance.id.clone(),
                )))
            }
            Some(
                kind @ (ProviderKind::Lambda
                | ProviderKind::Runpod
                | ProviderKind::Vast
                | ProviderKind::Autodl),
            ) => self.gpu_cloud(kind),
            Some(ProviderKind::Demo) => Ok(Arc::new(self.demo_cloud())),
        }
    }

    /// The AWS adapter, set up from the AWS credential and region chain and `[instance]`. A
    /// missing credential or region is bad input (exit 2) that names every place looked in.
    pub fn aws(&self) -> Result<Aws, Failure> {
        let instance = &self.config.instance;
        let mut settings = AwsSettings::resolve(
            &self.aws_env(),
            instance.id.clone(),
            instance.region.clone(),
        );
        // On a thread of its own: `fleet` asks for providers from inside its runtime.
        let policy = crate::provider::aws::imds::policy();
        std::thread::scope(|s| {
            s.spawn(|| super::block_on(settings.complete(policy)))
                .join()
                .unwrap_or_else(|_| Err(Failure::failed(crate::t!("err-aws-settings"))))
        })?;
        if let Err(e) = settings.credentials.as_ref().and(settings.region.as_ref()) {
            return Err(Failure::provider(
                super::EXIT_BAD_INPUT,
                ProviderKind::Aws.id(),
                e,
            ));
        }
        Ok(Aws::with_policy(settings, self.http, policy)
            .remembering(&self.data_dir)
            .recalling(self.recorded_ids()))
    }

    /// The AWS variables, the account's over the process's.
    fn aws_env(&self) -> AwsEnv {
        if self.env.is_empty() {
            return AwsEnv::from_process();
        }
        let process = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)));
        let mut vars: BTreeMap<String, String> = process.collect();
        vars.extend(self.env.clone());
        AwsEnv::from_pairs(vars)
    }

    /// The resource ids the ledger's inventories recorded, by instance: they tie the leftovers
    /// a provider forgets on release. None where the ledger cannot be read.
    fn recorded_ids(&self) -> Vec<(String, String, bool)> {
        Ledger::open_read_only(path_in(&self.data_dir, self.demo))
            .and_then(|l| l.resource_ids())
            .unwrap_or_default()
    }

    /// The Alibaba adapter, from the credential chain (the ALIBABA_CLOUD_* variables, the files,
    /// the ECS RAM role) and `[instance]`. A missing credential is bad input that names every
    /// place looked in.
    pub fn alibaba(&self) -> Result<Arc<dyn Provider>, Failure> {
        let instance = &self.config.instance;
        let env = crate::provider::alibaba::credentials::env_from_lookup(|n| self.var(n));
        crate::provider::alibaba::Settings::resolve(
            &env,
            instance.id.as_deref(),
            instance.region.as_deref(),
        )
        .and_then(|settings| AlibabaCloud::new(settings, self.http))
        .map(|adapter| Arc::new(adapter.recalling(self.recorded_ids())) as Arc<dyn Provider>)
        .map_err(|e| Failure::provider(super::EXIT_BAD_INPUT, ProviderKind::Alibaba.id(), &e))
    }

    /// The Tencent Cloud adapter, from the credential chain (the TENCENTCLOUD_* variables, the
    /// files, the CVM role) and `[instance]`. A missing credential is bad input that names every
    /// place looked in.
    pub fn tencent(&self) -> Result<Arc<dyn Provider>, Failure> {
        use crate::provider::tencent::TencentCloud;
        let instance = &self.config.instance;
        let env = crate::provider::tencent::credentials::env_from_lookup(|n| self.var(n));
        crate::provider::tencent::Settings::resolve(
            &env,
            instance.id.as_deref(),
            instance.region.as_deref(),
        )
        .and_then(|settings| TencentCloud::new(settings, self.http))
        .map(|adapter| {
            let adapter = adapter
                .remembering(&self.data_dir)
                .recalling(self.recorded_ids());
            Arc::new(adapter) as Arc<dyn Provider>
        })
        .map_err(|e| Failure::provider(super::EXIT_BAD_INPUT, ProviderKind::Tencent.id(), &e))
    }

    pub fn demo_cloud(&self) -> DemoCloud {
        let failing = std::env::var(DEMO_FAIL_ENV)
            .map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let delay = std::env::var(DEMO_DELAY_ENV)
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(
                std::time::Duration::from_millis(1200),
                std::time::Duration::from_millis,
            );
        let prepaid = std::env::var(DEMO_BALANCE_ENV)
            .ok()
            .and_then(|v| v.trim().parse::<rust_decimal::Decimal>().ok());
        DemoCloud::new(&self.data_dir, Arc::new(Timestamp::now))
            .with_delay(delay)
            .failing(failing)
            .prepaid(prepaid)
    }

    /// How the instance is priced: the demo's sheet, or the config's sheet and SKU.
    pub fn pricing(&self) -> Result<Option<Pricing>, Failure> {
        self.pricing_for(None)
    }

    /// The pricing when the provider has not been read yet (the cockpit's start): when the config
    /// names no SKU, one inventory read tells the instance type.
    pub fn pricing_with(&self, provider: &dyn Provider) -> Result<Option<Pricing>, Failure> {
        if self.demo || self.config.pricing.sku.is_some() || self.config.instance.provider.is_none()
        {
            return self.pricing();
        }
        let inventory = super::block_on(provider.inventory())?.ok();
        self.pricing_for(inventory.and_then(|i| i.instance).as_ref())
    }

    /// Where `pricing`'s prices come from for `instance`: its region is the one the provider
    /// lists, else the configured one (`--region`, `[instance] region`).
    pub fn price_origin(
        &self,
        pricing: Option<&Pricing>,
        instance: Option<&InstanceInfo>,
    ) -> Option<PriceOrigin> {
        let region = self.pricing_region(instance);
        pricing.map(|p| p.origin(region.as_deref()))
    }

    /// The instance's region for pricing: the one the provider lists, else the configured one.
    /// For Alibaba the `ALIBABA_CLOUD_REGION_ID` variable and the aliyun CLI profile's region
    /// count too, as they do for the adapter.
    fn pricing_region(&self, instance: Option<&InstanceInfo>) -> Option<String> {
        let configured = instance
            .and_then(|i| i.region.clone())
            .or_else(|| self.config.instance.region.clone());
        if configured.is_some() || self.config.instance.provider != Some(ProviderKind::Alibaba) {
            return configured;
        }
        let env = crate::provider::alibaba::credentials::env_from_lookup(|n| self.var(n));
        env.region
            .clone()
            .or_else(|| alibaba_cli_profile(&env).ok()?.region)
    }

    /// Like [`Context::pricing`], but what the config leaves out comes from the provider:
    /// the provider's bundled sheet for the instance's region (see [`sheet_for_region`]) and the
    /// instance's own type and billing mode. A derived SKU the sheet lacks means no pricing, with
    /// a warning, not an error.
    pub fn pricing_for(&self, instance: Option<&InstanceInfo>) -> Result<Option<Pricing>, Failure> {
        let cfg = &self.config.instance;
        Ok(self.sheet_pricing(instance)?.map(|p| Pricing {
            licenses: cfg.licenses,
            bandwidth_mbps: cfg.bandwidth_mbps,
            ..p
        }))
    }

    /// The sheet that prices the configured provider's region, with no instance in view (a
    /// sweep of the account): `[pricing] sheet`, else the bundled sheet for the region.
    pub fn region_sheet(&self) -> Result<Option<crate::pricing::Sheet>, Failure> {
        if self.demo {
            return Ok(demo_pricing().map(|p| p.sheet));
        }
        let bundled = self.config.instance.provider.and_then(|kind| {
            let region = self.pricing_region(None);
            sheet_for_region(kind, region.as_deref(), None).map(|c| SheetRef::Bundled(c.sheet))
        });
        match self.config.pricing.sheet.clone().or(bundled) {
            Some(sheet_ref) => self.sheet(&sheet_ref).map(Some),
            None => Ok(None),
        }
    }

    fn sheet_pricing(&self, instance: Option<&InstanceInfo>) -> Result<Option<Pricing>, Failure> {
        if self.demo {
            return Ok(demo_pricing());
        }
        let cfg = &self.config.pricing;
        let derived = instance.filter(|_| cfg.sku.is_none());
        let sku_name = cfg.sku.clone().or_else(|| derived.map(|i| i.sku.clone()));
        let provider_sheet = self.config.instance.provider.and_then(|kind| {
            let region = self.pricing_region(instance);
            sheet_for_region(kind, region.as_deref(), sku_name.as_deref())
                .map(|c| SheetRef::Bundled(c.sheet))
        });
        let sheet_ref = cfg.sheet.clone().or(provider_sheet);
        // A price the provider's API reports wins over the sheet's, unless the config names a SKU.
        if let (Some(instance), Some(sheet_ref)) = (derived, &sheet_ref)
            && let Some(live) = self.live_pricing(sheet_ref, instance)?
        {
            return Ok(Some(live));
        }
        let (Some(sheet_ref), Some(sku_name)) = (&sheet_ref, &sku_name) else {
            return Ok(None);
        };
        if let Some(instance) = derived {
            return Ok(self
                .priced(sheet_ref, sku_name, instance.mode)
                .map_err(|e| {
                    if !self.quiet {
                        let line = crate::t!("err-costs-not-shown", error = e.to_string());
                        super::emit_err(&format!("gpumeter: {line}"));
                    }
                })
                .ok());
        }
        let mode = match cfg.billing {
            crate::config::BillingMode::OnDemand => BillingMode::OnDemand,
            crate::config::BillingMode::Spot => BillingMode::Spot,
            crate::config::BillingMode::Monthly => BillingMode::Monthly,
        };
        self.priced(sheet_ref, sku_name, mode).map(Some)
    }

    /// The sheet `sheet_ref` names; a stale one is said on stderr unless [`Context::quiet`].
    fn sheet(&self, sheet_ref: &SheetRef) -> Result<crate::pricing::Sheet, Failure> {
        let (id, file) = match sheet_ref {
            SheetRef::Bundled(id) => (Some(id.as_str()), None),
            SheetRef::File(path) => (None, Some(path.as_path())),
        };
        let load = if self.quiet {
            super::read_sheet_for
        } else {
            super::load_sheet_for
        };
        load(id, file)?.ok_or_else(|| Failure::bad_input(crate::t!("err-no-price-sheet")))
    }

    fn priced(
        &self,
        sheet_ref: &SheetRef,
        sku_name: &str,
        mode: BillingMode,
    ) -> Result<Pricing, Failure> {
        let sheet = self.sheet(sheet_ref)?;
        let sku = sheet.sku(sku_name).cloned().ok_or_else(|| {
            Failure::bad_input(crate::t!(
                "err-sku-not-in-sheet",
                sku = sku_name,
                sheet = sheet.id.as_str()
            ))
        })?;
        let terms = ComputeTerms::from_sheet(&sheet, &sku, mode, 1)
            .map_err(|e| Failure::bad_input(format!("config: {e}")))?;
        Ok(Pricing {
            source: PriceSource::Sheet(sheet.id.clone()),
            sheet,
            sku,
            mode,
            terms,
            licenses: None,
            bandwidth_mbps: None,
        })
    }
}

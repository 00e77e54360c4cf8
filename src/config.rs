//! The config file: `config.toml` in the user config directory, or `--config PATH`.
//!
//! Every section and key is optional; a missing file means all defaults. Unknown keys and bad
//! values are errors that name the file, line, column and key. `config.sample.toml` at the
//! repository root documents every key, and a test keeps it complete.
//!
//! Loaders take explicit paths, so nothing here reads the environment except
//! [`Config::default_path`] and [`Config::user_zone`] (`TZ`).

mod fleet;
mod guards;
mod locate;
mod notify;
mod subscription;
mod values;
mod zone;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rust_decimal::Decimal;
use serde::Deserialize;

use crate::money::{Currency, Money};

pub use fleet::FleetConfig;
pub use gpumeter_core::cloud::ProviderKind;
pub use gpumeter_core::guard::{DEFAULT_GRACE, OnExpiry};
pub use guards::{CheckpointConfig, HooksConfig, IdleConfig};
pub use locate::line_col;
pub use notify::{
    MinLevel, NotifyConfig, OscStyle, Secret, WebhookConfig, WebhookKind, WebhookUrl,
};
pub use subscription::{SubscriptionConfig, When};
pub use values::{CudaVersion, DurationError, MAX_DURATION, SheetRef, parse_duration};
pub use zone::ZoneSetting;

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Remove every destructive action (release, stop, snapshot-clean) from the cockpit.
    pub read_only: bool,
    /// The zone times are shown in and `release_at` is read in (an IANA name); `TZ`, then
    /// the system's zone, when unset. JSON stays UTC whatever it says.
    #[serde(deserialize_with = "zone::opt_zone")]
    pub timezone: Option<ZoneSetting>,
    pub instance: InstanceConfig,
    pub pricing: PricingConfig,
    pub budget: BudgetConfig,
    pub deadline: DeadlineConfig,
    pub ui: UiConfig,
    pub telemetry: TelemetryConfig,
    /// The `command` provider: argument vectors that act through a CLI.
    pub command: CommandConfig,
    /// How alerts reach the user: bell, OSC notifications, webhooks.
    pub notify: NotifyConfig,
    /// When the instance counts as idle and what then happens.
    pub idle: IdleConfig,
    /// Where checkpoints are written and how old is too old.
    pub checkpoint: CheckpointConfig,
    /// Commands run before a guard's action and on a spot interruption notice.
    pub hooks: HooksConfig,
    /// The instances `gpumeter fleet` lists, by provider, region and account.
    pub fleet: Vec<FleetConfig>,
    /// Exchange rates for `estimate --compare`.
    pub fx: FxConfig,
    /// The bars `gpumeter verify` judges by; its flags override them.
    pub verify: VerifyConfig,
    /// A plan paid ahead: when it ends, whether it renews, what leaving early returns.
    pub subscription: SubscriptionConfig,
}

/// `gpumeter verify`'s bars, each in percent (of the card's rated figure, or of its time
/// busy); unset ones keep the defaults. `--fail-below` and `--warn-below` override the first
/// two.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerifyConfig {
    pub fail_below: Option<f64>,
    pub warn_below: Option<f64>,
    /// Memory bandwidth warns below this (healthy cards copy at 70–90 % of rated).
    pub bandwidth_warn_below: Option<f64>,
    /// Memory held by processes this machine cannot see, above which the card is shared.
    pub foreign_memory_mib: Option<u64>,
    /// Utilisation while none of this machine's processes runs, above which it is shared.
    pub foreign_utilisation: Option<u32>,
}

/// Exchange rates the user states, as `FROM:TO=RATE` (the same form as `--fx`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FxConfig {
    pub rates: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InstanceConfig {
    pub provider: Option<ProviderKind>,
    pub id: Option<String>,
    pub region: Option<String>,
    /// Software licences billed per hour at the sheet's `license_per_hour`; one when unset
    /// and the sheet states that price, 0 for bring-your-own.
    pub licenses: Option<u32>,
    /// The Mbps of a fixed-bandwidth plan, where the sheet does not state it.
    #[serde(deserialize_with = "values::opt_amount")]
    pub bandwidth_mbps: Option<Decimal>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BillingMode {
    #[default]
    OnDemand,
    Spot,
    Monthly,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricingConfig {
    /// A bundled sheet id, or a sheet file (relative to the config file's directory).
    pub sheet: Option<SheetRef>,
    pub sku: Option<String>,
    pub billing: BillingMode,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BudgetConfig {
    /// The currency of the amounts; the price sheet's when unset, and refused when unlike it.
    pub currency: Option<Currency>,
    /// Where `currency` is written (`path:line:column`), for the error when it is unlike the
    /// currency of a sheet known only at run time.
    #[serde(skip)]
    pub currency_at: Option<String>,
    #[serde(deserialize_with = "values::opt_amount")]
    pub per_instance: Option<Decimal>,
    #[serde(deserialize_with = "values::opt_amount")]
    pub per_month: Option<Decimal>,
    /// What the watchdog does when spend reaches `per_instance`: alert, stop or release.
    pub on_budget: OnExpiry,
    /// A prepaid balance's cash at or under this acts (`on_balance`); in the balance's
    /// currency, which `currency` (or the sheet's) must be.
    #[serde(deserialize_with = "values::opt_amount")]
    pub balance_floor: Option<Decimal>,
    /// What the watchdog does at `balance_floor`. Stop by default: a stopped instance keeps its
    /// disk and stops the hourly burn, while a balance at zero lets the provider stop it
    /// (and, left unpaid, take its data) at a time nobody chose.
    pub on_balance: OnExpiry,
}

impl Default for BudgetConfig {
    fn default() -> Self {
        BudgetConfig {
            currency: None,
            currency_at: None,
            per_instance: None,
            per_month: None,
            on_budget: OnExpiry::Alert,
            balance_floor: None,
            on_balance: OnExpiry::Stop,
        }
    }
}

impl BudgetConfig {
    /// Refuses a `currency` unlike the sheet's: spend in one currency is never compared with a
    /// budget in another, and converting would need a rate nobody stated.
    pub fn check_currency(&self, sheet: &crate::pricing::Sheet) -> Result<(), BudgetCurrencyError> {
        match self.currency {
            Some(currency) if currency != sheet.currency => {
                let at = self
                    .currency_at
                    .as_ref()
                    .map(|at| format!("{at}: "))
                    .unwrap_or_default();
                Err(BudgetCurrencyError {
                    at,
                    mismatch: CurrencyMismatch::new(currency, sheet),
                })
            }
            _ => Ok(()),
        }
    }

    /// The budget for this instance's life, in the configured currency or `fallback`.
    pub fn instance_limit(&self, fallback: Currency) -> Option<Money> {
        self.per_instance
            .map(|a| Money::new(a, self.currency.unwrap_or(fallback)))
    }

    /// The floor under a prepaid balance, in the configured currency or `fallback`.
    pub fn balance_floor(&self, fallback: Currency) -> Option<Money> {
        self.balance_floor
            .map(|a| Money::new(a, self.currency.unwrap_or(fallback)))
    }

    /// The budget per calendar month, in the configured currency or `fallback`.
    pub fn month_limit(&self, fallback: Currency) -> Option<Money> {
        self.per_month
            .map(|a| Money::new(a, self.currency.unwrap_or(fallback)))
    }
}

/// When the instance is due for release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Release {
    /// This long after the cockpit (or watchdog) starts.
    In(Duration),
    /// The next time the clock shows this time, in the user's zone.
    At(jiff::civil::Time),
}

pub const DEFAULT_EXTEND_STEP: Duration = Duration::from_secs(60 * 60);
pub const DEFAULT_REFRESH: Duration = Duration::from_secs(1);
/// Faster polling than this costs more CPU than it tells.
pub const MIN_REFRESH: Duration = Duration::from_millis(100);

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeadlineConfig {
    #[serde(deserialize_with = "values::opt_positive_duration")]
    pub release_in: Option<Duration>,
    #[serde(deserialize_with = "values::opt_clock_time")]
    pub release_at: Option<jiff::civil::Time>,
    pub on_expiry: OnExpiry,
    /// Time between the alert at zero and the stop or release.
    #[serde(deserialize_with = "values::duration")]
    pub grace: Duration,
    /// How much `e` adds to the deadline.
    #[serde(deserialize_with = "values::positive_duration")]
    pub extend_step: Duration,
}

impl Default for DeadlineConfig {
    fn default() -> Self {
        DeadlineConfig {
            release_in: None,
            release_at: None,
            on_expiry: OnExpiry::default(),
            grace: DEFAULT_GRACE,
            extend_step: DEFAULT_EXTEND_STEP,
        }
    }
}

impl DeadlineConfig {
    /// The configured deadline, if any. Loading rejects a file that sets both forms.
    pub fn release(&self) -> Option<Release> {
        self.release_in
            .map(Release::In)
            .or(self.release_at.map(Release::At))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiConfig {
    /// A built-in theme name or a theme file (relative to the config file's directory).
    pub theme: Option<String>,
    /// The language shown (`en`, `zh-CN`); `--lang` overrides it, and it overrides the locale.
    pub language: Option<crate::i18n::Lang>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryConfig {
    #[serde(deserialize_with = "values::positive_duration")]
    pub refresh: Duration,
    /// Network interfaces whose traffic counts as metered egress; empty means all but
    /// loopback.
    pub metered_interfaces: Vec<String>,
    /// Address ranges (CIDR) whose traffic the provider does not bill as internet egress,
    /// beyond the bundled ones: an object store's addresses reached through a gateway endpoint.
    pub intranet: Vec<ipnet::IpNet>,
    /// The CUDA version the job needs; the cockpit warns when the driver is older.
    pub cuda_required: Option<CudaVersion>,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            refresh: DEFAULT_REFRESH,
            metered_interfaces: Vec::new(),
            intranet: Vec::new(),
            cuda_required: None,
        }
    }
}

/// Argument vectors for the `command` provider (no shell: write `sh -c` yourself to get one).
/// Placeholders: `{instance}` in each; `{keep}` in `snapshot_clean`; `{deadline}` (RFC 3339 UTC)
/// and `{duration}` (whole seconds from now) in `extend`; `{id}` and `{kind}` (the resource's
/// id and its kind as the inventory JSON names it, `network_volume`) in `delete`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CommandConfig {
    pub release: Option<Vec<String>>,
    pub stop: Option<Vec<String>>,
    pub snapshot_clean: Option<Vec<String>>,
    pub extend: Option<Vec<String>>,
    /// Prints the inventory as JSON (the schema is in docs/providers/command.md).
    pub inventory: Option<Vec<String>>,
    /// Deletes one resource `cleanup` chose (`{id}`, `{kind}`); read back through
    /// `list_account` (else `inventory`) until the id is no longer listed.
    pub delete: Option<Vec<String>>,
    /// Prints what bills in the account with no running instance using it, as
    /// `{"resources": [...]}` in the inventory's resource shape: what `sweep` lists.
    pub list_account: Option<Vec<String>>,
    /// How long any of them may run before it is killed.
    #[serde(deserialize_with = "values::positive_duration")]
    pub timeout: Duration,
}

pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

impl Default for CommandConfig {
    fn default() -> Self {
        CommandConfig {
            release: None,
            stop: None,
            snapshot_clean: None,
            extend: None,
            inventory: None,
            delete: None,
            list_account: None,
            timeout: DEFAULT_COMMAND_TIMEOUT,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {}{message}", key_prefix(.key.as_deref()))]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        /// The dotted key at fault, such as `deadline.release_in`, when it can be told.
        key: Option<String>,
        message: String,
    },
}

impl ConfigError {
    /// The error in the language the user reads: a file that cannot be read is said in it,
    /// and an invalid one's message already is (the TOML parser's own words stay English).
    pub fn shown(&self) -> String {
        match self {
            ConfigError::Read { path, source } => crate::t!(
                "err-config-read",
                path = path.display().to_string(),
                error = source.to_string()
            ),
            ConfigError::Invalid { .. } => self.to_string(),
        }
    }
}

/// A budget in another currency than its price sheet's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the budget is in {budget} but the price sheet `{sheet}` prices in {priced}; expected {priced} \
     (or no currency, to take the sheet's)"
)]
pub struct CurrencyMismatch {
    budget: Currency,
    sheet: String,
    priced: Currency,
}

impl CurrencyMismatch {
    /// The mismatch in the language the user reads.
    fn shown(&self) -> String {
        crate::t!(
            "err-config-currency",
            budget = self.budget.to_string(),
            sheet = self.sheet.as_str(),
            priced = self.priced.to_string()
        )
    }

    fn new(budget: Currency, sheet: &crate::pricing::Sheet) -> Self {
        CurrencyMismatch {
            budget,
            sheet: sheet.id.clone(),
            priced: sheet.currency,
        }
    }
}

/// [`CurrencyMismatch`], and where the budget's currency is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{at}budget.currency: {mismatch}")]
pub struct BudgetCurrencyError {
    at: String,
    mismatch: CurrencyMismatch,
}

fn key_prefix(key: Option<&str>) -> String {
    key.map(|k| format!("{k}: ")).unwrap_or_default()
}

impl Config {
    /// `config.toml` in the user config directory (`$XDG_CONFIG_HOME/gpumeter` on Linux);
    /// `None` when there is no home directory.
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "gpumeter")
            .map(|dirs| dirs.config_dir().join("config.toml"))
    }

    /// Loads `explicit` (which must exist), else the default path (which may be missing).
    /// Returns the config and the file it came from, `None` when defaults were used.
    pub fn load(explicit: Option<&Path>) -> Result<(Config, Option<PathBuf>), ConfigError> {
        match explicit {
            Some(path) => Ok((Config::from_file(path)?, Some(path.to_path_buf()))),
            None => match Config::default_path() {
                Some(path) => match Config::from_file_if_exists(&path)? {
                    Some(config) => Ok((config, Some(path))),
                    None => Ok((Config::default(), None)),
                },
                None => Ok((Config::default(), None)),
            },
        }
    }

    /// Reads and checks a config file that must exist.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let src = crate::files::read_regular(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&src, path)
    }

    /// Like [`Config::from_file`], but a missing file is `Ok(None)`.
    pub fn from_file_if_exists(path: &Path) -> Result<Option<Config>, ConfigError> {
        match Config::from_file(path) {
            Err(ConfigError::Read { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Ok(None)
            }
            other => other.map(Some),
        }
    }

    /// Parses config text. `path` names the file in errors and anchors relative paths in it.
    pub fn parse(src: &str, path: &Path) -> Result<Config, ConfigError> {
        let invalid = |span: Option<std::ops::Range<usize>>, key: Option<String>, message| {
            let (line, column) = span.map_or((1, 1), |s| line_col(src, s.start));
            ConfigError::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                key,
                message,
            }
        };
        let mut config: Config = toml::from_str(src).map_err(|err| {
            let key = err.span().and_then(|s| locate::key_at(src, s.start));
            invalid(err.span(), key, err.message().to_string())
        })?;
        if config.deadline.release_in.is_some() && config.deadline.release_at.is_some() {
            return Err(invalid(
                locate::key_span(src, &["deadline", "release_at"]),
                Some("deadline.release_at".into()),
                crate::t!("err-config-release-both").into_owned(),
            ));
        }
        if let Some(currency) = config.budget.currency {
            let span = locate::key_span(src, &["budget", "currency"]);
            let sheet = match &config.pricing.sheet {
                Some(SheetRef::Bundled(id)) => crate::pricing::bundled_sheet(id),
                _ => None,
            };
            if let Some(sheet) = sheet.filter(|s| s.currency != currency) {
                return Err(invalid(
                    span,
                    Some("budget.currency".into()),
                    CurrencyMismatch::new(currency, sheet).shown(),
                ));
            }
            let (line, column) = span.map_or((1, 1), |s| line_col(src, s.start));
            config.budget.currency_at = Some(format!("{}:{line}:{column}", path.display()));
        }
        if config.telemetry.refresh < MIN_REFRESH {
            return Err(invalid(
                locate::key_span(src, &["telemetry", "refresh"]),
                Some("telemetry.refresh".into()),
                crate::t!(
                    "err-config-refresh",
                    refresh = format!("{:?}", config.telemetry.refresh)
                ),
            ));
        }
        if let Some((ends, started)) = config.subscription.misordered() {
            return Err(invalid(
                locate::key_span(src, &["subscription", "ends"]),
                Some("subscription.ends".into()),
                crate::t!("sub-config-ends-before", ends = ends, started = started),
            ));
        }
        config.anchor_paths(path.parent().unwrap_or(Path::new("")));
        Ok(config)
    }

    /// Relative file paths in the config mean relative to the config file, not to wherever
    /// the program happens to be started.
    fn anchor_paths(&mut self, dir: &Path) {
        if let Some(SheetRef::File(sheet)) = &mut self.pricing.sheet
            && sheet.is_relative()
        {
            *sheet = dir.join(&*sheet);
        }
        if let Some(theme) = &mut self.ui.theme
            && values::looks_like_path(theme)
            && Path::new(theme).is_relative()
        {
            *theme = dir.join(&*theme).display().to_string();
        }
    }
}

#[cfg(test)]
mod tests;

//! Command-line definitions for every subcommand. Parsing only: no behaviour here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use rust_decimal::Decimal;

mod localize;
mod parse_error;
mod setup;
pub use localize::localized;
pub use parse_error::lines as parse_error_lines;
pub use setup::{DoctorArgs, InitArgs, PolicyArg};

/// How many GPUs the demo's simulator shows when `--gpus` does not say.
pub const DEMO_GPUS: u32 = 8;

const EXAMPLES: &str = "Examples:
  gpumeter --demo                          the cockpit on simulated GPUs and a demo cloud
  gpumeter --release-in 8h --on-expiry stop
                                           guard this instance: stop it in 8 hours
  gpumeter checklist --provider aws        what keeps billing after a release (exit 3 if any)
  gpumeter estimate --sku p4d.24xlarge --provider aws-us-east-1 --hours-per-day 10 --days 30
  gpumeter report --since 30d              where the money went
  gpumeter completions bash > ~/.local/share/bash-completion/completions/gpumeter";

#[derive(Debug, Parser)]
#[command(name = "gpumeter", version, about, long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    /// Run on simulated GPUs and a simulated cloud: no GPU, account or config needed.
    #[arg(long, global = true)]
    pub demo: bool,

    /// Config file [default: config.toml in the user config directory].
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// The cockpit's colour theme: dark, light, high-contrast, or a theme file.
    #[arg(long, value_name = "NAME|FILE")]
    pub theme: Option<String>,

    /// The language of what gpumeter shows: en or zh-CN [default: [ui] language, then
    /// LC_ALL, LC_MESSAGES, LANG]. JSON, CSV and metric names stay the same in every language,
    /// and a run with --json says everything in English.
    #[arg(long, global = true, value_name = "en|zh-CN")]
    pub lang: Option<crate::i18n::Lang>,

    /// The cockpit without colours (also when the NO_COLOR environment variable is set).
    #[arg(long)]
    pub no_color: bool,

    /// Where the ledger and the demo cloud's state live [default: the user data directory].
    #[arg(long, global = true, env = "GPUMETER_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Hide every destructive key and refuse destructive commands.
    #[arg(long, global = true)]
    pub read_only: bool,

    #[command(flatten)]
    pub cockpit: CockpitArgs,

    /// The cloud instance, for the cockpit and every command (before the subcommand's name).
    #[command(flatten)]
    pub target: TargetArgs,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options of the cockpit itself (`gpumeter` with no subcommand).
#[derive(Debug, Args)]
pub struct CockpitArgs {
    /// With --demo: start the demo cloud afresh.
    #[arg(long)]
    pub reset: bool,
    /// With --demo: the telemetry scenario (training, idle, cpu-bound, memory-leak,
    /// egress-burst, shared, mig-slice, power-capped, throttled, pcie-degraded) or a scenario
    /// file ending in .toml [default: training].
    #[arg(long, value_name = "NAME|FILE")]
    pub scenario: Option<String>,
    /// With --demo: how many simulated GPUs, 1 to 8 [default: 8].
    #[arg(long, value_name = "N")]
    pub gpus: Option<u32>,
    /// Release deadline this long from now (8h, 45m, 90s, 1h30m); overrides the config.
    #[arg(long, value_name = "DURATION", conflicts_with = "release_at")]
    pub release_in: Option<String>,
    /// Release deadline at the next 18:30 on the clock of the config's `timezone` (else TZ's,
    /// else the system's); overrides the config.
    #[arg(long, value_name = "HH:MM")]
    pub release_at: Option<String>,
    /// What happens at the deadline: alert, stop or release.
    #[arg(long, value_name = "POLICY")]
    pub on_expiry: Option<String>,
    /// After the deadline, how long before its policy runs (any key cancels) [default: 2m].
    #[arg(long, value_name = "DURATION")]
    pub grace: Option<String>,
    /// Idle this long (every GPU and the CPU) before the idle policy runs; overrides [idle].
    #[arg(long, value_name = "DURATION")]
    pub idle_after: Option<String>,
    /// What happens when the instance is idle: alert, stop or release; overrides [idle].
    #[arg(long, value_name = "POLICY")]
    pub on_idle: Option<String>,
    /// Release the instance once it has stayed stopped this long (3d, 12h), after the grace
    /// period; overrides [idle] stopped_release_after.
    #[arg(long, value_name = "DURATION")]
    pub stopped_release_after: Option<String>,
}

impl CockpitArgs {
    /// The demo's telemetry scenario, `training` unless `--scenario` names one.
    pub fn scenario(&self) -> &str {
        self.scenario.as_deref().unwrap_or("training")
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Pre-rental budget: on-demand, monthly and spot side by side, with the break-even point.
    #[command(after_help = "Examples:
  gpumeter estimate --sku p4d.24xlarge --provider aws-us-east-1 --hours-per-day 10 --days 30
  gpumeter estimate --rate 2.50 --currency USD --gpus 8 --hours-per-day 24 --days 7
  gpumeter estimate --compare --gpu H100 --gpus 8 --hours-per-day 12 --days 30")]
    Estimate(Box<EstimateArgs>),
    /// Bundled and user price sheets.
    #[command(subcommand)]
    Pricing(PricingCommand),
    /// One snapshot of the GPUs, the host and what you paid for against what you got.
    #[command(after_help = "Examples:
  gpumeter status --sku p4d.24xlarge --provider aws-us-east-1 --require-cuda 12.4
  gpumeter --provider aws status --json")]
    Status(Box<StatusArgs>),
    /// Did you get the GPU you pay for: what NVML sees and a short benchmark, against the card's
    /// rated figures. Exit 0 pass, 1 warn, 3 fail, 2 bad input, 4 no GPU.
    #[command(after_help = "Examples:
  gpumeter verify --sku p4de.24xlarge --provider aws-us-east-1
  gpumeter --provider aws verify --seconds 10 --json --on-fail release
  gpumeter verify --demo --scenario shared --on-fail release --dry-run")]
    Verify(Box<VerifyArgs>),
    /// What would keep billing after a release (exit 3 if anything would, 0 if nothing).
    #[command(after_help = "Examples:
  gpumeter checklist --provider aws --instance i-0abc --region us-west-2
  gpumeter checklist --json")]
    Checklist {
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Everything in the region that bills with no running instance using it, by cost (exit 3
    /// if anything does).
    #[command(after_help = "Examples:
  gpumeter sweep --provider aws --region us-west-2
  gpumeter sweep --provider aws --json
  gpumeter sweep --provider aws --all-regions
  gpumeter sweep --kind snapshot --older-than 90d
  gpumeter sweep --tag project=llm")]
    Sweep {
        #[arg(long)]
        json: bool,
        /// Every region enabled for the account, each priced by its own sheet, in place of one
        /// (a provider without regions is swept once, as it is anyway).
        #[arg(long, conflicts_with = "region")]
        all_regions: bool,
        /// Only resources of this kind (repeatable).
        #[arg(long, value_enum, value_name = "KIND")]
        kind: Vec<CleanupKindArg>,
        /// Only what was created at least this long ago (30d, 12h, 90m).
        #[arg(long, value_name = "DURATION")]
        older_than: Option<String>,
        /// Only what carries this tag: KEY=VALUE, or KEY for any value (repeatable; all must
        /// match).
        #[arg(long = "tag", value_name = "KEY[=VALUE]")]
        tags: Vec<String>,
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Delete what keeps billing: what `sweep` lists, chosen by id, kind, age, tag or
    /// attachment.
    /// Shows what goes, what each costs a month and what stays, asks (or --yes), and reads
    /// each delete back (exit 0 when every delete is confirmed, 1 otherwise).
    #[command(after_help = "Examples:
  gpumeter cleanup --unattached --kind disk --dry-run
  gpumeter cleanup --id vol-0abc --id eipalloc-0def --yes
  gpumeter cleanup --kind snapshot --older-than 30d
  gpumeter cleanup --tag project=llm --unattached --dry-run")]
    Cleanup(Box<CleanupArgs>),
    /// The headless guard: enforces the deadline and the idle rule, watches spot notices.
    #[command(after_help = "Examples:
  gpumeter watchdog --idle-after 30m --on-idle stop
  gpumeter watchdog --status
  gpumeter watchdog --install-service --dry-run")]
    Watchdog(WatchdogArgs),
    /// Release (terminate) the instance; what survives keeps billing.
    #[command(after_help = "Examples:
  gpumeter release --dry-run               the calls it would make, and what survives
  gpumeter release --provider alibaba --yes")]
    Release(ActionArgs),
    /// Stop the instance; disks (and on some providers compute) keep billing.
    #[command(after_help = "Example:\n  gpumeter stop --dry-run")]
    Stop(ActionArgs),
    /// Start a stopped instance again (AWS, Alibaba, Tencent, RunPod, Vast.ai, AutoDL and the demo;
    /// not Lambda Cloud or `command`); compute bills again from then.
    #[command(after_help = "Example:\n  gpumeter start --provider aws --instance i-0abc --dry-run")]
    Start(ActionArgs),
    /// Delete snapshots beyond the newest N, or exactly those named with --id.
    #[command(after_help = "Examples:
  gpumeter snapshot-clean --keep 1 --final-snapshot --dry-run
  gpumeter snapshot-clean --id snap-0a --id snap-0b")]
    SnapshotClean {
        /// How many of the newest snapshots to keep.
        #[arg(long, default_value_t = 1)]
        keep: usize,
        /// Take a snapshot of the system disk first.
        #[arg(long)]
        final_snapshot: bool,
        /// Delete exactly this snapshot of the instance (repeatable) instead of all but the
        /// newest N; `checklist` lists them with their ages.
        #[arg(long = "id", value_name = "ID", conflicts_with_all = ["keep", "final_snapshot"])]
        ids: Vec<String>,
        #[command(flatten)]
        common: ActionArgs,
    },
    /// Move the release deadline later (8h, 45m, 90s, 1h30m).
    #[command(after_help = "Example:\n  gpumeter extend 2h")]
    Extend {
        duration: String,
        #[command(flatten)]
        common: ActionArgs,
    },
    /// Spend history from the ledger: per day and component, idle spend, energy, actions,
    /// what still bills after a release.
    #[command(after_help = "Examples:
  gpumeter report --since 30d
  gpumeter report --since 7d --csv > spend.csv")]
    Report(ReportArgs),
    /// The provider's bill against the ledger: charges after a release, transfer between
    /// regions, overlapping instances, compute billed otherwise than metered, lines nothing
    /// explains. Exit 0 when they agree, 3 when anything is found, 2 for a bill it cannot read.
    #[command(after_help = "Examples:
  gpumeter audit --bill cur-2026-05.csv.gz --since 2026-05-01 --until 2026-06-01
  gpumeter audit --bill focus.csv --bill alibaba-bill.csv --json
  gpumeter audit --bill bill.csv --evidence refund-case")]
    Audit(AuditArgs),
    /// Prometheus metrics on /metrics: telemetry, cost, deadline, leftovers, guards.
    Serve(ServeArgs),
    /// Shell completions for bash, zsh, fish, elvish or powershell, on stdout.
    #[command(after_help = "Examples:
  gpumeter completions bash > ~/.local/share/bash-completion/completions/gpumeter
  gpumeter completions zsh > \"${fpath[1]}/_gpumeter\"
  gpumeter completions fish > ~/.config/fish/completions/gpumeter.fish")]
    Completions { shell: clap_complete::Shell },
    /// The manual page (roff), on stdout; with --dir, one page per subcommand written there.
    #[command(after_help = "Examples:
  gpumeter man > gpumeter.1 && man ./gpumeter.1
  gpumeter man --dir ~/.local/share/man/man1")]
    Man {
        /// Write gpumeter.1 and a gpumeter-<subcommand>.1 for each subcommand into DIR.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Checks what gpumeter needs here, one line each with the fix: NVML, the provider and
    /// instance, the key and what it may do, the watchdog, the sheet, the clock and the zone.
    /// Exit 0 when all the configured deadline policy needs works, 1 otherwise.
    #[command(after_help = "Examples:
  gpumeter doctor
  gpumeter --provider aws doctor --json")]
    Doctor(DoctorArgs),
    /// Writes a commented config from what was detected and what you pick; never replaces one
    /// without asking (or --force).
    #[command(after_help = "Examples:
  gpumeter init
  gpumeter --provider aws init --deadline 4h --at-zero stop --idle 30m --yes")]
    Init(InitArgs),
    /// Every instance and leftover across the configured providers and accounts, by cost.
    #[command(after_help = "Examples:
  gpumeter fleet
  gpumeter fleet --tag team=vision --json
  gpumeter fleet --provider alibaba --region cn-hangzhou

A [[fleet]] table that names no instances is read by listing: every GPU instance the account
holds in its region and everything that bills there with no instance.")]
    Fleet(FleetArgs),
}

/// `gpumeter fleet`: which accounts and instances, and the output format.
#[derive(Debug, Args)]
pub struct FleetArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Only instances and orphans carrying this tag: KEY=VALUE, or KEY for any value
    /// (repeatable; all must match).
    #[arg(long = "tag", value_name = "KEY[=VALUE]")]
    pub tags: Vec<String>,
    /// Only the accounts in this region (repeatable).
    #[arg(long = "region", value_name = "REGION")]
    pub regions: Vec<String>,
    /// Only the accounts on this provider (repeatable).
    #[arg(long = "provider", value_name = crate::config::ProviderKind::ids("|"), value_parser = parse_cloud)]
    pub providers: Vec<crate::config::ProviderKind>,
}

/// `gpumeter report`: the window and the output format.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Start: a span back from now (7d, 36h, 90m), a date (2026-05-01), a local time
    /// (2026-05-01 18:30) or an RFC 3339 instant.
    #[arg(long, value_name = "WHEN", default_value = "7d")]
    pub since: String,
    /// End, in the same forms [default: now].
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV (one row per day and currency) for spreadsheets.
    #[arg(long)]
    pub csv: bool,
    /// Print the window as a FOCUS 1.0 dataset (CSV): one row per instance, cost line and
    /// hour, every FOCUS column, for FinOps tools that read the clouds' billing exports.
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    pub focus: bool,
}

/// `gpumeter audit`: the bills, the span, the output and the evidence.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// A bill export: FOCUS 1.x CSV, the AWS Cost and Usage Report CSV, or the Alibaba or
    /// Tencent bill-details CSV, plain or gzip (repeatable).
    #[arg(long = "bill", value_name = "FILE", required = true)]
    pub bills: Vec<PathBuf>,
    /// Start of the span audited, in the forms `report` takes [default: the bills' first
    /// charge].
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// End of the span [default: the bills' last charge].
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// How far the bill's compute may be from the meter's, in percent of the meter's (at
    /// least 0.01 of the currency).
    #[arg(long, value_name = "PCT", default_value = "1")]
    pub tolerance: Decimal,
    /// Write a refund case into DIR: summary.md, actions.csv, minutes.csv, bill-lines.csv.
    #[arg(long, value_name = "DIR")]
    pub evidence: Option<PathBuf>,
}

/// `gpumeter cleanup`: what to delete. Every flag narrows the choice; at least one is needed.
#[derive(Debug, Args)]
pub struct CleanupArgs {
    /// Delete this resource (repeatable); the ids `gpumeter sweep` prints.
    #[arg(long = "id", value_name = "ID")]
    pub ids: Vec<String>,
    /// Only resources of this kind (repeatable).
    #[arg(long, value_enum, value_name = "KIND")]
    pub kind: Vec<CleanupKindArg>,
    /// Only what was created at least this long ago (30d, 12h, 90m).
    #[arg(long, value_name = "DURATION")]
    pub older_than: Option<String>,
    /// Only what carries this tag: KEY=VALUE, or KEY for any value (repeatable; all must
    /// match).
    #[arg(long = "tag", value_name = "KEY[=VALUE]")]
    pub tags: Vec<String>,
    /// Only what is attached to or associated with nothing.
    #[arg(long)]
    pub unattached: bool,
    /// Everything the sweep lists (still asks, unless --yes).
    #[arg(long, conflicts_with_all = ["ids", "kind", "older_than", "tags", "unattached"])]
    pub all: bool,
    #[command(flatten)]
    pub common: ActionArgs,
}

/// The kinds `cleanup --kind` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CleanupKindArg {
    Disk,
    Snapshot,
    Image,
    Ip,
    Lb,
    Volume,
}

/// What every destructive command takes.
#[derive(Debug, Args, Clone)]
pub struct ActionArgs {
    /// Print the exact calls it would make, and what would happen, without making them.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask: needed when there is no terminal to ask on.
    #[arg(long)]
    pub yes: bool,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Which cloud instance to watch or act on; each flag overrides `[instance]` in the config.
/// (`status`, `estimate` and `pricing show` have a `--provider` of their own that names a price
/// sheet: for them, give these flags before the subcommand, `gpumeter --provider aws status`.)
#[derive(Debug, Args, Clone, Default)]
pub struct TargetArgs {
    /// The provider's API to use: aws, alibaba, tencent, lambda, runpod, vast, autodl, command (the
    /// [command] section), or demo (the same as --demo).
    #[arg(long = "provider", id = "cloud", value_name = crate::config::ProviderKind::ids("|"), value_parser = parse_cloud)]
    pub cloud: Option<crate::config::ProviderKind>,
    /// The instance id [default: the config's, else this machine's, from the metadata service].
    #[arg(long, value_name = "ID")]
    pub instance: Option<String>,
    /// The provider's region [default: the config's, else the provider's variable, AWS_REGION].
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
}

fn parse_cloud(
    text: &str,
) -> Result<crate::config::ProviderKind, gpumeter_core::cloud::UnknownProvider> {
    text.parse()
}

impl Cli {
    /// The instance the command line names: the subcommand's flags first, then those given
    /// before it.
    pub fn target(&self) -> TargetArgs {
        let top = &self.target;
        let sub = match &self.command {
            Some(Command::Checklist { target, .. } | Command::Sweep { target, .. }) => Some(target),
            Some(Command::Watchdog(w)) => Some(&w.target),
            Some(Command::Release(a) | Command::Stop(a) | Command::Start(a)) => Some(&a.target),
            Some(Command::SnapshotClean { common, .. } | Command::Extend { common, .. }) => {
                Some(&common.target)
            }
            Some(Command::Cleanup(args)) => Some(&args.common.target),
            _ => None,
        };
        let sub = sub.cloned().unwrap_or_default();
        TargetArgs {
            cloud: sub.cloud.or(top.cloud),
            instance: sub.instance.or_else(|| top.instance.clone()),
            region: sub.region.or_else(|| top.region.clone()),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum PricingCommand {
    /// List the bundled sheets and their SKUs.
    List,
    /// Show every price for one SKU.
    Show {
        sku: String,
        /// Only look in this bundled sheet (by id, such as aws-us-east-1).
        #[arg(long)]
        provider: Option<String>,
        /// Look in this user sheet instead of the bundled ones.
        #[arg(long)]
        sheet: Option<PathBuf>,
    },
    /// Check a sheet; on error print file, line, column and what was expected (exit 2).
    Validate { file: PathBuf },
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct EstimateArgs {
    /// A bundled sheet by id (see `gpumeter pricing list`).
    #[arg(long, conflicts_with = "sheet")]
    pub provider: Option<String>,
    /// A user price sheet (TOML).
    #[arg(long)]
    pub sheet: Option<PathBuf>,
    /// The SKU to price from the sheet.
    #[arg(long)]
    pub sku: Option<String>,
    /// How many instances of the SKU.
    #[arg(long, default_value_t = 1)]
    pub instances: u32,

    /// Inline on-demand price per GPU-hour (instead of a sheet).
    #[arg(long)]
    pub rate: Option<Decimal>,
    /// Inline subscription price per GPU per month (30 days, 720 h).
    #[arg(long)]
    pub monthly: Option<Decimal>,
    /// Inline spot price per GPU-hour.
    #[arg(long)]
    pub spot_rate: Option<Decimal>,
    /// Currency of the inline prices (ISO code, such as USD or CNY); with --compare, the
    /// currency totals are ranked in.
    #[arg(long)]
    pub currency: Option<String>,
    /// GPUs the inline prices are multiplied by; with --compare, the fewest GPUs a SKU has.
    #[arg(long, default_value_t = 1)]
    pub gpus: u32,

    /// Hours of use per day, 0 to 24.
    #[arg(long)]
    pub hours_per_day: Decimal,
    /// Days in the plan.
    #[arg(long)]
    pub days: Decimal,

    /// Egress over the whole plan, in GB.
    #[arg(long)]
    pub egress_gb: Option<Decimal>,
    /// Price per GB of egress (overrides the sheet).
    #[arg(long)]
    pub egress_rate: Option<Decimal>,
    /// Storage kept for the whole plan, in GB.
    #[arg(long)]
    pub storage_gb: Option<Decimal>,
    /// Price per GB-month of storage (overrides the sheet).
    #[arg(long)]
    pub storage_rate: Option<Decimal>,

    /// Starts a day: each run is billed with the sheet's step, minimum and boot fee, and the
    /// day's hours are split evenly across the runs.
    #[arg(long, default_value_t = 1)]
    pub runs_per_day: u32,
    /// Licences charged per hour of running [default: one per instance, where the sheet
    /// prices licences].
    #[arg(long)]
    pub licenses: Option<u32>,
    /// Fixed bandwidth in Mbps (overrides the sheet's network.fixed_bandwidth_mbps).
    #[arg(long)]
    pub bandwidth_mbps: Option<Decimal>,
    /// Public IPs: attached while running, idle otherwise, over the whole plan.
    #[arg(long, default_value_t = 0)]
    pub public_ips: u32,
    /// Load balancers, billed every hour of the plan.
    #[arg(long, default_value_t = 0)]
    pub load_balancers: u32,
    /// Spot risk: how often the work checkpoints (90m, 1h); adds the expected rerun cost.
    #[arg(long, value_name = "DURATION")]
    pub checkpoint_every: Option<String>,
    /// Spot reclaims per day of running (overrides the sheet's billing.reclaims_per_day).
    #[arg(long)]
    pub reclaims_per_day: Option<Decimal>,

    /// Price the plan on every SKU of every bundled and configured sheet, ranked by total.
    #[arg(long, conflicts_with_all = ["provider", "sku", "rate", "monthly", "spot_rate"])]
    pub compare: bool,
    /// With --compare: a GPU model, matched loosely (`A100 80GB`, `4090`).
    #[arg(long, requires = "compare", value_name = "MODEL")]
    pub gpu: Option<String>,
    /// An exchange rate, FROM:TO=RATE (`USD:CNY=7.12`: 1 USD = 7.12 CNY); repeatable.
    #[arg(long, value_name = "RATE")]
    pub fx: Vec<String>,

    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The SKU you rent, to compare with the GPUs NVML reports.
    #[arg(long)]
    pub sku: Option<String>,
    /// Look the SKU up in this bundled sheet (by id, such as aws-us-east-1).
    #[arg(long, conflicts_with = "sheet")]
    pub provider: Option<String>,
    /// Look the SKU up in this user sheet.
    #[arg(long)]
    pub sheet: Option<PathBuf>,
    /// The CUDA version your job needs, such as 12.4; older drivers are reported.
    #[arg(long, value_name = "VERSION")]
    pub require_cuda: Option<crate::telemetry::CudaVersion>,

    /// With --demo: a bundled scenario (training, idle, cpu-bound, memory-leak, egress-burst,
    /// shared, mig-slice, power-capped, throttled, pcie-degraded) or a scenario file ending in
    /// .toml [default: training].
    #[arg(long, value_name = "NAME|FILE")]
    pub scenario: Option<String>,
    /// With --demo: how many GPUs, 1 to 8 [default: 1].
    #[arg(long)]
    pub gpus: Option<u32>,
    /// With --demo: the GPU model as NVML names it [default: NVIDIA A100-SXM4-80GB].
    #[arg(long)]
    pub gpu_model: Option<String>,
    /// With --demo: the simulator's seed [default: 42].
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --demo: seconds since the simulated start [default: 600].
    #[arg(long, value_name = "SECONDS")]
    pub at: Option<u64>,
}

/// `gpumeter verify`.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct VerifyArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The SKU you rent: the GPUs NVML reports are checked against it, and a shortfall is
    /// priced by its hourly price. Needs --provider or --sheet.
    #[arg(long)]
    pub sku: Option<String>,
    /// Look the SKU up in this bundled sheet (by id, such as aws-us-east-1).
    #[arg(long, conflicts_with = "sheet", value_name = "ID")]
    pub provider: Option<String>,
    /// Look the SKU up in this user sheet.
    #[arg(long, value_name = "FILE")]
    pub sheet: Option<PathBuf>,
    /// The longest the benchmark may run, in seconds, 1 to 600.
    #[arg(long, default_value_t = 20, value_name = "SECONDS")]
    pub seconds: u32,
    /// When the verdict is fail: alert (stderr and the configured webhooks), or stop or
    /// release the instance through the provider (for the cloud, give --provider before
    /// `verify`).
    #[arg(long, value_enum, value_name = "ACTION")]
    pub on_fail: Option<OnFailArg>,
    /// With --on-fail: print what it would do, and do nothing.
    #[arg(long, requires = "on_fail")]
    pub dry_run: bool,
    /// The CUDA version your job needs, such as 12.4: the driver and each card's compute
    /// capability are checked against it.
    #[arg(long, value_name = "VERSION")]
    pub require_cuda: Option<crate::telemetry::CudaVersion>,
    /// Fail a figure below this percentage of the card's rated one [default: 50].
    #[arg(long, value_name = "PCT")]
    pub fail_below: Option<f64>,
    /// Warn on a figure below this percentage of the card's rated one [default: 70].
    #[arg(long, value_name = "PCT")]
    pub warn_below: Option<f64>,
    /// With --demo: a scenario (training, shared, mig-slice, power-capped, throttled,
    /// pcie-degraded, ...) or a scenario file ending in .toml [default: training].
    #[arg(long, value_name = "NAME|FILE")]
    pub scenario: Option<String>,
    /// With --demo: how many GPUs, 1 to 8 [default: 1].
    #[arg(long, value_name = "N")]
    pub gpus: Option<u32>,
    /// Check the torch this interpreter imports against the cards: CUDA available, and built
    /// for their architecture [default: python3].
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "python3")]
    pub python: Option<String>,
    /// Download from this address (10 s or 1 GiB at most) and judge the best second against
    /// the Mbps the plan promises (the sheet's network.fixed_bandwidth_mbps, or the config's
    /// [instance] bandwidth_mbps).
    #[arg(long, value_name = "URL")]
    pub bandwidth: Option<String>,
}

/// What `verify --on-fail` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnFailArg {
    Alert,
    Stop,
    Release,
}

/// `gpumeter watchdog`.
#[derive(Debug, Args, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each is a flag of its own on the command line"
)]
pub struct WatchdogArgs {
    /// Say whether a watchdog guards the instance and when it last checked (exit 1 if none).
    #[arg(long, conflicts_with = "stop")]
    pub status: bool,
    /// Stop the instance's watchdog.
    #[arg(long)]
    pub stop: bool,
    /// How often it checks (5s, 1m; from 100ms to 1h).
    #[arg(long, env = "GPUMETER_WATCHDOG_INTERVAL", default_value = "5s")]
    pub interval: String,
    /// How often it asks the cloud for the instance's inventory while nothing happens (10m,
    /// 1h; never more often than it checks). After an action it reads back at once; the
    /// demo's cloud, a local file, is read every check.
    #[arg(long, env = "GPUMETER_INVENTORY_INTERVAL", default_value = "10m")]
    pub inventory_interval: String,
    /// Write a systemd user unit that runs this watchdog (with these flags) at boot and
    /// restarts it if it fails; say how to enable it.
    #[arg(long, conflicts_with_all = ["status", "stop", "uninstall_service"])]
    pub install_service: bool,
    /// Remove the systemd user unit --install-service wrote.
    #[arg(long, conflicts_with_all = ["status", "stop"])]
    pub uninstall_service: bool,
    /// With --install-service or --uninstall-service: print what would be written or removed,
    /// and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Stay in the foreground, attached to this terminal (the cockpit starts it detached).
    #[arg(long)]
    pub foreground: bool,
    /// Idle this long (every GPU and the CPU) before the idle policy runs; overrides [idle].
    #[arg(long, value_name = "DURATION")]
    pub idle_after: Option<String>,
    /// What happens when the instance is idle: alert, stop or release; overrides [idle].
    #[arg(long, value_name = "POLICY")]
    pub on_idle: Option<String>,
    /// Release the instance once it has stayed stopped this long (3d, 12h), after the grace
    /// period; overrides [idle] stopped_release_after.
    #[arg(long, value_name = "DURATION")]
    pub stopped_release_after: Option<String>,
    /// With --demo: the telemetry scenario the watchdog samples.
    #[arg(long, value_name = "NAME|FILE", default_value = "training")]
    pub scenario: String,
    /// With --demo: how many simulated GPUs [default: 8].
    #[arg(long, value_name = "N")]
    pub gpus: Option<u32>,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// `gpumeter serve`.
#[derive(Debug, Args, Clone)]
pub struct ServeArgs {
    /// Address and port to listen on; anything but loopback prints a warning.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:9835")]
    pub listen: std::net::SocketAddr,
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory as _, Parser as _};

    use super::*;

    /// Every `gpumeter ...` line in a help text's examples, as arguments (a shell redirect and
    /// what follows it, and the text after two spaces, are not arguments).
    fn example_lines(help: &str) -> Vec<Vec<String>> {
        help.lines()
            .filter_map(|l| l.trim_start().strip_prefix("gpumeter "))
            .map(|l| {
                let l = l.split("  ").next().unwrap_or(l);
                let l = l.split(['>', '&', '|']).next().unwrap_or(l);
                l.split_whitespace().map(str::to_string).collect()
            })
            .collect()
    }

    #[test]
    fn every_example_in_help_parses() {
        let mut command = Cli::command();
        let mut helps = vec![command.render_long_help().to_string()];
        for sub in command.get_subcommands_mut() {
            helps.push(sub.render_long_help().to_string());
        }
        let examples: Vec<Vec<String>> = helps.iter().flat_map(|h| example_lines(h)).collect();
        assert!(examples.len() >= 8, "{examples:?}");
        for args in examples {
            let argv = std::iter::once("gpumeter".to_string()).chain(args.iter().cloned());
            if let Err(e) = Cli::try_parse_from(argv) {
                panic!("`gpumeter {}` does not parse: {e}", args.join(" "));
            }
        }
    }
}

//! Command-line definitions for every subcommand. Parsing only: no behaviour here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use rust_decimal::Decimal;

#[derive(Debug, Parser)]
#[command(name = "gpumeter", version, about, long_about = None)]
pub struct Cli {
    /// Run on simulated GPUs and a simulated cloud: no GPU, account or config needed.
    #[arg(long, global = true)]
    pub demo: bool,

    /// Config file [default: config.toml in the user config directory].
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Colour theme: dark, light, high-contrast, or a theme file.
    #[arg(long, global = true, value_name = "NAME|FILE")]
    pub theme: Option<String>,

    /// No colours (also when the NO_COLOR environment variable is set).
    #[arg(long, global = true)]
    pub no_color: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Pre-rental budget: on-demand, monthly and spot side by side, with the break-even point.
    Estimate(Box<EstimateArgs>),
    /// Bundled and user price sheets.
    #[command(subcommand)]
    Pricing(PricingCommand),
    /// One snapshot of the GPUs, the host and what you paid for against what you got.
    Status(Box<StatusArgs>),
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
    /// Inline subscription price per GPU per month (30 days).
    #[arg(long)]
    pub monthly: Option<Decimal>,
    /// Inline spot price per GPU-hour.
    #[arg(long)]
    pub spot_rate: Option<Decimal>,
    /// Currency of the inline prices (ISO code, such as USD or CNY).
    #[arg(long)]
    pub currency: Option<String>,
    /// GPUs the inline prices are multiplied by.
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

    /// With --demo: a bundled scenario (training, idle, cpu-bound, memory-leak, egress-burst) or
    /// a scenario file ending in .toml [default: training].
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

//! The flags of the commands that set gpumeter up on a machine: `doctor` and `init`.

use clap::Args;

use crate::config::OnExpiry;

/// `gpumeter doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print JSON instead of lines: stable keys, every value in English words or numbers.
    #[arg(long)]
    pub json: bool,
}

/// `gpumeter init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The release deadline: a duration from the start (4h, 90m) or a local clock time (18:30).
    #[arg(long, value_name = "DURATION|HH:MM")]
    pub deadline: Option<String>,
    /// What happens when the deadline reaches zero.
    #[arg(long, value_enum, value_name = "POLICY")]
    pub at_zero: Option<PolicyArg>,
    /// Idle this long (every GPU and the CPU) counts as idle [default: 30m].
    #[arg(long, value_name = "DURATION")]
    pub idle: Option<String>,
    /// What happens when the instance is idle [default: alert].
    #[arg(long, value_enum, value_name = "POLICY")]
    pub on_idle: Option<PolicyArg>,
    /// A webhook that alerts are posted to (Slack, Feishu/Lark, DingTalk, WeCom by host; any
    /// other gets a plain JSON POST).
    #[arg(long, value_name = "URL")]
    pub webhook: Option<String>,
    /// Ask nothing: what no flag gives takes its default.
    #[arg(long)]
    pub yes: bool,
    /// Replace an existing config without asking.
    #[arg(long)]
    pub force: bool,
}

/// `alert`, `stop` or `release`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    Alert,
    Stop,
    Release,
}

impl From<PolicyArg> for OnExpiry {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Alert => OnExpiry::Alert,
            PolicyArg::Stop => OnExpiry::Stop,
            PolicyArg::Release => OnExpiry::Release,
        }
    }
}

//! The report in a few words, for the cockpit's GPU panel ("verified 09:12: 97 % of rated,
//! dedicated"): the lowest throughput share and one word for what NVML saw.

use super::report::{Check, Verdict, VerifyReport};

/// The throughput checks and the short name of each figure.
const THROUGHPUT: [(&str, &str); 5] = [
    ("memory_bandwidth", "bandwidth"),
    ("fp32_throughput", "FP32"),
    ("bf16_throughput", "BF16"),
    ("fp16_throughput", "FP16"),
    ("gemm_throughput", "GEMM"),
];

/// What a failing or warning NVML check makes of the card, most telling first.
const WORDS: [(&str, &str); 13] = [
    ("mig", "MIG slice"),
    ("foreign_memory", "shared"),
    ("foreign_utilisation", "shared"),
    ("vgpu", "vGPU"),
    ("gpu_memory", "sliced memory"),
    ("gpu_model", "wrong model"),
    ("gpu_count", "GPUs missing"),
    ("compute_mode", "prohibited"),
    ("power_cap", "power-capped"),
    ("clock_events", "throttled"),
    ("ecc", "memory errors"),
    ("pcie_link", "PCIe degraded"),
    ("compute_capability", "CUDA mismatch"),
];

/// The checks that tell whether another tenant shares the card.
const SHARING: [&str; 4] = ["foreign_memory", "foreign_utilisation", "mig", "vgpu"];

impl VerifyReport {
    /// "97 % of rated, dedicated" or "48 % of rated BF16, shared": the lowest measured share of
    /// rated throughput (with the figure's name when it falls short) and one word for NVML.
    pub fn summary(&self) -> String {
        let judged = |c: &&Check| c.read && c.verdict != Verdict::Pass;
        let lowest = self
            .checks
            .iter()
            .filter(|c| c.read)
            .filter_map(|c| {
                let name = THROUGHPUT.iter().find(|(code, _)| *code == c.code)?.1;
                Some((c.ratio?, name, c.verdict))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let speed = match lowest {
            Some((ratio, _, Verdict::Pass)) => format!("{:.0} % of rated", ratio * 100.0),
            Some((ratio, name, _)) => format!("{:.0} % of rated {name}", ratio * 100.0),
            None if self.checks.iter().any(|c| {
                c.measured.is_some() && THROUGHPUT.iter().any(|(code, _)| *code == c.code)
            }) =>
            {
                "no rating to compare".to_owned()
            }
            None => "not benchmarked".to_owned(),
        };
        let word = WORDS
            .iter()
            .find(|(code, _)| self.checks.iter().filter(judged).any(|c| c.code == *code))
            .map(|(_, word)| *word);
        // Dedicated is claimed only on every check of sharing read: one that could not be
        // read leaves room for another tenant, however clean the others were.
        let sharing_read = self
            .checks
            .iter()
            .any(|c| c.code == "foreign_memory" && c.read)
            && self
                .checks
                .iter()
                .filter(|c| SHARING.contains(&c.code))
                .all(|c| c.read);
        let word = match word {
            Some(w) => w,
            None if sharing_read && self.unread == 0 => "dedicated",
            // Not "dedicated" beside a check that could not be read, of whatever kind.
            None if sharing_read => "no sharing seen",
            None => "sharing not known",
        };
        format!("{speed}, {word}")
    }
}

//! The report in a few words, for the cockpit's GPU panel ("verified 09:12: 97 % of rated,
//! dedicated"): the lowest throughput share and one word for what NVML saw.

use super::report::{Check, Verdict, VerifyReport};

type Word = fn() -> std::borrow::Cow<'static, str>;

/// The throughput checks and the short name of each figure.
const THROUGHPUT: [(&str, Word); 5] = [
    ("memory_bandwidth", || crate::t!("verify-figure-bandwidth")),
    ("fp32_throughput", || "FP32".into()),
    ("bf16_throughput", || "BF16".into()),
    ("fp16_throughput", || "FP16".into()),
    ("gemm_throughput", || "GEMM".into()),
];

/// What a failing or warning NVML check makes of the card, most telling first.
const WORDS: [(&str, Word); 13] = [
    ("mig", || crate::t!("verify-word-mig")),
    ("foreign_memory", || crate::t!("verify-word-shared")),
    ("foreign_utilisation", || crate::t!("verify-word-shared")),
    ("vgpu", || "vGPU".into()),
    ("gpu_memory", || crate::t!("verify-word-sliced")),
    ("gpu_model", || crate::t!("verify-word-wrong-model")),
    ("gpu_count", || crate::t!("verify-word-gpus-missing")),
    ("compute_mode", || crate::t!("verify-word-prohibited")),
    ("power_cap", || crate::t!("verify-word-power-capped")),
    ("clock_events", || crate::t!("verify-word-throttled")),
    ("ecc", || crate::t!("verify-word-memory-errors")),
    ("pcie_link", || crate::t!("verify-word-pcie")),
    ("compute_capability", || crate::t!("verify-word-cuda")),
];

/// The checks that tell whether another tenant shares the card.
const SHARING: [&str; 4] = ["foreign_memory", "foreign_utilisation", "mig", "vgpu"];

impl VerifyReport {
    /// "97 % of rated, dedicated" or "48 % of rated BF16, shared": the lowest measured share of
    /// rated throughput (with the figure's name when it falls short) and one word for NVML. In
    /// English, as the ledger keeps it; [`VerifyReport::shown_summary`] is the user's language.
    pub fn summary(&self) -> String {
        crate::i18n::scoped(crate::i18n::Lang::En, || self.shown_summary())
    }

    /// [`VerifyReport::summary`] in the user's language.
    pub fn shown_summary(&self) -> String {
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
            Some((ratio, _, Verdict::Pass)) => {
                crate::t!(
                    "verify-summary-rated",
                    pct = format!("{:.0}", ratio * 100.0)
                )
            }
            Some((ratio, name, _)) => crate::t!(
                "verify-summary-rated-of",
                pct = format!("{:.0}", ratio * 100.0),
                name = name()
            ),
            None if self.checks.iter().any(|c| {
                c.measured.is_some() && THROUGHPUT.iter().any(|(code, _)| *code == c.code)
            }) =>
            {
                crate::t!("verify-summary-no-rating").into_owned()
            }
            None => crate::t!("verify-summary-not-benchmarked").into_owned(),
        };
        let word = WORDS
            .iter()
            .find(|(code, _)| self.checks.iter().filter(judged).any(|c| c.code == *code))
            .map(|(_, word)| word());
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
            None if sharing_read && self.unread == 0 => crate::t!("verify-word-dedicated"),
            // Not "dedicated" beside a check that could not be read, of whatever kind.
            None if sharing_read => crate::t!("verify-word-no-sharing-seen"),
            None => crate::t!("verify-word-sharing-unknown"),
        };
        crate::t!("verify-summary", speed = speed, word = word)
    }
}

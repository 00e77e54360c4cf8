//! CUDA against what the user's job needs: the driver's CUDA version (the same rule as
//! [`check_cuda`]), and whether that CUDA can build for the card's compute capability at all.

use super::compat::{Buildable, buildable, parse_capability};
use super::gpu::Gpu;
use super::report::{Check, Reading, Verdict, VerifyInput};
use crate::telemetry::{Metric, Severity, check_cuda};

/// The driver's CUDA against `--require-cuda`, when one was given.
pub(super) fn driver(input: &VerifyInput<'_>) -> Option<Check> {
    let required = input.require_cuda?;
    let driver = &input.reading.driver;
    let rated = Reading::text(required.to_string(), "");
    Some(match (check_cuda(required, driver), driver.cuda_version) {
        (_, Metric::Unavailable(why)) => {
            Check::unread("cuda_version", None, why, "the driver's CUDA version").rated(rated)
        }
        (Some(f), Metric::Value(have)) => {
            let verdict = if f.severity == Severity::Critical {
                Verdict::Fail
            } else {
                Verdict::Warn
            };
            Check::new("cuda_version", None, verdict, f.message)
                .measured(Reading::text(have.to_string(), ""))
                .rated(rated)
        }
        (None, Metric::Value(have)) => Check::new(
            "cuda_version",
            None,
            Verdict::Pass,
            format!("the driver supports CUDA up to {have}, you need {required}"),
        )
        .measured(Reading::text(have.to_string(), ""))
        .rated(rated),
    })
}

/// The card's compute capability against the rated table and against `--require-cuda`.
pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let expected = gpu.rated.map(|r| r.compute_capability);
    let reported = match &gpu.sample.compute_capability {
        Metric::Value(text) => parse_capability(text),
        Metric::Unavailable(why) => {
            return Check::unread("compute_capability", at, why, "the compute capability");
        }
    };
    let Some(cc) = reported.or(expected) else {
        return Check::unread(
            "compute_capability",
            at,
            "NVML gave no compute capability as major.minor",
            "the compute capability",
        );
    };
    let sm = |(major, minor): (u32, u32)| format!("sm_{major}{minor}");
    let mut check = match (input.require_cuda, expected) {
        (Some(cuda), _) => match buildable(cuda, cc) {
            Buildable::No(why) => Check::new(
                "compute_capability",
                at,
                Verdict::Fail,
                format!(
                    "CUDA {cuda} cannot build for {} ({}): {why}",
                    sm(cc),
                    gpu.model()
                ),
            ),
            Buildable::Yes => Check::new(
                "compute_capability",
                at,
                Verdict::Pass,
                format!("CUDA {cuda} builds for {} ({})", sm(cc), gpu.model()),
            ),
            Buildable::Unknown => Check::unread(
                "compute_capability",
                at,
                format!("which CUDA builds for {} is not known here", sm(cc)),
                "whether CUDA can build for the card",
            ),
        },
        (None, _) => Check::new(
            "compute_capability",
            at,
            Verdict::Pass,
            format!("{} ({})", sm(cc), gpu.model()),
        ),
    };
    if let (Some(e), Some(r)) = (expected, reported)
        && e != r
        && check.read
        && check.verdict == Verdict::Pass
    {
        check.verdict = Verdict::Warn;
        check.message = format!(
            "the card reports {} but {} cards are {}: it may not be the model it claims",
            sm(r),
            gpu.model(),
            sm(e)
        );
    }
    check.measured = Some(Reading::text(
        reported.map_or_else(|| "not read".to_owned(), sm),
        "",
    ));
    check.rated = expected.map(|e| Reading::text(sm(e), ""));
    check
}

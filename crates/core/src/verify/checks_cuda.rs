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
        (_, Metric::Unavailable(why)) => Check::unread("cuda_version", None, why, || {
            crate::t!("verify-what-driver-cuda")
        })
        .rated(rated),
        (Some(f), Metric::Value(have)) => {
            let verdict = if f.severity == Severity::Critical {
                Verdict::Fail
            } else {
                Verdict::Warn
            };
            // The finding decides; verify says it in its own words, as the finding does.
            Check::says("cuda_version", None, verdict, move || {
                crate::t!(
                    "verify-cuda-too-old",
                    have = have.to_string(),
                    required = required.to_string()
                )
            })
            .measured(Reading::text(have.to_string(), ""))
            .rated(rated)
        }
        (None, Metric::Value(have)) => {
            Check::says("cuda_version", None, Verdict::Pass, move || {
                crate::t!(
                    "verify-cuda-driver-ok",
                    have = have.to_string(),
                    required = required.to_string()
                )
            })
            .measured(Reading::text(have.to_string(), ""))
            .rated(rated)
        }
    })
}

fn what_cc() -> std::borrow::Cow<'static, str> {
    crate::t!("verify-what-cc")
}

/// The card's compute capability against the rated table and against `--require-cuda`.
pub(super) fn per_gpu(input: &VerifyInput<'_>, gpu: &Gpu<'_>) -> Check {
    let at = gpu.at;
    let expected = gpu.rated.map(|r| r.compute_capability);
    let reported = match &gpu.sample.compute_capability {
        Metric::Value(text) => parse_capability(text),
        Metric::Unavailable(why) => {
            return Check::unread("compute_capability", at, why, what_cc);
        }
    };
    let Some(cc) = reported.or(expected) else {
        return Check::unread(
            "compute_capability",
            at,
            "NVML gave no compute capability as major.minor",
            what_cc,
        );
    };
    let sm = |(major, minor): (u32, u32)| format!("sm_{major}{minor}");
    let model = gpu.model().to_owned();
    let card = sm(cc);
    let mut check = match (input.require_cuda, expected) {
        (Some(cuda), _) => match buildable(cuda, cc) {
            Buildable::No(_) => Check::says("compute_capability", at, Verdict::Fail, move || {
                let why = match buildable(cuda, cc) {
                    Buildable::No(why) => why,
                    Buildable::Yes | Buildable::Unknown => String::new(),
                };
                crate::t!(
                    "verify-cc-cannot-build",
                    cuda = cuda.to_string(),
                    sm = card.as_str(),
                    model = model.as_str(),
                    why = why
                )
            }),
            Buildable::Yes => Check::says("compute_capability", at, Verdict::Pass, move || {
                crate::t!(
                    "verify-cc-builds",
                    cuda = cuda.to_string(),
                    sm = card.as_str(),
                    model = model.as_str()
                )
            }),
            Buildable::Unknown => Check::unread_says(
                "compute_capability",
                at,
                move || crate::t!("verify-cc-unknown", sm = card.as_str()),
                || crate::t!("verify-what-cc-build"),
            ),
        },
        (None, _) => Check::says("compute_capability", at, Verdict::Pass, move || {
            crate::t!(
                "verify-cc-plain",
                sm = card.as_str(),
                model = model.as_str()
            )
        }),
    };
    if let (Some(e), Some(r)) = (expected, reported)
        && e != r
        && check.read
        && check.verdict == Verdict::Pass
    {
        check.verdict = Verdict::Warn;
        let (reported, model, expected) = (sm(r), gpu.model().to_owned(), sm(e));
        check.say(move || {
            crate::t!(
                "verify-cc-mismatch",
                reported = reported.as_str(),
                model = model.as_str(),
                expected = expected.as_str()
            )
        });
    }
    check.measured = Some(Reading::text(
        reported.map_or_else(|| "not read".to_owned(), sm),
        "",
    ));
    check.rated = expected.map(|e| Reading::text(sm(e), ""));
    check
}

//! One GPU as the checks see it: its NVML sample, its facts, its benchmark and its rated row,
//! matched by NVML index.

use super::rated::{self, RatedGpu};
use super::{GpuFacts, Measured, VerifyInput};
use crate::telemetry::{GpuSample, Unavailable};
use crate::text::one_line;

/// The longest NVML name a message quotes.
const NAME_CHARS: usize = 80;

pub(super) struct Gpu<'a> {
    pub index: u32,
    /// `Some(index)`, as a check's `gpu` field takes it.
    pub at: Option<u32>,
    pub sample: &'a GpuSample,
    /// A GPU whose facts were not read gets facts that each say so.
    pub facts: std::borrow::Cow<'a, GpuFacts>,
    pub measured: Option<&'a Measured>,
    pub rated: Option<&'static RatedGpu>,
    /// NVML's name made one safe line, or `GPU 3` where it could not be read.
    pub name: String,
}

impl<'a> Gpu<'a> {
    pub fn new(input: &VerifyInput<'a>, sample: &'a GpuSample) -> Self {
        let index = sample.index;
        let facts = input.facts.iter().find(|f| f.index == index).map_or_else(
            || {
                std::borrow::Cow::Owned(GpuFacts::unavailable(
                    index,
                    Unavailable::Failed("not_read"),
                ))
            },
            std::borrow::Cow::Borrowed,
        );
        let raw = sample.name.value().map(String::as_str);
        Gpu {
            index,
            at: Some(index),
            sample,
            facts,
            measured: input.measured.iter().find(|m| m.index == index),
            rated: raw.and_then(|n| rated::rated_for(n, sample.mem_total_mib.get())),
            name: raw.map_or_else(|| format!("GPU {index}"), |n| one_line(n, NAME_CHARS)),
        }
    }

    /// The rated model's name for messages: `A100 80GB SXM4`, else NVML's name.
    pub fn model(&self) -> &str {
        self.rated.map_or(self.name.as_str(), |r| r.model)
    }
}

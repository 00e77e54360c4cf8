//! One reading of one metric: a value, or the reason there is none. Never a silent zero.

use std::fmt;

use serde::{Serialize, Serializer};

/// Why a metric has no value in this sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unavailable {
    /// The device, driver or kernel does not offer this reading (NVML `NotSupported`, or a driver
    /// too old to have the call).
    Unsupported,
    /// A rate or a percentage that needs two readings, and this was the first.
    Pending,
    /// The reading was attempted and failed; the kind names the error (`no_permission`,
    /// `gpu_lost`, `not_found`, `parse`, ...).
    Failed(&'static str),
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::Unsupported => f.write_str("unsupported"),
            Unavailable::Pending => f.write_str("pending"),
            Unavailable::Failed(kind) => write!(f, "failed: {kind}"),
        }
    }
}

/// A metric reading. In JSON a value is written as itself and an unavailable reading as `null`;
/// the reasons are listed separately (see [`Unavailability`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Metric<T> {
    Value(T),
    Unavailable(Unavailable),
}

impl<T> Metric<T> {
    pub fn value(&self) -> Option<&T> {
        match self {
            Metric::Value(v) => Some(v),
            Metric::Unavailable(_) => None,
        }
    }

    pub fn into_value(self) -> Option<T> {
        match self {
            Metric::Value(v) => Some(v),
            Metric::Unavailable(_) => None,
        }
    }

    pub fn reason(&self) -> Option<Unavailable> {
        match self {
            Metric::Value(_) => None,
            Metric::Unavailable(why) => Some(*why),
        }
    }

    pub fn is_value(&self) -> bool {
        matches!(self, Metric::Value(_))
    }

    pub fn as_ref(&self) -> Metric<&T> {
        match self {
            Metric::Value(v) => Metric::Value(v),
            Metric::Unavailable(why) => Metric::Unavailable(*why),
        }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Metric<U> {
        match self {
            Metric::Value(v) => Metric::Value(f(v)),
            Metric::Unavailable(why) => Metric::Unavailable(why),
        }
    }

    /// Derives a reading that can itself fail.
    pub fn and_then<U>(self, f: impl FnOnce(T) -> Result<U, Unavailable>) -> Metric<U> {
        match self {
            Metric::Value(v) => f(v).into(),
            Metric::Unavailable(why) => Metric::Unavailable(why),
        }
    }

    /// Combines two readings; the first missing one gives the reason.
    pub fn zip<U>(self, other: Metric<U>) -> Metric<(T, U)> {
        match (self, other) {
            (Metric::Value(a), Metric::Value(b)) => Metric::Value((a, b)),
            (Metric::Unavailable(why), _) | (_, Metric::Unavailable(why)) => {
                Metric::Unavailable(why)
            }
        }
    }
}

impl<T: Copy> Metric<T> {
    pub fn get(&self) -> Option<T> {
        self.value().copied()
    }
}

impl<T> From<Result<T, Unavailable>> for Metric<T> {
    fn from(r: Result<T, Unavailable>) -> Self {
        match r {
            Ok(v) => Metric::Value(v),
            Err(why) => Metric::Unavailable(why),
        }
    }
}

impl<T: Serialize> Serialize for Metric<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Metric::Value(v) => v.serialize(s),
            Metric::Unavailable(_) => s.serialize_none(),
        }
    }
}

/// The metrics of a sample that have no value, by JSON field name, with their reasons.
pub trait Unavailability {
    fn unavailable(&self) -> Vec<(&'static str, Unavailable)>;
}

/// Collects `(name, reason)` for every unavailable metric among `fields`.
pub fn reasons<const N: usize>(
    fields: [(&'static str, Option<Unavailable>); N],
) -> Vec<(&'static str, Unavailable)> {
    fields
        .into_iter()
        .filter_map(|(name, why)| why.map(|w| (name, w)))
        .collect()
}

/// Byte counts and counters become `f64` only for display and statistics, where 2^53 bytes
/// (8 PiB) of precision is plenty.
#[expect(
    clippy::cast_precision_loss,
    reason = "counters below 2^53 convert exactly"
)]
pub fn u64_to_f64(x: u64) -> f64 {
    x as f64
}

/// Rounds a non-negative quantity to a whole count, saturating at the ends; NaN becomes 0.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "`as` from f64 saturates, which is the intent"
)]
pub fn f64_to_u64(x: f64) -> u64 {
    x.round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unavailable_serialises_as_null_and_value_as_itself() {
        let m: Metric<u32> = Metric::Unavailable(Unavailable::Unsupported);
        assert_eq!(serde_json::to_string(&m).unwrap(), "null");
        assert_eq!(serde_json::to_string(&Metric::Value(7_u32)).unwrap(), "7");
    }

    #[test]
    fn reasons_read_as_the_brief_says() {
        assert_eq!(Unavailable::Unsupported.to_string(), "unsupported");
        assert_eq!(
            Unavailable::Failed("gpu_lost").to_string(),
            "failed: gpu_lost"
        );
    }

    #[test]
    fn zip_keeps_the_first_reason() {
        let a: Metric<u32> = Metric::Unavailable(Unavailable::Pending);
        let b: Metric<u32> = Metric::Unavailable(Unavailable::Unsupported);
        assert_eq!(a.zip(b).reason(), Some(Unavailable::Pending));
    }

    #[test]
    fn float_helpers_saturate() {
        assert_eq!(f64_to_u64(-3.0), 0);
        assert_eq!(f64_to_u64(f64::NAN), 0);
        assert_eq!(f64_to_u64(2.6), 3);
        assert!((u64_to_f64(1 << 40) - 1_099_511_627_776.0).abs() < f64::EPSILON);
    }
}

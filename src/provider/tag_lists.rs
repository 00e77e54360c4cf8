//! The tag lists Alibaba Cloud and Tencent Cloud return, as `LinkedResource::tags` holds them
//! (key to value). Alibaba wraps a list in an object (`"Tags": {"Tag": [...]}`), Tencent does
//! not (`"Tags": [...]`); ECS and SLB, and Tencent's CLB, name the pair `TagKey`/`TagValue`,
//! Alibaba's VPC and Tencent's CBS, CVM and VPC `Key`/`Value`.
//!
//! A reply without tags, a `null` list, or one whose tags are not in the documented shape
//! reads as no tags: a tag only narrows what a cleanup picks, so a shape the adapter cannot
//! read must not hide a resource that bills. A pair without a key is dropped.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

pub type Tags = BTreeMap<String, String>;

/// `{"TagKey": "...", "TagValue": "..."}`.
#[derive(Debug, Default, Deserialize)]
struct TagKeyPair {
    #[serde(rename = "TagKey", default)]
    key: Option<String>,
    #[serde(rename = "TagValue", default)]
    value: Option<String>,
}

/// `{"Key": "...", "Value": "..."}`.
#[derive(Debug, Default, Deserialize)]
struct KeyPair {
    #[serde(rename = "Key", default)]
    key: Option<String>,
    #[serde(rename = "Value", default)]
    value: Option<String>,
}

/// Alibaba's wrapper: `{"Tag": [...]}`.
#[derive(Debug, Deserialize)]
#[serde(bound = "T: DeserializeOwned")]
struct Wrapped<T> {
    #[serde(rename = "Tag", default)]
    tag: Option<Vec<T>>,
}

trait Pair {
    fn pair(self) -> (Option<String>, Option<String>);
}

impl Pair for TagKeyPair {
    fn pair(self) -> (Option<String>, Option<String>) {
        (self.key, self.value)
    }
}

impl Pair for KeyPair {
    fn pair(self) -> (Option<String>, Option<String>) {
        (self.key, self.value)
    }
}

fn collect<T: Pair>(items: Option<Vec<T>>) -> Tags {
    items
        .into_iter()
        .flatten()
        .filter_map(|t| match t.pair() {
            (Some(key), value) if !key.is_empty() => Some((key, value.unwrap_or_default())),
            _ => None,
        })
        .collect()
}

fn bare<'de, D: Deserializer<'de>, T: Pair + DeserializeOwned>(de: D) -> Result<Tags, D::Error> {
    let value = serde_json::Value::deserialize(de)?;
    Ok(collect(
        serde_json::from_value::<Option<Vec<T>>>(value).unwrap_or_default(),
    ))
}

fn wrapped<'de, D: Deserializer<'de>, T: Pair + DeserializeOwned>(de: D) -> Result<Tags, D::Error> {
    let value = serde_json::Value::deserialize(de)?;
    let list = serde_json::from_value::<Option<Wrapped<T>>>(value)
        .ok()
        .flatten()
        .and_then(|w| w.tag);
    Ok(collect(list))
}

/// Alibaba ECS (disks, snapshots, images, instances) and SLB:
/// `{"Tag": [{"TagKey", "TagValue"}]}`.
pub fn alibaba_tag_key<'de, D: Deserializer<'de>>(de: D) -> Result<Tags, D::Error> {
    wrapped::<D, TagKeyPair>(de)
}

/// Alibaba VPC (EIPs): `{"Tag": [{"Key", "Value"}]}`.
pub fn alibaba_key<'de, D: Deserializer<'de>>(de: D) -> Result<Tags, D::Error> {
    wrapped::<D, KeyPair>(de)
}

/// Tencent CBS (disks, snapshots), CVM (images, instances) and VPC (addresses):
/// `[{"Key", "Value"}]`.
pub fn tencent_key<'de, D: Deserializer<'de>>(de: D) -> Result<Tags, D::Error> {
    bare::<D, KeyPair>(de)
}

/// Tencent CLB (load balancers): `[{"TagKey", "TagValue"}]`.
pub fn tencent_tag_key<'de, D: Deserializer<'de>>(de: D) -> Result<Tags, D::Error> {
    bare::<D, TagKeyPair>(de)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct Four {
        #[serde(rename = "A", deserialize_with = "alibaba_tag_key")]
        ali_ecs: Tags,
        #[serde(rename = "B", deserialize_with = "alibaba_key")]
        ali_vpc: Tags,
        #[serde(rename = "C", deserialize_with = "tencent_key")]
        tc_key: Tags,
        #[serde(rename = "D", deserialize_with = "tencent_tag_key")]
        tc_tag_key: Tags,
    }

    fn read(json: &str) -> Four {
        serde_json::from_str(json).unwrap()
    }

    fn want(pairs: &[(&str, &str)]) -> Tags {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn each_shape_reads_its_own_pairs() {
        let four = read(
            r#"{"A": {"Tag": [{"TagKey": "project", "TagValue": "llm"}]},
                "B": {"Tag": [{"Key": "owner", "Value": "ana"}, {"Key": "keep", "Value": ""}]},
                "C": [{"Key": "project", "Value": "cv"}],
                "D": [{"TagKey": "team", "TagValue": "infra"}]}"#,
        );
        assert_eq!(four.ali_ecs, want(&[("project", "llm")]));
        assert_eq!(four.ali_vpc, want(&[("keep", ""), ("owner", "ana")]));
        assert_eq!(four.tc_key, want(&[("project", "cv")]));
        assert_eq!(four.tc_tag_key, want(&[("team", "infra")]));
    }

    #[test]
    fn absent_null_or_misshapen_lists_read_as_no_tags() {
        for json in [
            "{}",
            r#"{"A": null, "B": {"Tag": null}, "C": null, "D": null}"#,
            r#"{"A": {}, "B": {"Tag": []}, "C": [], "D": []}"#,
            r#"{"A": [{"TagKey": "k", "TagValue": "v"}], "B": "k=v", "C": {"Tag": []}, "D": 7}"#,
        ] {
            let four = read(json);
            assert!(
                four.ali_ecs.is_empty()
                    && four.ali_vpc.is_empty()
                    && four.tc_key.is_empty()
                    && four.tc_tag_key.is_empty(),
                "{json}: {four:?}"
            );
        }
    }

    #[test]
    fn the_other_clouds_pair_names_are_not_read_and_a_keyless_pair_is_dropped() {
        let four = read(
            r#"{"A": {"Tag": [{"Key": "k", "Value": "v"}, {"TagKey": "", "TagValue": "x"}]},
                "C": [{"TagKey": "k", "TagValue": "v"}, {"Key": "n", "Value": null}]}"#,
        );
        assert!(four.ali_ecs.is_empty(), "{four:?}");
        assert_eq!(four.tc_key, want(&[("n", "")]));
    }
}

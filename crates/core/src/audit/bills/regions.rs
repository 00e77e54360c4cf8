//! Region codes from the display names the Chinese consoles write (`华东1（杭州）`,
//! `华南地区(广州)`, `China (Hangzhou)`), and the other end of a cross-region line.

use crate::audit::{ChargeKind, TransferScope};

/// Alibaba Cloud's region display names (Chinese and English console) and their codes.
const ALIBABA_REGIONS: &[(&str, &str)] = &[
    ("杭州", "cn-hangzhou"),
    ("hangzhou", "cn-hangzhou"),
    ("上海", "cn-shanghai"),
    ("shanghai", "cn-shanghai"),
    ("青岛", "cn-qingdao"),
    ("qingdao", "cn-qingdao"),
    ("北京", "cn-beijing"),
    ("beijing", "cn-beijing"),
    ("张家口", "cn-zhangjiakou"),
    ("zhangjiakou", "cn-zhangjiakou"),
    ("呼和浩特", "cn-huhehaote"),
    ("乌兰察布", "cn-wulanchabu"),
    ("深圳", "cn-shenzhen"),
    ("shenzhen", "cn-shenzhen"),
    ("河源", "cn-heyuan"),
    ("广州", "cn-guangzhou"),
    ("成都", "cn-chengdu"),
    ("香港", "cn-hongkong"),
    ("hong kong", "cn-hongkong"),
    ("新加坡", "ap-southeast-1"),
    ("singapore", "ap-southeast-1"),
    ("东京", "ap-northeast-1"),
    ("tokyo", "ap-northeast-1"),
    ("硅谷", "us-west-1"),
    ("silicon valley", "us-west-1"),
    ("弗吉尼亚", "us-east-1"),
    ("virginia", "us-east-1"),
    ("法兰克福", "eu-central-1"),
    ("frankfurt", "eu-central-1"),
    ("伦敦", "eu-west-1"),
    ("london", "eu-west-1"),
];

/// Tencent Cloud's region display names and their codes.
const TENCENT_REGIONS: &[(&str, &str)] = &[
    ("广州", "ap-guangzhou"),
    ("guangzhou", "ap-guangzhou"),
    ("上海", "ap-shanghai"),
    ("shanghai", "ap-shanghai"),
    ("南京", "ap-nanjing"),
    ("nanjing", "ap-nanjing"),
    ("北京", "ap-beijing"),
    ("beijing", "ap-beijing"),
    ("成都", "ap-chengdu"),
    ("chengdu", "ap-chengdu"),
    ("重庆", "ap-chongqing"),
    ("chongqing", "ap-chongqing"),
    ("香港", "ap-hongkong"),
    ("hong kong", "ap-hongkong"),
    ("新加坡", "ap-singapore"),
    ("singapore", "ap-singapore"),
    ("东京", "ap-tokyo"),
    ("tokyo", "ap-tokyo"),
    ("首尔", "ap-seoul"),
    ("seoul", "ap-seoul"),
    ("硅谷", "na-siliconvalley"),
    ("silicon valley", "na-siliconvalley"),
    ("弗吉尼亚", "na-ashburn"),
    ("virginia", "na-ashburn"),
    ("法兰克福", "eu-frankfurt"),
    ("frankfurt", "eu-frankfurt"),
];

/// Which provider's region names to read.
#[derive(Debug, Clone, Copy)]
pub(super) enum Regions {
    Alibaba,
    Tencent,
}

/// The region code for a display name; a value that already looks like a code
/// (`cn-hangzhou`) is kept, and a name not in the table is kept as the bill wrote it.
pub(super) fn region_code(display: &str, regions: Regions) -> String {
    let looks_like_code = display
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && display.contains('-');
    if looks_like_code {
        return display.to_string();
    }
    let table = match regions {
        Regions::Alibaba => ALIBABA_REGIONS,
        Regions::Tencent => TENCENT_REGIONS,
    };
    let lower = display.to_lowercase();
    table
        .iter()
        .find(|(name, _)| lower.contains(name))
        .map_or_else(|| display.to_string(), |(_, code)| (*code).to_string())
}

/// The region codes whose display names `text` mentions, in the order it mentions them: a
/// cross-region line names both ends (`云联网 华南地区(广州)-华东地区(上海) 流量`).
pub(super) fn regions_in(text: &str, regions: Regions) -> Vec<&'static str> {
    let table = match regions {
        Regions::Alibaba => ALIBABA_REGIONS,
        Regions::Tencent => TENCENT_REGIONS,
    };
    let lower = text.to_lowercase();
    let mut found: Vec<(usize, &'static str)> = table
        .iter()
        .filter_map(|(name, code)| lower.find(name).map(|at| (at, *code)))
        .collect();
    found.sort_unstable();
    let mut codes: Vec<&'static str> = Vec::new();
    for (_, code) in found {
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// For a transfer between regions, the other end the line's text names, if any.
pub(super) fn destination(
    kind: ChargeKind,
    region: Option<&str>,
    text: &str,
    regions: Regions,
) -> Option<String> {
    if kind
        != (ChargeKind::Transfer {
            scope: TransferScope::InterRegion,
        })
    {
        return None;
    }
    regions_in(text, regions)
        .into_iter()
        .find(|code| Some(*code) != region)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_codes_from_display_names() {
        assert_eq!(
            region_code("华东1（杭州）", Regions::Alibaba),
            "cn-hangzhou"
        );
        assert_eq!(
            region_code("China (Hangzhou)", Regions::Alibaba),
            "cn-hangzhou"
        );
        assert_eq!(region_code("cn-beijing", Regions::Alibaba), "cn-beijing");
        assert_eq!(
            region_code("华南地区(广州)", Regions::Tencent),
            "ap-guangzhou"
        );
        assert_eq!(region_code("火星", Regions::Tencent), "火星");
        let text = "云联网 华南地区(广州)-华东地区(上海) 流量";
        assert_eq!(
            regions_in(text, Regions::Tencent),
            ["ap-guangzhou", "ap-shanghai"]
        );
        let cross = ChargeKind::Transfer {
            scope: TransferScope::InterRegion,
        };
        let to = destination(cross, Some("ap-guangzhou"), text, Regions::Tencent);
        assert_eq!(to.as_deref(), Some("ap-shanghai"));
        assert_eq!(
            destination(ChargeKind::Disk, None, text, Regions::Tencent),
            None
        );
    }
}

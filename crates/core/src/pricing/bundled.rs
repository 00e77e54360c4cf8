//! The price sheets compiled into the binary, loaded once on first use.

use std::sync::OnceLock;

use super::error::SheetError;
use super::load::load_with;
use super::sheet::{Sheet, Sku};

/// `(source name, text)` of every bundled sheet. A sheet may `extends` one listed before it.
const BUNDLED: &[(&str, &str)] = &[
    (
        "pricing/aws-us-east-1.toml",
        include_str!("../../../../pricing/aws-us-east-1.toml"),
    ),
    (
        "pricing/aws-us-east-2.toml",
        include_str!("../../../../pricing/aws-us-east-2.toml"),
    ),
    (
        "pricing/aws-us-west-2.toml",
        include_str!("../../../../pricing/aws-us-west-2.toml"),
    ),
    (
        "pricing/aws-eu-west-1.toml",
        include_str!("../../../../pricing/aws-eu-west-1.toml"),
    ),
    (
        "pricing/aws-eu-central-1.toml",
        include_str!("../../../../pricing/aws-eu-central-1.toml"),
    ),
    (
        "pricing/aws-ap-northeast-1.toml",
        include_str!("../../../../pricing/aws-ap-northeast-1.toml"),
    ),
    (
        "pricing/alibaba-cn-hangzhou.toml",
        include_str!("../../../../pricing/alibaba-cn-hangzhou.toml"),
    ),
    (
        "pricing/alibaba-cn-beijing.toml",
        include_str!("../../../../pricing/alibaba-cn-beijing.toml"),
    ),
    (
        "pricing/tencent-ap-beijing.toml",
        include_str!("../../../../pricing/tencent-ap-beijing.toml"),
    ),
    (
        "pricing/tencent-ap-guangzhou.toml",
        include_str!("../../../../pricing/tencent-ap-guangzhou.toml"),
    ),
    (
        "pricing/lambda.toml",
        include_str!("../../../../pricing/lambda.toml"),
    ),
    (
        "pricing/runpod.toml",
        include_str!("../../../../pricing/runpod.toml"),
    ),
    (
        "pricing/vast-typical.toml",
        include_str!("../../../../pricing/vast-typical.toml"),
    ),
    (
        "pricing/autodl-example.toml",
        include_str!("../../../../pricing/autodl-example.toml"),
    ),
    (
        "pricing/autodl.toml",
        include_str!("../../../../pricing/autodl.toml"),
    ),
    (
        "pricing/gpushare.toml",
        include_str!("../../../../pricing/gpushare.toml"),
    ),
];

/// Loads every bundled sheet afresh, errors included; for tests and `pricing validate`.
pub fn load_bundled() -> Vec<Result<Sheet, SheetError>> {
    let mut loaded: Vec<Sheet> = Vec::with_capacity(BUNDLED.len());
    let mut results = Vec::with_capacity(BUNDLED.len());
    for (name, text) in BUNDLED {
        let result = load_with(name, text, &loaded);
        if let Ok(sheet) = &result {
            loaded.push(sheet.clone());
        }
        results.push(result);
    }
    results
}

/// The bundled sheets that load, in a fixed order. A bundled sheet that fails to load (a bug
/// the test suite catches) is left out rather than taking the program down.
pub fn bundled() -> &'static [Sheet] {
    static SHEETS: OnceLock<Vec<Sheet>> = OnceLock::new();
    SHEETS.get_or_init(|| load_bundled().into_iter().filter_map(Result::ok).collect())
}

/// A bundled sheet by id, such as `aws-us-east-1`.
pub fn bundled_sheet(id: &str) -> Option<&'static Sheet> {
    bundled().iter().find(|s| s.id == id)
}

/// Every bundled SKU named `name` (case-insensitive), optionally only in sheet `sheet_id`.
pub fn find_sku(name: &str, sheet_id: Option<&str>) -> Vec<(&'static Sheet, &'static Sku)> {
    bundled()
        .iter()
        .filter(|sheet| sheet_id.is_none_or(|id| sheet.id == id))
        .filter_map(|sheet| sheet.sku(name).map(|sku| (sheet, sku)))
        .collect()
}

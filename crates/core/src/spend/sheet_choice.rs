//! Which bundled sheet prices an instance: the provider's sheet for the instance's region, else
//! the provider's default sheet, said to be another region's (an estimate). Every command that
//! prices an instance asks here, so they all name the same sheet.

use super::{PriceKind, PriceOrigin};
use crate::cloud::ProviderKind;
use crate::pricing::{Sheet, bundled};

/// The sheet chosen and what kind of price it gives the instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetChoice {
    pub sheet: String,
    pub kind: PriceKind,
}

/// The bundled sheet for `provider` in `region`, for instance type `sku` when it is known;
/// else the provider's [default sheet](ProviderKind::default_sheet).
#[must_use]
pub fn sheet_for_region(
    provider: ProviderKind,
    region: Option<&str>,
    sku: Option<&str>,
) -> Option<SheetChoice> {
    choose_sheet(
        bundled(),
        provider.id(),
        provider.default_sheet(),
        region,
        sku,
    )
}

/// Among `sheets`, the first of `provider` whose region is `region` (ignoring case and
/// surrounding space) and that lists `sku` (when given): kind `sheet`. Else the sheet `default`
/// names, with the kind [`PriceOrigin`] gives it: `other_region` when both regions are known
/// and differ, `sheet` when either is unknown. A type the region's sheet lacks is thus priced
/// from the default sheet as an estimate, never as the region's price. Without a default, the
/// region's sheet is still chosen (and names the missing type); `None` when neither exists.
#[must_use]
pub fn choose_sheet(
    sheets: &[Sheet],
    provider: &str,
    default: Option<&str>,
    region: Option<&str>,
    sku: Option<&str>,
) -> Option<SheetChoice> {
    let region = region.map(str::trim).filter(|r| !r.is_empty());
    let mut regional = sheets.iter().filter(|s| {
        s.provider == provider
            && region.is_some_and(|region| {
                s.region
                    .as_deref()
                    .is_some_and(|r| r.trim().eq_ignore_ascii_case(region))
            })
    });
    let chosen = |sheet: &Sheet, kind| SheetChoice {
        sheet: sheet.id.clone(),
        kind,
    };
    let first = regional.clone().next();
    if let Some(sheet) = regional.find(|s| sku.is_none_or(|sku| s.sku(sku).is_some())) {
        return Some(chosen(sheet, PriceKind::Sheet));
    }
    match sheets.iter().find(|s| Some(s.id.as_str()) == default) {
        Some(sheet) => {
            let origin = PriceOrigin::new(&sheet.id, sheet.region.as_deref(), region, false);
            Some(chosen(sheet, origin.kind))
        }
        None => first.map(|sheet| chosen(sheet, PriceKind::Sheet)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(provider: &str, region: Option<&str>) -> Option<(String, PriceKind)> {
        sheet_for_region(provider.parse().unwrap(), region, None).map(|c| (c.sheet, c.kind))
    }

    fn choice_for(provider: &str, region: &str, sku: &str) -> Option<(String, PriceKind)> {
        sheet_for_region(provider.parse().unwrap(), Some(region), Some(sku))
            .map(|c| (c.sheet, c.kind))
    }

    fn sheet(id: &str, kind: PriceKind) -> (String, PriceKind) {
        (id.to_string(), kind)
    }

    #[test]
    fn a_region_with_a_sheet_gets_that_sheet() {
        for (provider, region, id) in [
            ("aws", "us-west-2", "aws-us-west-2"),
            ("aws", " EU-West-1 ", "aws-eu-west-1"),
            ("aws", "us-east-1", "aws-us-east-1"),
            ("alibaba", "cn-beijing", "alibaba-cn-beijing"),
            ("alibaba", "cn-hangzhou", "alibaba-cn-hangzhou"),
            ("tencent", "ap-guangzhou", "tencent-ap-guangzhou"),
        ] {
            assert_eq!(
                choice(provider, Some(region)),
                Some(sheet(id, PriceKind::Sheet)),
                "{provider} {region}"
            );
        }
    }

    #[test]
    fn a_region_without_a_sheet_gets_the_default_as_another_regions() {
        assert_eq!(
            choice("aws", Some("sa-east-1")),
            Some(sheet("aws-us-east-1", PriceKind::OtherRegion))
        );
        // No default: a CNY mainland sheet is no estimate for Singapore.
        assert_eq!(choice("alibaba", Some("ap-southeast-1")), None);
        assert_eq!(choice("tencent", Some("ap-singapore")), None);
    }

    #[test]
    fn an_unknown_region_gets_the_default_as_a_sheet() {
        assert_eq!(
            choice("aws", None),
            Some(sheet("aws-us-east-1", PriceKind::Sheet))
        );
        assert_eq!(
            choice("aws", Some("  ")),
            Some(sheet("aws-us-east-1", PriceKind::Sheet))
        );
        assert_eq!(choice("alibaba", None), None);
    }

    #[test]
    fn a_sheet_without_a_region_is_never_another_regions() {
        assert_eq!(
            choice("lambda", Some("us-east-1")),
            Some(sheet("lambda", PriceKind::Sheet))
        );
        assert_eq!(
            choice("vast", Some("TW")),
            Some(sheet("vast-typical", PriceKind::Sheet))
        );
    }

    #[test]
    fn only_the_providers_own_sheets_match() {
        // A Tencent instance never gets an AWS sheet, whatever its region says.
        assert_eq!(choice("tencent", Some("us-west-2")), None);
        assert_eq!(choice("demo", Some("us-west-2")), None);
        let sheets = bundled();
        let chosen = choose_sheet(sheets, "aws", None, Some("ap-beijing"), None);
        assert_eq!(chosen, None, "no default, no sheet for the region");
    }

    #[test]
    fn a_type_the_regions_sheet_lacks_is_priced_from_the_default_as_an_estimate() {
        // The source lists no p5.48xlarge in eu-west-1, and its sheet has none.
        assert_eq!(
            choice_for("aws", "eu-west-1", "p5.48xlarge"),
            Some(sheet("aws-us-east-1", PriceKind::OtherRegion))
        );
        assert_eq!(
            choice_for("aws", "eu-west-1", "P4D.24XLARGE"),
            Some(sheet("aws-eu-west-1", PriceKind::Sheet))
        );
        // Without a default the region's sheet stays, so the missing type is named there and
        // never priced from cn-hangzhou.
        assert_eq!(
            choice_for("alibaba", "cn-beijing", "ecs.gn7i-c32g1.8xlarge"),
            Some(sheet("alibaba-cn-beijing", PriceKind::Sheet))
        );
    }
}

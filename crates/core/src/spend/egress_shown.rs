//! Egress by destination as a terminal says it: the split line and the upload warning, the
//! same words in `status` and the cockpit.

use jiff::Timestamp;
use serde::Serialize;

use super::EgressCents;
use crate::meter::upload::PublicUpload;
use crate::money::Currency;
use crate::t;
use crate::telemetry::metric::u64_to_f64;

/// Bytes in GiB with one decimal: `12.5 GiB`.
pub fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", u64_to_f64(bytes) / f64::from(1u32 << 30))
}

/// The split line, or `None` while everything sent went to the internet (nothing to split:
/// the bandwidth line says it all).
pub fn split_line(egress: &EgressCents, currency: Currency) -> Option<String> {
    if egress.intranet.bytes == 0 && egress.cross_region.bytes == 0 {
        return None;
    }
    Some(t!(
        "traffic-split",
        internet = gib(egress.internet.bytes),
        internet_cost = egress.internet.cost.as_str(),
        intranet = gib(egress.intranet.bytes),
        intranet_cost = egress.intranet.cost.as_str(),
        cross = gib(egress.cross_region.bytes),
        cross_cost = egress.cross_region.cost.as_str(),
        currency = currency.to_string()
    ))
}

/// An upload under way, as JSON gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UploadJson {
    /// When it began (RFC 3339, UTC).
    pub since: Timestamp,
    /// Internet bytes sent since then.
    pub bytes: u64,
    /// What they have cost, to the cent.
    pub cost: String,
    pub currency: Currency,
    /// The intranet endpoint that would carry it for nothing, where the bundled list knows it
    /// for the instance's provider and region; `null` otherwise.
    pub free_route: Option<String>,
}

impl UploadJson {
    pub fn of(
        upload: &PublicUpload,
        currency: Currency,
        provider: &str,
        region: Option<&str>,
    ) -> Self {
        let mut cost = upload.cost.round_dp(2);
        cost.rescale(2);
        UploadJson {
            since: upload.since,
            bytes: upload.bytes,
            cost: cost.to_string(),
            currency,
            free_route: crate::traffic::routes::free_route(provider, region),
        }
    }

    /// The warning in the user's language: what it sent and cost since `since` (its start as
    /// the surface shows times), and the free route.
    pub fn line(&self, since: &str) -> String {
        let said = t!(
            "traffic-upload",
            bytes = gib(self.bytes),
            since = since,
            cost = self.cost.as_str(),
            currency = self.currency.to_string()
        );
        let route: String = match &self.free_route {
            Some(route) => t!("traffic-upload-route", route = route.as_str()),
            None => t!("traffic-upload-no-route").into_owned(),
        };
        format!("{said}; {route}")
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::dec;

    use super::*;

    #[test]
    fn the_warning_names_the_cost_and_the_providers_free_route() {
        let upload = PublicUpload {
            since: Timestamp::from_second(3600).unwrap(),
            bytes: 100 << 30,
            cost: dec!(86.004),
        };
        let json = UploadJson::of(&upload, Currency::CNY, "alibaba", Some("cn-hangzhou"));
        let line = crate::i18n::scoped(crate::i18n::Lang::En, || json.line("01:00"));
        assert_eq!(
            line,
            "uploading to the internet: 100.0 GiB since 01:00 has cost 86.00 CNY; \
             through oss-cn-hangzhou-internal.aliyuncs.com (the provider's intranet) it costs nothing"
        );
        let zh = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || json.line("01:00"));
        assert!(zh.contains("oss-cn-hangzhou-internal.aliyuncs.com"), "{zh}");
        assert!(zh.contains("86.00"), "{zh}");
        let v = serde_json::to_value(&json).unwrap();
        assert_eq!(
            v["since"], "1970-01-01T01:00:00Z",
            "RFC 3339, UTC, as every JSON time"
        );
        assert_eq!(v["cost"], "86.00");
        let elsewhere = UploadJson::of(&upload, Currency::USD, "runpod", Some("eu-ro-1"));
        assert_eq!(elsewhere.free_route, None);
    }
}

//! The bundled list of each provider's internal service ranges per region and the
//! object-storage endpoint that carries an upload for nothing (`routes.toml`, each entry sourced).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use ipnet::IpNet;
use serde::Deserialize;

const ROUTES: &str = include_str!("routes.toml");

/// One provider's entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderRoutes {
    /// The internal object-storage endpoint, `{region}` standing for the instance's region.
    pub object_storage: String,
    /// Where the ranges and the endpoint were read.
    pub source: String,
    /// Region id to the provider's internal service ranges there.
    #[serde(default)]
    pub intranet: BTreeMap<String, Vec<IpNet>>,
}

impl ProviderRoutes {
    /// The internal object-storage endpoint for `region`.
    pub fn object_storage_in(&self, region: &str) -> String {
        self.object_storage.replace("{region}", region)
    }
}

fn all() -> &'static BTreeMap<String, ProviderRoutes> {
    static ALL: OnceLock<BTreeMap<String, ProviderRoutes>> = OnceLock::new();
    ALL.get_or_init(|| toml::from_str(ROUTES).expect("the bundled routes.toml parses"))
}

/// The bundled routes of `provider` (its id: `alibaba`), if any are known.
pub fn for_provider(provider: &str) -> Option<&'static ProviderRoutes> {
    all().get(provider)
}

/// The providers the bundled list names, by id.
pub fn providers() -> impl Iterator<Item = &'static str> {
    all().keys().map(String::as_str)
}

/// The intranet route that carries an upload for nothing for an instance of `provider` (its
/// id, as the inventory names it) in `region`: the object store's internal endpoint.
pub fn free_route(provider: &str, region: Option<&str>) -> Option<String> {
    Some(for_provider(provider)?.object_storage_in(region?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_provider_names_its_source() {
        for (id, routes) in all() {
            assert!(
                routes.source.starts_with("https://"),
                "{id}: {}",
                routes.source
            );
        }
        let alibaba = for_provider("alibaba").unwrap();
        assert_eq!(
            alibaba.object_storage_in("cn-hangzhou"),
            "oss-cn-hangzhou-internal.aliyuncs.com"
        );
        assert_eq!(alibaba.intranet["cn-hangzhou"].len(), 4);
        assert_eq!(
            free_route("tencent", Some("ap-guangzhou")).as_deref(),
            Some("<bucket>.cos-internal.ap-guangzhou.tencentcos.cn")
        );
        assert_eq!(free_route("alibaba", None), None);
        assert_eq!(free_route("runpod", Some("eu-ro-1")), None);
    }
}

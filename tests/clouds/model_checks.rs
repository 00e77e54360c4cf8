//! The peers' checks against the official SDK models catch what they are for: a parameter or
//! reply field the model does not have, a wrong type or nesting, a missing required parameter.
//! Skipped, saying so, where the SDKs are not installed (outside CI).

use std::collections::BTreeMap;

use serde_json::json;

use crate::alibaba_peer::model_check as alibaba;
use crate::models;
use crate::tencent_peer::model_check as tencent;

fn query(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn tencent_requests_off_the_model_get_the_services_error_and_are_recorded() {
    if models::required().is_none() {
        return;
    }
    let cases = [
        (
            json!({"InstanceIds": ["ins-1"], "Limit": 100, "Offset": 0}),
            None,
        ),
        (json!({"InstanceId": "ins-1"}), Some("UnknownParameter")),
        (json!({"InstanceIds": "ins-1"}), Some("InvalidParameter")),
        (json!({"Limit": "100"}), Some("InvalidParameter")),
        (
            json!({"Filters": [{"Name": "zone", "Value": ["x"]}]}),
            Some("UnknownParameter"),
        ),
    ];
    for (body, code) in cases {
        let mut log = tencent::Log::default();
        assert_eq!(
            tencent::request("DescribeInstances", &body, &mut log),
            code,
            "{body}"
        );
        assert_eq!(log.violations.is_empty(), code.is_none(), "{body}: {log:?}");
    }
    let mut log = tencent::Log::default();
    tencent::request("DescribeNothing", &json!({}), &mut log);
    assert_eq!(log.violations.len(), 1);
}

#[test]
fn tencent_replies_off_the_model_are_recorded() {
    if models::required().is_none() {
        return;
    }
    let reply = |set: serde_json::Value| json!({"Response": {"RequestId": "r", "TotalCount": 1, "AddressSet": set}});
    let good =
        reply(json!([{"AddressId": "eip-1", "AddressIp": "203.0.113.7", "InstanceId": null}]));
    let invented = reply(json!([{"AddressId": "eip-1", "AddressKind": "EIP"}]));
    let nested = reply(json!({"AddressId": "eip-1"}));
    let typed = reply(json!([{"Bandwidth": "100"}]));
    let error = json!({"Response": {"Error": {"Code": "X", "Message": "m"}, "RequestId": "r"}});
    for (value, clean) in [
        (good, true),
        (invented, false),
        (nested, false),
        (typed, false),
        (error, true),
    ] {
        let mut log = tencent::Log::default();
        tencent::reply("DescribeAddresses", &value, &mut log);
        assert_eq!(log.violations.is_empty(), clean, "{value}: {log:?}");
    }
}

#[test]
fn alibaba_requests_off_the_model_get_the_services_error_and_are_recorded() {
    if models::required().is_none() {
        return;
    }
    let region = ("RegionId", "cn-hangzhou");
    let cases = [
        (
            vec![region, ("Tag.1.Key", "team"), ("PageSize", "100")],
            None,
        ),
        (vec![region, ("DiskIds", r#"["d-1","d-2"]"#)], None),
        (
            vec![region, ("Tags.1.Key", "team")],
            Some("InvalidParameter"),
        ),
        (vec![region, ("PageSize", "ten")], Some("InvalidParameter")),
        (vec![region, ("DiskIds", "d-1")], Some("InvalidParameter")),
        (
            vec![region, ("DeleteWithInstance", "yes")],
            Some("InvalidParameter"),
        ),
        (vec![("PageSize", "10")], Some("MissingParameter")),
    ];
    for (pairs, code) in cases {
        let mut log = alibaba::Log::default();
        let got = alibaba::request("DescribeDisks", &query(&pairs), &mut log);
        assert_eq!(got.map(|(_, c)| c), code, "{pairs:?}");
        assert_eq!(
            log.violations.is_empty(),
            code.is_none(),
            "{pairs:?}: {log:?}"
        );
    }
    // RegionId where the action's model has none is refused like any unknown parameter.
    let mut log = alibaba::Log::default();
    let params = query(&[region, ("InstanceId", "i-1"), ("Force", "true")]);
    assert_eq!(
        alibaba::request("DeleteInstance", &params, &mut log),
        Some((400, "InvalidParameter"))
    );
    assert_eq!(log.violations.len(), 1, "{log:?}");
    let mut log = alibaba::Log::default();
    let params = query(&[("InstanceId", "i-1"), ("Force", "true")]);
    assert_eq!(alibaba::request("DeleteInstance", &params, &mut log), None);
    let got = alibaba::request("DeleteInstance", &query(&[("Force", "true")]), &mut log);
    assert_eq!(got, Some((400, "MissingParameter")));
}

#[test]
fn alibaba_replies_off_the_model_are_recorded() {
    if models::required().is_none() {
        return;
    }
    let good = json!({"RequestId": "r", "TotalCount": 1, "PageNumber": 1, "PageSize": 1,
                      "Disks": {"Disk": [{"DiskId": "d-1", "Size": 40, "Type": "system"}]}});
    let unwrapped = json!({"RequestId": "r", "Disks": [{"DiskId": "d-1"}]});
    let invented = json!({"RequestId": "r", "Disks": {"Disk": [{"DiskID": "d-1"}]}});
    let typed = json!({"RequestId": "r", "Disks": {"Disk": [{"Size": "40"}]}});
    for (value, clean) in [
        (good, true),
        (unwrapped, false),
        (invented, false),
        (typed, false),
    ] {
        let mut log = alibaba::Log::default();
        alibaba::reply("DescribeDisks", 200, &value, &mut log);
        assert_eq!(log.violations.is_empty(), clean, "{value}: {log:?}");
    }
    let mut log = alibaba::Log::default();
    let error = json!({"RequestId": "r", "Code": "X", "Message": "m", "Extra": 1});
    alibaba::reply("DescribeDisks", 400, &error, &mut log);
    assert_eq!(log.violations.len(), 1);
}

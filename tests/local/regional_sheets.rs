//! The regional sheets hold the figures their sources print. Each test reads a sheet from its
//! file and compares a price with the number written here beside the source it was read from,
//! so a slip in the sheet (or a price copied from another region) fails.

use gpumeter::pricing::{self, Sheet, load_str};
use rust_decimal::{Decimal, dec};

/// tsaol/aws-gpu data/all_gpu_instances.js @ 7412fd256c5eda04a70a17742a68e8e44824b2cb.
const AWS_INSTANCES: &str = "tsaol/aws-gpu";

/// The sheet in `pricing/{id}.toml`, which must also be the bundled one.
fn sheet(id: &str) -> Sheet {
    let path = format!("pricing/{id}.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sheet = load_str(&path, &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Some(&sheet), pricing::bundled_sheet(id), "{id} is bundled");
    sheet
}

fn on_demand(sheet: &Sheet, sku: &str) -> Option<Decimal> {
    sheet.sku(sku).and_then(|s| s.on_demand_per_hour)
}

fn assert_cited(id: &str, sku: &str, price: Decimal, source: &str) {
    let sheet = sheet(id);
    assert_eq!(
        on_demand(&sheet, sku),
        Some(price),
        "{id} {sku} as {source} prints it"
    );
    assert!(sheet.source.contains(source), "{id} names {source}");
}

#[test]
fn aws_us_west_2_has_the_sources_prices() {
    // all_gpu_instances.js, p4d.24xlarge "us-west-2": { "onDemand": 21.95764 }
    assert_cited(
        "aws-us-west-2",
        "p4d.24xlarge",
        dec!(21.95764),
        AWS_INSTANCES,
    );
    // p4de.24xlarge "us-west-2": { "onDemand": 27.44705 }
    assert_cited(
        "aws-us-west-2",
        "p4de.24xlarge",
        dec!(27.44705),
        AWS_INSTANCES,
    );
    // infracost data_transfer_test.golden, aws_data_transfer.us-west-2: first 10TB,
    // 10,240 GB, $921.60.
    let egress = sheet("aws-us-west-2").network.egress_per_unit.unwrap();
    assert_eq!(egress * dec!(10240), dec!(921.60));
}

#[test]
fn aws_us_east_2_has_the_sources_prices() {
    // g6e.xlarge "us-east-2": { "onDemand": 1.861 }
    assert_cited("aws-us-east-2", "g6e.xlarge", dec!(1.861), AWS_INSTANCES);
    // The source lists no p4de.24xlarge in us-east-2: the sheet must not invent one.
    assert_eq!(sheet("aws-us-east-2").sku("p4de.24xlarge"), None);
}

#[test]
fn aws_eu_west_1_has_the_sources_prices() {
    // p4d.24xlarge "eu-west-1": { "onDemand": 23.71569 }
    assert_cited(
        "aws-eu-west-1",
        "p4d.24xlarge",
        dec!(23.71569),
        AWS_INSTANCES,
    );
    // g5.xlarge "eu-west-1": { "onDemand": 1.123 }
    assert_cited("aws-eu-west-1", "g5.xlarge", dec!(1.123), AWS_INSTANCES);
    // No g6 or p5 in eu-west-1 in the source.
    let sheet = sheet("aws-eu-west-1");
    assert_eq!(sheet.sku("g6.xlarge"), None);
    assert_eq!(sheet.sku("p5.48xlarge"), None);
}

#[test]
fn aws_eu_central_1_has_the_sources_prices() {
    // g6e.12xlarge "eu-central-1": { "onDemand": 13.12002 }
    assert_cited(
        "aws-eu-central-1",
        "g6e.12xlarge",
        dec!(13.12002),
        AWS_INSTANCES,
    );
    // p4de.24xlarge "eu-central-1": { "onDemand": 34.29122 }
    assert_cited(
        "aws-eu-central-1",
        "p4de.24xlarge",
        dec!(34.29122),
        AWS_INSTANCES,
    );
}

#[test]
fn aws_ap_northeast_1_has_the_sources_prices() {
    // p4d.24xlarge "ap-northeast-1": { "onDemand": 30.09784 }
    assert_cited(
        "aws-ap-northeast-1",
        "p4d.24xlarge",
        dec!(30.09784),
        AWS_INSTANCES,
    );
    // p5.48xlarge "ap-northeast-1": { "onDemand": 68.8 }
    assert_cited(
        "aws-ap-northeast-1",
        "p5.48xlarge",
        dec!(68.8),
        AWS_INSTANCES,
    );
    // infracost data_transfer_test.golden, aws_data_transfer.ap-northeast-1: first 10TB,
    // 10,240 GB, $1,167.36.
    let egress = sheet("aws-ap-northeast-1").network.egress_per_unit.unwrap();
    assert_eq!(egress * dec!(10240), dec!(1167.36));
}

#[test]
fn aws_regional_sheets_leave_unsourced_storage_unknown() {
    for id in [
        "aws-us-east-2",
        "aws-us-west-2",
        "aws-eu-west-1",
        "aws-eu-central-1",
        "aws-ap-northeast-1",
    ] {
        let sheet = sheet(id);
        assert!(
            sheet.storage.disk.is_empty(),
            "{id}: EBS prices are unsourced"
        );
        assert_eq!(sheet.storage.snapshot, None, "{id}");
        assert_eq!(sheet.region.as_deref(), id.strip_prefix("aws-"), "{id}");
    }
}

#[test]
fn alibaba_cn_beijing_has_the_sources_prices() {
    // sugarlxn/skypilot-catalog catalogs/v8/alicloud/vms.csv @ 003c56a7: ecs.sccgn7ex.32xlarge
    // in cn-beijing-i at USD 49.872786, made with 0.138 USD per CNY.
    let price = dec!(49.872786) / dec!(0.138);
    assert_eq!(price, dec!(361.397));
    assert_cited(
        "alibaba-cn-beijing",
        "ecs.sccgn7ex.32xlarge",
        price,
        "sugarlxn/skypilot-catalog",
    );
    // ecs.gn8ia.4xlarge, cn-beijing-l, USD 2.169912.
    let price = dec!(2.169912) / dec!(0.138);
    assert_cited(
        "alibaba-cn-beijing",
        "ecs.gn8ia.4xlarge",
        price,
        "sugarlxn/skypilot-catalog",
    );
}

#[test]
fn tencent_ap_guangzhou_has_the_sources_prices() {
    // sugarlxn/skypilot-catalog catalogs/v8/tencentcloud/vms.csv @ 31936451: GT4.41XLARGE948
    // in ap-guangzhou-6 at USD 32.78328, made with 0.138 USD per CNY.
    let price = dec!(32.78328) / dec!(0.138);
    assert_eq!(price, dec!(237.56));
    assert_cited(
        "tencent-ap-guangzhou",
        "GT4.41XLARGE948",
        price,
        "sugarlxn/skypilot-catalog",
    );
}

#[test]
fn every_sheet_file_is_bundled() {
    for entry in std::fs::read_dir("pricing").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let id = path.file_stem().unwrap().to_str().unwrap();
            assert!(
                pricing::bundled_sheet(id).is_some(),
                "{} is not in the bundled list",
                path.display()
            );
        }
    }
}

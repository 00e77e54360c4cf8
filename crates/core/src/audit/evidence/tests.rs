use std::sync::Arc;

use jiff::Timestamp;
use rust_decimal::{Decimal, dec};
use smallvec::smallvec;

use super::super::bill::TransferScope;
use super::super::findings::{
    Amounts, Cause, Finding, Leftover, LeftoverWhy, Mismatch, OverlapCharge, Transfer, Unexplained,
};
use super::super::ledger::{AuditLedger, LedgerInstance};
use super::super::report::{AuditReport, Tolerance};
use super::{EvidenceAction, summary};
use crate::meter::ResourceKind;
use crate::money::{Currency, Money};

fn at(hour: i64) -> Timestamp {
    Timestamp::from_second(1_790_000_000 + hour * 3600).unwrap()
}

fn usd(amount: Decimal) -> Money {
    Money::new(amount, Currency::USD)
}

fn amounts(amount: Decimal) -> Amounts {
    Amounts(smallvec![usd(amount)])
}

fn instance(id: &str, region: Option<&str>, released: Option<Timestamp>) -> LedgerInstance {
    LedgerInstance {
        id: id.into(),
        provider: "aws".into(),
        region: region.map(Into::into),
        sku: region.map(|_| "p4d.24xlarge".into()),
        started: at(0),
        last_seen: at(6),
        released,
        metered: None,
        rate_per_hour: None,
        step_seconds: None,
    }
}

fn leftover(resource: &str, kind: Option<ResourceKind>, why: LeftoverWhy) -> Leftover {
    Leftover {
        resource: resource.into(),
        kind,
        instance: "i-0a".into(),
        why,
        released: Some(at(4)),
        since: at(5),
        amounts: amounts(dec!(1.50)),
        refunded: Amounts::default(),
        ended: true,
        lines: vec![3, 4],
    }
}

fn mismatch(instance: &str, billed: Option<Money>, cause: Cause) -> Finding {
    let metered = usd(dec!(20.00));
    Finding::Mismatch(Box::new(Mismatch {
        instance: instance.into(),
        billed,
        metered: Some(metered),
        difference: billed.map(|b| usd(b.amount - metered.amount)),
        cause,
        lines: vec![0],
    }))
}

/// Every kind of finding, every branch of each sentence.
fn case() -> (AuditReport, AuditLedger, Vec<EvidenceAction>) {
    let mut refunded = leftover(
        "snap-0r",
        Some(ResourceKind::Snapshot),
        LeftoverWhy::AfterRelease,
    );
    refunded.refunded = amounts(dec!(-0.50));
    let mut kept = leftover(
        "vol-0k",
        Some(ResourceKind::DataDisk),
        LeftoverWhy::AfterGone,
    );
    kept.ended = false;
    let mut gone = leftover("i-0old", None, LeftoverWhy::InstanceGone);
    gone.released = None;
    let findings = vec![
        Finding::Leftover(Box::new(refunded)),
        Finding::Leftover(Box::new(kept)),
        Finding::Leftover(Box::new(gone)),
        Finding::Transfer(Box::new(Transfer {
            scope: TransferScope::InterZone,
            from_region: Some("us-east-1a".into()),
            to_region: Some("us-east-1b".into()),
            instances: vec!["i-0a".into(), "i-0b".into()],
            amounts: amounts(dec!(0.30)),
            quantity: None,
            lines: vec![5],
        })),
        Finding::Transfer(Box::new(Transfer {
            scope: TransferScope::InterRegion,
            from_region: None,
            to_region: Some("eu|west".into()),
            instances: Vec::new(),
            amounts: Amounts::default(),
            quantity: None,
            lines: vec![6],
        })),
        Finding::Overlap(Box::new(OverlapCharge {
            first: "i-0a".into(),
            second: "i-0b".into(),
            sku: "p4d.24xlarge".into(),
            from: at(1),
            until: at(2),
            amounts: amounts(dec!(32.77)),
            lines: vec![7],
        })),
        mismatch(
            "i-0a",
            Some(usd(dec!(24.00))),
            Cause::RateChange {
                bill: usd(dec!(6.00)),
                sheet: usd(dec!(5.00)),
            },
        ),
        mismatch(
            "i-0b",
            Some(usd(dec!(18.00))),
            Cause::Hours {
                bill_hours: dec!(3.6),
                meter_hours: dec!(4.12345),
            },
        ),
        mismatch("i-0c", None, Cause::NotOnBill),
        Finding::Unexplained(Unexplained {
            resource: Some("eip-0x".into()),
            service: Arc::from("AmazonEC2"),
            amounts: amounts(dec!(0.10)),
            lines: smallvec![8],
        }),
        Finding::Unexplained(Unexplained {
            resource: None,
            service: Arc::from("Support"),
            amounts: amounts(dec!(2.00)),
            lines: smallvec![9, 10],
        }),
    ];
    let report = AuditReport {
        since: at(0),
        until: at(24),
        tolerance: Tolerance::default(),
        lines_read: 12,
        lines_in_span: 11,
        billed: amounts(dec!(100.00)),
        findings,
    };
    let ledger = AuditLedger {
        instances: vec![
            instance("i-0a", Some("us-east-1"), Some(at(4))),
            instance("i-0b", None, None),
        ],
        resources: Vec::new(),
    };
    let actions = vec![EvidenceAction {
        at: at(3),
        instance: Some("i-0a".into()),
        intent: "stop".into(),
        request: None,
        answer: None,
        outcome: Some("confirmed".into()),
    }];
    (report, ledger, actions)
}

/// The letter in English, as it was before its words came from the catalogue.
const ENGLISH: &str = r"# Billing dispute: the bill against the meter's record

Period audited: 2026-09-21T14:13:20Z to 2026-09-22T14:13:20Z (UTC).

Bill lines read: 12, charged in the period: 11. Tolerance: 1 % or 0.01 of the currency, whichever is larger.

## Instances

| instance | provider | region | type | first seen running | stopped | released |
|---|---|---|---|---|---|---|
| i-0a | aws | us-east-1 | p4d.24xlarge | 2026-09-21T14:13:20Z | 2026-09-21T17:13:20Z | 2026-09-21T18:13:20Z |
| i-0b | aws | - | - | 2026-09-21T14:13:20Z | - | not released |

## Findings

- **leftover**: snap-0r (snapshot, of i-0a) charged after the instance was released, since 2026-09-21T19:13:20Z; refunded on the bill already: -0.50 USD (1.50 USD; bill lines in bill-lines.csv: 2)
- **leftover**: vol-0k (data disk, of i-0a) charged after it was seen deleted, since 2026-09-21T19:13:20Z; the meter's record shows no delete of it, so it may still exist and is not asked back (1.50 USD; bill lines in bill-lines.csv: 2)
- **leftover**: i-0old (the instance itself, of i-0a) charged though its instance is gone, since 2026-09-21T19:13:20Z (1.50 USD; bill lines in bill-lines.csv: 2)
- **transfer**: Inter-zone data transfer from us-east-1a to us-east-1b, while i-0a, i-0b ran (0.30 USD; bill lines in bill-lines.csv: 1)
- **transfer**: Inter-region data transfer from ? to eu\|west, while no watched instance ran (amount not on the bill; bill lines in bill-lines.csv: 1)
- **overlap**: i-0a and i-0b (p4d.24xlarge) ran at the same time from 2026-09-21T15:13:20Z to 2026-09-21T16:13:20Z; the later one's compute then (32.77 USD; bill lines in bill-lines.csv: 1)
- **mismatch**: i-0a: the bill charges 24.00 USD for compute, the meter billed 20.00 USD; likely a rate change: the bill's rate is above the sheet's: the bill charges 6.00 USD/h, the rate was 5.00 USD/h (4.00 USD; bill lines in bill-lines.csv: 1)
- **mismatch**: i-0b: the bill charges 18.00 USD for compute, the meter billed 20.00 USD; likely hours the bill does not charge: the meter saw more hours than the bill charges: the bill charges 3.6 h, the meter saw 4.123 h (-2.00 USD; bill lines in bill-lines.csv: 1)
- **mismatch**: i-0c: the bill charges nothing for compute, the meter billed 20.00 USD; likely not on the bill (-20.00 USD; bill lines in bill-lines.csv: 1)
- **unexplained**: eip-0x (AmazonEC2) matches nothing the meter recorded (0.10 USD; bill lines in bill-lines.csv: 1)
- **unexplained**: no resource id (Support) matches nothing the meter recorded (2.00 USD; bill lines in bill-lines.csv: 2)

In question in all: 42.17 USD.

## What we ask

- A refund of the charges for snap-0r after 2026-09-21T18:13:20Z, when the meter's record shows it released or deleted.
- A refund of the charges for i-0old after 2026-09-21T19:13:20Z, when the meter's record shows it released or deleted.
- A review of i-0b running beside i-0a from 2026-09-21T15:13:20Z to 2026-09-21T16:13:20Z.
- An explanation of, or a refund for, the compute charged for i-0a beyond the rate agreed.
- What eip-0x is, and a refund if it is not ours.
- What the lines with no resource id is, and a refund if it is not ours.

Attached: actions.csv (every action taken on these instances with the provider's read-back), minutes.csv (the meter's record minute by minute), bill-lines.csv (the bill lines above, with the file and line they come from).
";

#[test]
fn the_english_letter_is_unchanged() {
    let (report, ledger, actions) = case();
    let letter = summary(&report, &ledger, &actions);
    assert_eq!(letter, ENGLISH);
}

#[test]
fn the_letter_is_written_in_the_users_language_with_its_ids_and_amounts() {
    let (report, ledger, actions) = case();
    let letter = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || {
        summary(&report, &ledger, &actions)
    });
    for heading in [
        "# 账单争议：账单对照计量记录\n",
        "\n## 实例\n",
        "\n## 发现\n",
        "\n## 我们的请求\n",
        "| 实例 | 服务商 | 地域 | 规格 |",
    ] {
        assert!(letter.contains(heading), "{heading:?} in {letter}");
    }
    assert!(
        letter.contains(&format!(
            "- **leftover**：snap-0r（快照，属于 i-0a）在实例释放之后仍被收费，自 {} 起；\
             账单上已退款：-0.50 USD（1.50 USD；",
            at(5)
        )),
        "{letter}"
    );
    assert!(
        letter.contains("可能原因：价格变动：账单单价高于价格表（账单单价 6.00 USD/小时"),
        "the cause is the audit report's: {letter}"
    );
    assert!(
        letter.contains("从 ? 到 eu\\|west，期间没有受监视的实例在运行（账单上没有金额；"),
        "{letter}"
    );
    assert!(letter.contains("存疑金额合计：42.17 USD。"), "{letter}");
    assert!(letter.contains("请说明 eip-0x 是什么"), "{letter}");
    assert!(
        letter.contains("附件：actions.csv（") && !letter.contains("Attached"),
        "{letter}"
    );
}

#[test]
fn an_agreeing_bill_asks_for_nothing_in_either_language() {
    let (mut report, ledger, _) = case();
    report.findings.clear();
    let english = summary(&report, &ledger, &[]);
    assert!(
        english.contains(
            "## Findings\n\nNone: the bill and the meter agree within the tolerance.\n\n\
             ## What we ask\n\nNothing: the bill matches the record.\n"
        ),
        "{english}"
    );
    let chinese = crate::i18n::scoped(crate::i18n::Lang::ZhCn, || summary(&report, &ledger, &[]));
    assert!(
        chinese.contains("无：账单与计量在容差之内一致。")
            && chinese.contains("无：账单与记录一致。"),
        "{chinese}"
    );
}

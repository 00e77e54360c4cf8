#!/usr/bin/env python3
"""A FOCUS 1.0 bill as AWS Data Exports writes it, for scripts/audit-bench.

The columns and values follow tests/cli/audit_focus.rs: every FOCUS 1.0 column, then AWS's
`x_` columns. Line n charges resource n % ids for hour n // ids, so a bill of 1,000 ids holds
1,000 lines an hour; the resources are instances (BoxUsage hours), volumes (GB-months) and,
one in ten, an instance's data sent to another region.

    benches/focus_bill.py --lines 1000000 --ids 1000 --out bill.csv [--gzip]

Python standard library only, so that the benchmark's venv needs nothing but DuckDB.
"""

import argparse
import datetime
import gzip

COLUMNS = (
    "AvailabilityZone,BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,"
    "BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargeClass,ChargeDescription,"
    "ChargeFrequency,ChargePeriodEnd,ChargePeriodStart,CommitmentDiscountCategory,"
    "CommitmentDiscountId,CommitmentDiscountName,CommitmentDiscountStatus,"
    "CommitmentDiscountType,ConsumedQuantity,ConsumedUnit,ContractedCost,ContractedUnitPrice,"
    "EffectiveCost,InvoiceIssuerName,ListCost,ListUnitPrice,PricingCategory,PricingQuantity,"
    "PricingUnit,ProviderName,PublisherName,RegionId,RegionName,ResourceId,ResourceName,"
    "ResourceType,ServiceCategory,ServiceName,SkuId,SkuPriceId,SubAccountId,SubAccountName,"
    "Tags,x_Operation,x_ServiceCode,x_UsageType"
)

START = datetime.datetime(2026, 5, 1, tzinfo=datetime.timezone.utc)

# (id prefix, usage type, quantity, unit, cost, service category, operation)
KINDS = (
    ("i-", "USE1-BoxUsage:p4d.24xlarge", "1", "Hours", "32.7726", "Compute", "RunInstances"),
    ("vol-", "USE1-EBS:VolumeUsage.gp3", "0.1370", "GB-Mo", "0.0110", "Storage", "CreateVolume"),
    ("i-", "USE1-USW2-AWS-Out-Bytes", "12.5", "GB", "0.2500", "Networking", "RunInstances"),
)


def resource(n):
    """The id of resource n and the columns that do not change with the hour."""
    kind = KINDS[2] if n % 10 == 9 else KINDS[n % 2]
    prefix, usage, qty, unit, cost, category, operation = kind
    rid = f"{prefix}{n:017x}"
    price = f"{float(cost) / float(qty):.6f}"
    head = f"us-east-1a,{cost},123456789012,,USD,"
    middle = (
        f"Usage,,{usage} usage,Usage-Based,"
    )
    tail = (
        f",,,,,,{qty},{unit},{cost},{price},{cost},AWS,{cost},{price},Standard,{qty},{unit},"
        f"AWS,AWS,us-east-1,US East (N. Virginia),{rid},,,{category},"
        f"Amazon Elastic Compute Cloud,SKU123,SKU123,123456789012,,{{}},{operation},AmazonEC2,"
        f"{usage}"
    )
    return head, middle, tail


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, required=True)
    parser.add_argument("--ids", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--gzip", action="store_true")
    args = parser.parse_args()
    kept = [resource(n) for n in range(min(args.ids, args.lines))]
    opener = gzip.open if args.gzip else open
    with opener(args.out, "wt", encoding="utf-8", newline="") as out:
        out.write(COLUMNS + "\n")
        hours = -(-args.lines // len(kept))
        written = 0
        for hour in range(hours):
            start = START + datetime.timedelta(hours=hour)
            month = start.replace(day=1, hour=0)
            next_month = (month + datetime.timedelta(days=32)).replace(day=1)
            period = f"{stamp(next_month)},{stamp(month)},"
            charge = f"{stamp(start + datetime.timedelta(hours=1))},{stamp(start)}"
            take = min(len(kept), args.lines - written)
            out.writelines(
                f"{head}{period}{middle}{charge}{tail}\n" for head, middle, tail in kept[:take]
            )
            written += take


if __name__ == "__main__":
    main()

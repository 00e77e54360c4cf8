"""What `gpumeter fleet` finds in one AWS account and region, read with boto3 as a short script
would: every GPU instance (the `p` and `g` families, not terminated), and what bills with no
instance (unattached volumes, the volumes of stopped instances, the account's snapshots and
images, addresses associated with nothing, load balancers with no healthy target), less what an
instance's row holds; and which snapshots and images anyone may use.

The AWS fleet benchmark (tests/clouds/aws_fleet_bench.rs) times it beside `gpumeter fleet`.
Usage: aws_fleet_boto3.py ENDPOINT REGION; keys from the environment. Prints one JSON object.
"""

import json
import sys

import boto3


def pages(client, operation, key, **params):
    for page in client.get_paginator(operation).paginate(**params):
        yield from page[key]


def idle_balancers(elb):
    for lb in pages(elb, "describe_load_balancers", "LoadBalancers"):
        arn = lb["LoadBalancerArn"]
        groups = pages(elb, "describe_target_groups", "TargetGroups", LoadBalancerArn=arn)
        healthy = any(
            t["TargetHealth"]["State"] == "healthy"
            for g in groups
            for t in elb.describe_target_health(TargetGroupArn=g["TargetGroupArn"])[
                "TargetHealthDescriptions"
            ]
        )
        if not healthy:
            yield arn


def main():
    endpoint, region = sys.argv[1], sys.argv[2]
    ec2 = boto3.client("ec2", endpoint_url=endpoint, region_name=region)
    elb = boto3.client("elbv2", endpoint_url=endpoint, region_name=region)
    reservations = pages(ec2, "describe_instances", "Reservations", MaxResults=1000)
    instances = [i for r in reservations for i in r["Instances"]]
    gpus = [
        i
        for i in instances
        if i["InstanceType"][0] in "pg" and i["State"]["Name"] != "terminated"
    ]
    volumes = list(pages(ec2, "describe_volumes", "Volumes", MaxResults=500))
    addresses = ec2.describe_addresses()["Addresses"]
    mine = {"OwnerIds": ["self"], "MaxResults": 1000}
    snapshots = list(pages(ec2, "describe_snapshots", "Snapshots", **mine))
    public_snapshots = pages(
        ec2, "describe_snapshots", "Snapshots", RestorableByUserIds=["all"], **mine
    )
    images = list(pages(ec2, "describe_images", "Images", Owners=["self"], MaxResults=1000))

    disks = lambda i: {b["Ebs"]["VolumeId"] for b in i.get("BlockDeviceMappings", [])}
    held = {i["InstanceId"] for i in gpus}
    held |= {v["VolumeId"] for v in volumes for a in v["Attachments"] if a["InstanceId"] in held}
    held |= set().union(*(disks(i) for i in gpus))
    held |= {a.get("AllocationId") for a in addresses if a.get("InstanceId") in held}
    stopped = set().union(*(disks(i) for i in instances if i["State"]["Name"] == "stopped"))
    orphans = {v["VolumeId"] for v in volumes if v["State"] == "available" or v["VolumeId"] in stopped}
    orphans |= {s["SnapshotId"] for s in snapshots} | {i["ImageId"] for i in images}
    orphans |= {
        a.get("AllocationId") or a["PublicIp"]
        for a in addresses
        if not a.get("InstanceId") and not a.get("AssociationId")
    }
    orphans |= set(idle_balancers(elb))
    public = {s["SnapshotId"] for s in public_snapshots} | {
        i["ImageId"] for i in images if i.get("Public")
    }
    answer = {
        "instances": sorted(held & {i["InstanceId"] for i in gpus}),
        "orphans": sorted(orphans - held),
        "public": sorted(public),
    }
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()

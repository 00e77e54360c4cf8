//! Elastic Load Balancing (v2: application, network and gateway load balancers) through its
//! Query API, version 2015-12-01, signed and sent as EC2's calls are ([`super::query`]) for the
//! SigV4 service `elasticloadbalancing`. The endpoint is `AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2`,
//! then `AWS_ENDPOINT_URL`, then the region's ([`super::credentials::AwsSettings::elb_endpoint`]).
//!
//! The sweep lists each load balancer none of whose target groups has a target in state
//! `healthy`: it bills by the hour whether or not anything answers behind it. A delete is
//! `DeleteLoadBalancer`, then `DescribeLoadBalancers` by ARN until the service answers
//! `LoadBalancerNotFound`; only that answer confirms it.

use std::collections::BTreeMap;

use jiff::Timestamp;
use roxmltree::Document;
use rust_decimal::Decimal;

use super::actions::{accepted, read_failed};
use super::credentials::ENDPOINT_ELB;
use super::delete::Outcome;
use super::elb_xml;
use super::fetch::Session;
use super::inventory::time;
use super::query::{Ec2, Ec2Error, Params, Service, describe_service_call, param as p};
use super::xml;
use crate::meter::ResourceKind;
use crate::provider::http::Repeat;
use crate::provider::readback::Readback;
use crate::provider::{Exposure, LinkedResource, ProviderError};

pub const ELB: Service = Service {
    name: "elasticloadbalancing",
    version: "2015-12-01",
    endpoint_var: ENDPOINT_ELB,
};

/// At most this many pages of one listing, as for EC2's; more is an error, not a short list.
const MAX_PAGES: usize = 50;
/// The service's answer for an ARN it does not know.
const GONE: &str = "LoadBalancerNotFound";
const TARGET_GROUP_GONE: &str = "TargetGroupNotFound";

fn delete_params(arn: &str) -> Params {
    vec![p("LoadBalancerArn", arn)]
}

fn read_params(arn: &str) -> Params {
    vec![p("LoadBalancerArns.member.1", arn)]
}

fn client<'a>(s: &Session<'a>) -> Result<&'a Ec2, ProviderError> {
    s.elb.clone()
}

/// One call whose answer must be `<{action}Response>`.
async fn call(
    s: &mut Session<'_>,
    elb: &Ec2,
    action: &str,
    params: &Params,
) -> Result<String, Ec2Error> {
    let body = s.call_to(elb, action, params, Repeat::Safe).await?;
    xml::parse_answer(&body, action).map_err(|m| Ec2Error::malformed(action, &m))?;
    Ok(body)
}

/// Every page of a listing: `Marker` in, `NextMarker` out.
async fn list<T>(
    s: &mut Session<'_>,
    elb: &Ec2,
    action: &str,
    params: &Params,
    read: fn(&Document<'_>) -> Vec<T>,
) -> Result<Vec<T>, Ec2Error> {
    let mut out = Vec::new();
    let mut page = params.clone();
    for _ in 0..MAX_PAGES {
        let body = call(s, elb, action, &page).await?;
        let doc = xml::parse(&body).map_err(|m| Ec2Error::malformed(action, &m))?;
        out.extend(read(&doc));
        match elb_xml::next_marker(&doc) {
            Some(marker) => {
                page = params.clone();
                page.push(p("Marker", &marker));
            }
            None => return Ok(out),
        }
    }
    Err(Ec2Error::Malformed {
        action: action.into(),
        what: crate::t!("aws-too-many-pages", most = MAX_PAGES.to_string()),
    })
}

/// `Ok(None)` when the service answers `code` (the thing went between two calls).
fn unless_gone<T>(r: Result<T, Ec2Error>, code: &str) -> Result<Option<T>, ProviderError> {
    match r {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.code() == Some(code) => Ok(None),
        Err(e) => Err(e.of(ELB)),
    }
}

/// Whether any target of any of `lb`'s target groups is `healthy`; `None` when the load
/// balancer went while it was read.
async fn has_healthy_target(
    s: &mut Session<'_>,
    elb: &Ec2,
    arn: &str,
) -> Result<Option<bool>, ProviderError> {
    let groups = list(
        s,
        elb,
        "DescribeTargetGroups",
        &vec![p("LoadBalancerArn", arn)],
        elb_xml::target_groups,
    )
    .await;
    let groups = match groups {
        Err(e) if e.code() == Some(GONE) => return Ok(None),
        // What moto answers for a load balancer without target groups: none to be healthy.
        Err(e) if e.code() == Some(TARGET_GROUP_GONE) => Vec::new(),
        other => other.map_err(|e| e.of(ELB))?,
    };
    for group in groups {
        let params = vec![p("TargetGroupArn", &group)];
        let health = call(s, elb, "DescribeTargetHealth", &params).await;
        // A target group deleted since it was listed has no targets.
        let Some(body) = unless_gone(health, TARGET_GROUP_GONE)? else {
            continue;
        };
        let doc = xml::parse(&body).map_err(|m| Ec2Error::malformed("DescribeTargetHealth", &m))?;
        if elb_xml::target_health(&doc)
            .iter()
            .any(|(_, state)| state == "healthy")
        {
            return Ok(Some(true));
        }
    }
    Ok(Some(false))
}

/// Every load balancer in the region with no healthy target, as of `now`.
pub async fn sweep(
    s: &mut Session<'_>,
    now: Timestamp,
) -> Result<Vec<LinkedResource>, ProviderError> {
    let elb = client(s)?;
    let balancers = list(
        s,
        elb,
        "DescribeLoadBalancers",
        &Vec::new(),
        elb_xml::load_balancers,
    )
    .await
    .map_err(|e| e.of(ELB))?;
    let mut out = Vec::new();
    for lb in balancers {
        if has_healthy_target(s, elb, &lb.arn).await? != Some(false) {
            continue;
        }
        out.push(LinkedResource {
            name: lb.name,
            kind: ResourceKind::LoadBalancer,
            class: lb.kind,
            size_gib: Decimal::ZERO,
            state: crate::t!("aws-elb-no-healthy-target", state = lb.state),
            created: time(lb.created.as_deref()).unwrap_or(now),
            deleted_with_instance: false,
            backs_image: None,
            attached_to: None,
            exposure: Exposure::default(),
            id: lb.arn,
            origin: None,
            tags: BTreeMap::new(),
        });
    }
    Ok(out)
}

/// The calls deleting load balancer `arn` makes, in order (a read repeated while waiting is
/// shown once).
pub fn plan(arn: &str) -> Vec<String> {
    vec![
        describe_service_call(ELB, "DeleteLoadBalancer", &delete_params(arn)),
        describe_service_call(ELB, "DescribeLoadBalancers", &read_params(arn)),
    ]
}

/// Deletes load balancer `arn`, then reads it back until the service no longer knows it.
pub async fn delete(
    s: &mut Session<'_>,
    arn: &str,
    readback: Readback,
) -> Result<Outcome, ProviderError> {
    let elb = client(s)?;
    let sent = call(s, elb, "DeleteLoadBalancer", &delete_params(arn)).await;
    unless_gone(sent, GONE)?;
    let read = read_params(arn);
    let mut attempt = 1;
    loop {
        let last = match call(s, elb, "DescribeLoadBalancers", &read).await {
            Err(e) if e.code() == Some(GONE) => {
                return Ok((true, crate::t!("aws-elb-deleted", arn = arn)));
            }
            Err(e) => {
                let done = accepted("DeleteLoadBalancer");
                return Ok((false, read_failed(&done, &e.of(ELB))));
            }
            Ok(body) => xml::parse(&body)
                .map(|doc| elb_xml::load_balancers(&doc))
                .unwrap_or_default()
                .into_iter()
                .find(|lb| lb.arn == arn)
                .map_or_else(
                    || crate::t!("aws-elb-answer-unnamed").into_owned(),
                    |lb| format!("`{}`", lb.state),
                ),
        };
        if attempt >= readback.attempts.max(1) {
            return Ok((
                false,
                crate::t!(
                    "aws-elb-still-reads-back",
                    call = "DeleteLoadBalancer",
                    arn = arn,
                    last = last
                ),
            ));
        }
        attempt += 1;
        tokio::time::sleep(readback.interval).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::ErrorKind;

    fn api(status: u16, action: &str, code: &str, message: &str) -> ProviderError {
        Ec2Error::Api {
            action: action.into(),
            status,
            code: code.into(),
            message: message.into(),
            retry_after: None,
        }
        .of(ELB)
    }

    #[test]
    fn a_refusal_keeps_the_services_code_and_words_and_names_its_iam_action() {
        let e = api(
            400,
            "DeleteLoadBalancer",
            "OperationNotPermitted",
            "Load balancer 'arn:x' cannot be deleted because deletion protection is enabled",
        );
        assert_eq!(e.kind(), &ErrorKind::Rejected);
        assert_eq!(e.code(), Some("OperationNotPermitted"));
        assert!(e.message().contains("deletion protection"), "{e}");
        assert_eq!(e.call(), Some("elasticloadbalancing DeleteLoadBalancer"));
        let denied = api(
            403,
            "DescribeLoadBalancers",
            "AccessDenied",
            "User: u is not authorized",
        );
        assert_eq!(
            denied.kind(),
            &ErrorKind::Permission {
                action: Some("elasticloadbalancing:DescribeLoadBalancers".into())
            }
        );
        let throttled = api(400, "DescribeTargetHealth", "Throttling", "Rate exceeded");
        assert!(matches!(throttled.kind(), ErrorKind::Throttled { .. }));
    }

    #[test]
    fn the_plan_names_the_delete_and_the_read_back_by_arn() {
        let arn = "arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/web/50dc";
        assert_eq!(
            plan(arn),
            [
                format!("elasticloadbalancing DeleteLoadBalancer LoadBalancerArn={arn}"),
                format!(
                    "elasticloadbalancing DescribeLoadBalancers LoadBalancerArns.member.1={arn}"
                ),
            ]
        );
    }
}

//! From a raw sheet (and the sheet it extends, if any) to a complete [`Sheet`].
//!
//! Every key takes the value the user's file states, else the base sheet's, else a default
//! or a missing-key error. Values are checked only where the user's file states them, so every
//! error points into the user's file: a base sheet is already valid.

use std::ops::Range;
use std::path::Path;

use rust_decimal::Decimal;
use toml::Spanned;

use super::error::{ErrorKind, SheetError};
use super::raw::{
    RawBilling, RawDisk, RawDurationDiscount, RawExtras, RawNetwork, RawOtherExtra, RawSheet,
    RawStorage,
};
use super::sheet::{
    Billing, DEFAULT_MONTH_HOURS, DataUnit, DiskPrice, DurationDiscount, Extras, Network,
    OtherExtra, OtherPrice, Sheet, Storage,
};
use super::sku;
use super::values::Values;
use crate::subscription::{Refund, RefundTo};

pub(crate) fn resolve(
    v: &Values,
    raw: &RawSheet,
    base: Option<&Sheet>,
) -> Result<Sheet, SheetError> {
    let id = match &raw.id {
        Some(id) => v.text(id, "id")?,
        None => file_stem(v.src.name)
            .ok_or_else(|| v.missing(None, "id", &crate::t!("sheet-expect-id")))?,
    };
    let provider = stated_or(
        raw.provider.as_ref().map(|p| v.text(p, "provider")),
        base.map(|b| b.provider.clone()),
    )?
    .ok_or_else(|| v.missing(None, "provider", &crate::t!("sheet-expect-provider")))?;
    let region = stated_or(
        raw.region.as_ref().map(|r| v.text(r, "region")),
        base.and_then(|b| b.region.clone()),
    )?;
    let currency = match (&raw.currency, base) {
        (Some(stated), Some(base)) => {
            let currency = v.currency(stated)?;
            if currency != base.currency {
                return Err(v.error(
                    stated.span(),
                    ErrorKind::CurrencyChanged,
                    crate::t!(
                        "sheet-currency-changed",
                        currency = currency.to_string(),
                        base = base.id.as_str(),
                        priced = base.currency.to_string()
                    ),
                ));
            }
            currency
        }
        (Some(stated), None) => v.currency(stated)?,
        (None, Some(base)) => base.currency,
        (None, None) => {
            return Err(v.missing(None, "currency", &crate::t!("sheet-expect-currency")));
        }
    };
    let as_of = stated_or(raw.as_of.as_ref().map(|d| v.date(d)), base.map(|b| b.as_of))?
        .ok_or_else(|| v.missing(None, "as_of", &crate::t!("sheet-expect-as-of")))?;
    let source = stated_or(
        raw.source.as_ref().map(|s| v.text(s, "source")),
        base.map(|b| b.source.clone()),
    )?
    .ok_or_else(|| v.missing(None, "source", &crate::t!("sheet-expect-source")))?;

    let billing_raw = raw.billing.as_ref();
    let billing = billing(v, billing_raw, base.map(|b| &b.billing))?;
    let unit_price = billing_raw
        .map(|b| {
            v.opt_price(
                &b.get_ref().compute_unit_price,
                "billing.compute_unit_price",
            )
        })
        .transpose()?
        .flatten();
    let skus = sku::resolve(v, &raw.sku, base.map_or(&[], |b| &b.skus), unit_price)?;
    Ok(Sheet {
        id,
        provider,
        region,
        currency,
        as_of,
        source,
        billing,
        skus,
        network: network(v, raw.network.as_ref(), base)?,
        storage: storage(v, raw.storage.as_ref(), base.map(|b| &b.storage))?,
        extras: extras(v, raw.extras.as_ref(), base.map(|b| &b.extras))?,
    })
}

/// The stated value if any (checked), else the inherited one.
fn stated_or<T>(
    stated: Option<Result<T, SheetError>>,
    inherited: Option<T>,
) -> Result<Option<T>, SheetError> {
    Ok(stated.transpose()?.or(inherited))
}

fn file_stem(name: &str) -> Option<String> {
    let stem = Path::new(name).file_stem()?.to_str()?;
    (!stem.is_empty()).then(|| stem.to_string())
}

fn span_of<T>(table: Option<&Spanned<T>>) -> Option<Range<usize>> {
    table.map(Spanned::span)
}

fn billing(
    v: &Values,
    raw: Option<&Spanned<RawBilling>>,
    base: Option<&Billing>,
) -> Result<Billing, SheetError> {
    let span = span_of(raw);
    let empty = RawBilling::default();
    let r = raw.map_or(&empty, Spanned::get_ref);
    let step_seconds = stated_or(
        r.step_seconds
            .as_ref()
            .map(|s| v.positive(s, "billing.step_seconds")),
        base.map(|b| b.step_seconds),
    )?
    .ok_or_else(|| {
        v.missing(
            span.clone(),
            "billing.step_seconds",
            &crate::t!("sheet-expect-step"),
        )
    })?;
    let minimum_seconds = stated_or(
        r.minimum_seconds.as_ref().map(|s| Ok(*s.get_ref())),
        base.map(|b| b.minimum_seconds),
    )?
    .ok_or_else(|| {
        v.missing(
            span.clone(),
            "billing.minimum_seconds",
            &crate::t!("sheet-expect-minimum"),
        )
    })?;
    let stop_policy = stated_or(
        r.stop_policy.as_ref().map(|p| v.stop_policy(p)),
        base.map(|b| b.stop_policy),
    )?
    .ok_or_else(|| {
        v.missing(
            span.clone(),
            "billing.stop_policy",
            &crate::t!("sheet-expect-stop-policy"),
        )
    })?;
    let month_hours = stated_or(
        r.month_hours
            .as_ref()
            .map(|h| v.positive(h, "billing.month_hours")),
        base.map(|b| b.month_hours),
    )?
    .unwrap_or(DEFAULT_MONTH_HOURS);
    let reclaims_per_day = stated_or(
        r.reclaims_per_day
            .as_ref()
            .map(|q| v.quantity(q, "billing.reclaims_per_day")),
        base.and_then(|b| b.reclaims_per_day),
    )?;
    let (no_gpu_per_hour, released_after_stopped_days) = billing_states(v, r, base)?;
    let (early_termination_refund, refund_to) = early_termination(v, r, base)?;
    let duration_discounts = match &r.duration_discount {
        Some(list) => duration_discounts(v, list)?,
        None => base
            .map(|b| b.duration_discounts.clone())
            .unwrap_or_default(),
    };
    Ok(Billing {
        step_seconds,
        minimum_seconds,
        stop_policy,
        month_hours,
        reclaims_per_day,
        no_gpu_per_hour,
        released_after_stopped_days,
        early_termination_refund,
        refund_to,
        duration_discounts,
    })
}

/// The platform's rule for leaving a subscription early, and where its refund goes: both
/// optional, each inherited through `extends` where not stated.
fn early_termination(
    v: &Values,
    r: &RawBilling,
    base: Option<&Billing>,
) -> Result<(Option<Refund>, Option<RefundTo>), SheetError> {
    let refund = match &r.early_termination_refund {
        Some(text) => Some(text.get_ref().parse::<Refund>().map_err(|_| {
            v.error(
                text.span(),
                ErrorKind::BadValue,
                crate::t!("sub-sheet-refund", word = text.get_ref().as_str()),
            )
        })?),
        None => base.and_then(|b| b.early_termination_refund),
    };
    let refund_to = match &r.refund_to {
        Some(text) => Some(text.get_ref().parse::<RefundTo>().map_err(|_| {
            v.error(
                text.span(),
                ErrorKind::BadValue,
                crate::t!("sub-sheet-refund-to", word = text.get_ref().as_str()),
            )
        })?),
        None => base.and_then(|b| b.refund_to),
    };
    Ok((refund, refund_to))
}

/// `[[billing.duration_discount]]`: each a whole number of months and a fraction off below 1,
/// each count once; kept fewest months first.
fn duration_discounts(
    v: &Values,
    list: &[Spanned<RawDurationDiscount>],
) -> Result<Vec<DurationDiscount>, SheetError> {
    let mut out: Vec<DurationDiscount> = Vec::with_capacity(list.len());
    for entry in list {
        let r = entry.get_ref();
        let expected = crate::t!("sheet-expect-discount");
        let months = match &r.months {
            Some(m) => v.positive(m, "billing.duration_discount.months")?,
            None => {
                return Err(v.missing(
                    Some(entry.span()),
                    "billing.duration_discount.months",
                    &expected,
                ));
            }
        };
        let Some(off) = &r.off else {
            return Err(v.missing(
                Some(entry.span()),
                "billing.duration_discount.off",
                &expected,
            ));
        };
        let off_value = v.quantity(off, "billing.duration_discount.off")?;
        if off_value >= Decimal::ONE || out.iter().any(|d| d.months == months) {
            return Err(v.error(
                entry.span(),
                ErrorKind::BadValue,
                crate::t!(
                    "sheet-bad-discount",
                    months = months,
                    off = off_value.to_string()
                ),
            ));
        }
        out.push(DurationDiscount {
            months,
            off: off_value,
        });
    }
    out.sort_by_key(|d| d.months);
    Ok(out)
}

/// The two optional keys for states other than running and stopped: the no-GPU rate and the
/// days after which a stopped instance is released.
fn billing_states(
    v: &Values,
    r: &RawBilling,
    base: Option<&Billing>,
) -> Result<(Option<Decimal>, Option<u32>), SheetError> {
    let no_gpu_per_hour = stated_or(
        r.no_gpu_per_hour
            .as_ref()
            .map(|p| v.price(p, "billing.no_gpu_per_hour")),
        base.and_then(|b| b.no_gpu_per_hour),
    )?;
    let released_after_stopped_days = stated_or(
        r.released_after_stopped_days
            .as_ref()
            .map(|d| v.positive(d, "billing.released_after_stopped_days")),
        base.and_then(|b| b.released_after_stopped_days),
    )?;
    Ok((no_gpu_per_hour, released_after_stopped_days))
}

fn network(
    v: &Values,
    raw: Option<&Spanned<RawNetwork>>,
    base_sheet: Option<&Sheet>,
) -> Result<Network, SheetError> {
    let span = span_of(raw);
    let empty = RawNetwork::default();
    let r = raw.map_or(&empty, Spanned::get_ref);
    let base = base_sheet.map(|b| &b.network);
    let unit = match (&r.unit, base_sheet) {
        (Some(stated), Some(sheet)) => {
            let unit = v.unit(stated)?;
            if unit != sheet.network.unit {
                return Err(v.error(
                    stated.span(),
                    ErrorKind::BadValue,
                    crate::t!(
                        "sheet-unit-changed",
                        unit = unit.as_str(),
                        base = sheet.id.as_str(),
                        priced = sheet.network.unit.as_str()
                    ),
                ));
            }
            unit
        }
        (Some(stated), None) => v.unit(stated)?,
        (None, _) => base.map_or(DataUnit::GiB, |b| b.unit),
    };
    let egress_per_unit = stated_or(
        r.egress_per_unit
            .as_ref()
            .map(|p| v.price_or_unknown(p, "network.egress_per_unit")),
        base.map(|b| b.egress_per_unit),
    )?
    .ok_or_else(|| {
        v.missing(
            span,
            "network.egress_per_unit",
            &crate::t!("sheet-expect-egress"),
        )
    })?;
    // Intranet traffic is free on every cloud gpumeter knows; a sheet states otherwise.
    let intranet_per_unit = stated_or(
        r.intranet_per_unit
            .as_ref()
            .map(|p| v.price(p, "network.intranet_per_unit")),
        base.map(|b| b.intranet_per_unit),
    )?
    .unwrap_or(Decimal::ZERO);
    let cross_region_per_unit = v
        .opt_price(&r.cross_region_per_unit, "network.cross_region_per_unit")?
        .or(base.and_then(|b| b.cross_region_per_unit));
    let ingress_per_unit = stated_or(
        r.ingress_per_unit
            .as_ref()
            .map(|p| v.price(p, "network.ingress_per_unit")),
        base.map(|b| b.ingress_per_unit),
    )?
    .unwrap_or(Decimal::ZERO);
    let free_egress_per_month = stated_or(
        r.free_egress_per_month
            .as_ref()
            .map(|q| v.quantity(q, "network.free_egress_per_month")),
        base.map(|b| b.free_egress_per_month),
    )?
    .unwrap_or(Decimal::ZERO);
    let fixed_bandwidth_per_mbps_month = v
        .opt_price(
            &r.fixed_bandwidth_per_mbps_month,
            "network.fixed_bandwidth_per_mbps_month",
        )?
        .or(base.and_then(|b| b.fixed_bandwidth_per_mbps_month));
    let fixed_bandwidth_mbps = stated_or(
        r.fixed_bandwidth_mbps
            .as_ref()
            .map(|q| v.quantity(q, "network.fixed_bandwidth_mbps")),
        base.and_then(|b| b.fixed_bandwidth_mbps),
    )?;
    Ok(Network {
        unit,
        egress_per_unit,
        intranet_per_unit,
        cross_region_per_unit,
        ingress_per_unit,
        free_egress_per_month,
        fixed_bandwidth_per_mbps_month,
        fixed_bandwidth_mbps,
    })
}

fn storage(
    v: &Values,
    raw: Option<&Spanned<RawStorage>>,
    base: Option<&Storage>,
) -> Result<Storage, SheetError> {
    let empty = RawStorage::default();
    let r = raw.map_or(&empty, Spanned::get_ref);
    let mut disk = base.map(|b| b.disk.clone()).unwrap_or_default();
    for (class, price) in r.disk.iter().flatten() {
        let name = class.get_ref().clone();
        let merged = disk_price(v, class, price, disk.get(&name))?;
        disk.insert(name, merged);
    }
    let inherit = |f: fn(&Storage) -> Option<Decimal>| base.and_then(f);
    Ok(Storage {
        disk,
        snapshot: v
            .opt_price(&r.snapshot_per_gib_month, "storage.snapshot_per_gib_month")?
            .or(inherit(|s| s.snapshot)),
        image: v
            .opt_price(&r.image_per_gib_month, "storage.image_per_gib_month")?
            .or(inherit(|s| s.image)),
        network_volume: v
            .opt_price(
                &r.network_volume_per_gib_month,
                "storage.network_volume_per_gib_month",
            )?
            .or(inherit(|s| s.network_volume)),
    })
}

fn disk_price(
    v: &Values,
    class: &Spanned<String>,
    raw: &Spanned<RawDisk>,
    base: Option<&DiskPrice>,
) -> Result<DiskPrice, SheetError> {
    let key = format!("storage.disk.{}", class.get_ref());
    match raw.get_ref() {
        RawDisk::Flat(number) => {
            let per_gib_month = v.price(&Spanned::new(raw.span(), number.clone()), &key)?;
            Ok(DiskPrice {
                per_gib_month,
                when_stopped: base.and_then(|b| b.when_stopped),
            })
        }
        RawDisk::Split(table) => {
            let per_gib_month = stated_or(
                v.opt_price(&table.per_gib_month, &format!("{key}.per_gib_month"))
                    .transpose(),
                base.map(|b| b.per_gib_month),
            )?
            .ok_or_else(|| {
                v.missing(
                    Some(raw.span()),
                    &format!("{key}.per_gib_month"),
                    &crate::t!("sheet-expect-disk"),
                )
            })?;
            let when_stopped = v
                .opt_price(&table.when_stopped, &format!("{key}.when_stopped"))?
                .or(base.and_then(|b| b.when_stopped));
            Ok(DiskPrice {
                per_gib_month,
                when_stopped,
            })
        }
    }
}

fn extras(
    v: &Values,
    raw: Option<&Spanned<RawExtras>>,
    base: Option<&Extras>,
) -> Result<Extras, SheetError> {
    let empty = RawExtras::default();
    let r = raw.map_or(&empty, Spanned::get_ref);
    let inherit = |f: fn(&Extras) -> Option<Decimal>| base.and_then(f);
    Ok(Extras {
        public_ip_attached_per_hour: v
            .opt_price(
                &r.public_ip_attached_per_hour,
                "extras.public_ip_attached_per_hour",
            )?
            .or(inherit(|e| e.public_ip_attached_per_hour)),
        public_ip_idle_per_hour: v
            .opt_price(&r.public_ip_idle_per_hour, "extras.public_ip_idle_per_hour")?
            .or(inherit(|e| e.public_ip_idle_per_hour)),
        load_balancer_per_hour: v
            .opt_price(&r.load_balancer_per_hour, "extras.load_balancer_per_hour")?
            .or(inherit(|e| e.load_balancer_per_hour)),
        license_per_hour: v
            .opt_price(&r.license_per_hour, "extras.license_per_hour")?
            .or(inherit(|e| e.license_per_hour)),
        boot_fee: v
            .opt_price(&r.boot_fee, "extras.boot_fee")?
            .or(inherit(|e| e.boot_fee)),
        // A sheet that lists its own replaces the base's list; one that lists none keeps it.
        other: match &r.other {
            Some(list) => list
                .iter()
                .map(|o| other_extra(v, o))
                .collect::<Result<_, _>>()?,
            None => base.map(|b| b.other.clone()).unwrap_or_default(),
        },
    })
}

/// One `[[extras.other]]`: a label and exactly one of `per_hour` and `per_month`.
fn other_extra(v: &Values, raw: &Spanned<RawOtherExtra>) -> Result<OtherExtra, SheetError> {
    let r = raw.get_ref();
    let label = match &r.label {
        Some(label) => crate::text::printable(&v.text(label, "extras.other.label")?).into_owned(),
        None => {
            return Err(v.missing(
                Some(raw.span()),
                "extras.other.label",
                &crate::t!("sheet-other-label"),
            ));
        }
    };
    let per_hour = v.opt_price(&r.per_hour, "extras.other.per_hour")?;
    let per_month = v.opt_price(&r.per_month, "extras.other.per_month")?;
    let price = match (per_hour, per_month) {
        (Some(p), None) => OtherPrice::PerHourUp(p),
        (None, Some(p)) => OtherPrice::PerMonth(p),
        _ => {
            return Err(v.error(
                raw.span(),
                ErrorKind::BadValue,
                crate::t!("sheet-other-one-price", label = label),
            ));
        }
    };
    Ok(OtherExtra { label, price })
}

//! The `[[sku]]` entries: checked, then merged by name onto the SKUs of the base sheet.
//!
//! A user SKU whose name (case-insensitive) matches an inherited one overrides only the
//! fields it states; any other SKU is new and must be complete.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ops::Range;

use rust_decimal::Decimal;
use toml::Spanned;

use super::error::{ErrorKind, Location, SheetError};
use super::raw::RawSku;
use super::sheet::{ComputeUnits, Sku};
use super::values::Values;

/// The fields one `[[sku]]` entry states, checked.
struct Stated {
    gpu_model: Option<String>,
    gpu_count: Option<u32>,
    gpu_memory_gib: Option<Decimal>,
    on_demand_per_hour: Option<Decimal>,
    spot_per_hour: Option<Decimal>,
    monthly: Option<Decimal>,
    daily: Option<Decimal>,
    weekly: Option<Decimal>,
    yearly: Option<Decimal>,
    units_per_hour: Option<Decimal>,
    unit_price: Option<Decimal>,
}

/// `sheet_unit_price` is `billing.compute_unit_price` as the user's file states it: the
/// default for this file's SKUs, and a new price for inherited compute-unit SKUs.
pub(crate) fn resolve(
    v: &Values,
    raw: &[Spanned<RawSku>],
    base: &[Sku],
    sheet_unit_price: Option<Decimal>,
) -> Result<Vec<Sku>, SheetError> {
    let names = names(v, raw)?;
    let mut skus = base.to_vec();
    if let Some(price) = sheet_unit_price {
        for units in skus.iter_mut().filter_map(|s| s.compute_units.as_mut()) {
            units.unit_price = price;
        }
    }
    // Where each name already is, so that matching an entry to the SKU it overrides costs the
    // same for the ten-thousandth SKU as for the first. The first of equal names wins, as a
    // search from the front would find it.
    let mut index: HashMap<String, usize> = HashMap::with_capacity(skus.len() + raw.len());
    for (i, sku) in skus.iter().enumerate() {
        index.entry(sku.name.to_ascii_lowercase()).or_insert(i);
    }
    for (entry, name) in raw.iter().zip(names) {
        let stated = stated(v, entry.get_ref())?;
        let span = entry.span();
        match index.entry(name.to_ascii_lowercase()) {
            Entry::Occupied(at) => {
                override_fields(v, span, stated, &mut skus[*at.get()], sheet_unit_price)?;
            }
            Entry::Vacant(slot) => {
                slot.insert(skus.len());
                skus.push(new_sku(v, span, name, stated, sheet_unit_price)?);
            }
        }
    }
    Ok(skus)
}

/// Every entry's name, with duplicates (case-insensitive) rejected.
fn names(v: &Values, raw: &[Spanned<RawSku>]) -> Result<Vec<String>, SheetError> {
    let mut names = Vec::with_capacity(raw.len());
    // Each name folded to lower case, and where it was first written.
    let mut first_at: HashMap<String, Range<usize>> = HashMap::with_capacity(raw.len());
    for entry in raw {
        let Some(name_value) = &entry.get_ref().name else {
            return Err(v.missing(
                Some(entry.span()),
                "name",
                &crate::t!("sheet-expect-sku-name"),
            ));
        };
        let name = v.text(name_value, "name")?;
        match first_at.entry(name.to_ascii_lowercase()) {
            Entry::Occupied(first) => {
                let Location { line, .. } = Location::of_offset(v.src.text, first.get().start);
                return Err(v.error(
                    name_value.span(),
                    ErrorKind::DuplicateSku,
                    crate::t!(
                        "sheet-duplicate-sku",
                        name = name.as_str(),
                        line = line.to_string()
                    ),
                ));
            }
            Entry::Vacant(slot) => {
                slot.insert(name_value.span());
            }
        }
        names.push(name);
    }
    Ok(names)
}

fn stated(v: &Values, raw: &RawSku) -> Result<Stated, SheetError> {
    Ok(Stated {
        gpu_model: raw
            .gpu_model
            .as_ref()
            .map(|m| v.text(m, "gpu_model"))
            .transpose()?,
        gpu_count: raw
            .gpu_count
            .as_ref()
            .map(|c| v.positive(c, "gpu_count"))
            .transpose()?,
        gpu_memory_gib: v.opt_quantity(&raw.gpu_memory_gib, "gpu_memory_gib")?,
        on_demand_per_hour: v.opt_price(&raw.on_demand_per_hour, "on_demand_per_hour")?,
        spot_per_hour: v.opt_price(&raw.spot_per_hour, "spot_per_hour")?,
        monthly: v.opt_price(&raw.monthly, "monthly")?,
        daily: v.opt_price(&raw.daily, "daily")?,
        weekly: v.opt_price(&raw.weekly, "weekly")?,
        yearly: v.opt_price(&raw.yearly, "yearly")?,
        units_per_hour: v.opt_quantity(&raw.compute_units_per_hour, "compute_units_per_hour")?,
        unit_price: v.opt_price(&raw.compute_unit_price, "compute_unit_price")?,
    })
}

fn override_fields(
    v: &Values,
    span: Range<usize>,
    stated: Stated,
    sku: &mut Sku,
    sheet_unit_price: Option<Decimal>,
) -> Result<(), SheetError> {
    sku.compute_units = compute_units(v, span, &stated, sku.compute_units, sheet_unit_price)?;
    if let Some(model) = stated.gpu_model {
        sku.gpu_model = model;
    }
    sku.gpu_count = stated.gpu_count.unwrap_or(sku.gpu_count);
    sku.gpu_memory_gib = stated.gpu_memory_gib.unwrap_or(sku.gpu_memory_gib);
    sku.on_demand_per_hour = stated.on_demand_per_hour.or(sku.on_demand_per_hour);
    sku.spot_per_hour = stated.spot_per_hour.or(sku.spot_per_hour);
    sku.monthly = stated.monthly.or(sku.monthly);
    sku.daily = stated.daily.or(sku.daily);
    sku.weekly = stated.weekly.or(sku.weekly);
    sku.yearly = stated.yearly.or(sku.yearly);
    Ok(())
}

fn new_sku(
    v: &Values,
    span: Range<usize>,
    name: String,
    stated: Stated,
    sheet_unit_price: Option<Decimal>,
) -> Result<Sku, SheetError> {
    let missing = |key: &str, expected: &str| {
        v.missing(
            Some(span.clone()),
            key,
            &crate::t!(
                "sheet-for-new-sku",
                expected = expected,
                name = name.as_str()
            ),
        )
    };
    let compute_units = compute_units(v, span.clone(), &stated, None, sheet_unit_price)?;
    let sku = Sku {
        gpu_model: stated
            .gpu_model
            .ok_or_else(|| missing("gpu_model", &crate::t!("sheet-expect-gpu-model")))?,
        gpu_count: stated
            .gpu_count
            .ok_or_else(|| missing("gpu_count", &crate::t!("sheet-expect-gpu-count")))?,
        gpu_memory_gib: stated
            .gpu_memory_gib
            .ok_or_else(|| missing("gpu_memory_gib", &crate::t!("sheet-expect-gpu-memory")))?,
        on_demand_per_hour: stated.on_demand_per_hour,
        spot_per_hour: stated.spot_per_hour,
        monthly: stated.monthly,
        daily: stated.daily,
        weekly: stated.weekly,
        yearly: stated.yearly,
        compute_units,
        name,
    };
    let priced = sku.on_demand_per_hour.is_some()
        || sku.spot_per_hour.is_some()
        || sku.monthly.is_some()
        || sku.daily.is_some()
        || sku.weekly.is_some()
        || sku.yearly.is_some()
        || sku.compute_units.is_some();
    if !priced {
        return Err(v.error(
            span,
            ErrorKind::NoPrice,
            crate::t!("sheet-no-price", name = sku.name.as_str()),
        ));
    }
    Ok(sku)
}

fn compute_units(
    v: &Values,
    span: Range<usize>,
    stated: &Stated,
    inherited: Option<ComputeUnits>,
    sheet_unit_price: Option<Decimal>,
) -> Result<Option<ComputeUnits>, SheetError> {
    let units = stated
        .units_per_hour
        .or(inherited.map(|c| c.units_per_hour));
    let price = stated
        .unit_price
        .or(inherited.map(|c| c.unit_price))
        .or(sheet_unit_price);
    match (units, price) {
        (Some(units_per_hour), Some(unit_price)) => Ok(Some(ComputeUnits {
            units_per_hour,
            unit_price,
        })),
        (Some(_), None) => Err(v.missing(
            Some(span),
            "compute_unit_price",
            &crate::t!("sheet-expect-unit-price"),
        )),
        (None, _) if stated.unit_price.is_some() => Err(v.missing(
            Some(span),
            "compute_units_per_hour",
            &crate::t!("sheet-expect-units"),
        )),
        (None, _) => Ok(None),
    }
}

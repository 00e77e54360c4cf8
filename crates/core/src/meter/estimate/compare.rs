//! One plan priced on every SKU of every sheet that fits, in every mode each offers, ranked by
//! the plan's total in one currency (not by hourly price). An offer that lacks a price the plan
//! needs is listed apart: its total is only a lower bound, so it is never ranked above one
//! that is whole.

use jiff::civil::Date;
use rust_decimal::Decimal;

use super::fx::Rates;
use super::{ModeCost, Needs, Plan, PlanPrices, estimate};
use crate::money::Currency;
use crate::pricing::sheet::{STALE_AFTER_DAYS, Sheet, Sku};

/// Which SKUs fit: a GPU model matched loosely, and at least so many GPUs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub gpu: Option<String>,
    pub min_gpus: u32,
}

/// One SKU in one mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub sheet: String,
    pub sku: String,
    pub gpu_model: String,
    pub gpus: u32,
    pub cost: ModeCost,
    /// The total in the comparison currency; `None`: no rate for the offer's currency. A lower
    /// bound when the offer is incomplete.
    pub converted_total: Option<Decimal>,
    /// `converted_total` per GPU-hour of use; `None` with no rate or no hours.
    pub per_gpu_hour: Option<Decimal>,
    pub as_of: Date,
    pub stale: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub currency: Currency,
    /// Complete offers by converted total, cheapest first.
    pub offers: Vec<Offer>,
    /// Offers that leave a line unpriced, by what is known of their total.
    pub incomplete: Vec<Offer>,
    /// Offers in a currency with no rate to the comparison currency.
    pub not_comparable: Vec<Offer>,
}

pub fn compare(
    sheets: &[Sheet],
    query: &Query,
    plan: Plan,
    needs: &Needs,
    rates: &Rates,
    currency: Currency,
    today: Date,
) -> Comparison {
    let mut offers = Vec::new();
    let mut incomplete = Vec::new();
    let mut not_comparable = Vec::new();
    for sheet in sheets {
        let stale = sheet.age_days(today) > STALE_AFTER_DAYS;
        for sku in sheet.skus.iter().filter(|s| fits(s, query)) {
            let prices = PlanPrices::from_sheet(sheet, sku, 1);
            for cost in estimate(&prices, plan, needs).modes {
                let total = cost.breakdown.total().amount;
                let converted_total = rates.convert(total, sheet.currency, currency);
                let gpu_hours = plan.hours() * Decimal::from(sku.gpu_count);
                let per_gpu_hour = converted_total
                    .filter(|_| !gpu_hours.is_zero())
                    .map(|t| t / gpu_hours);
                let offer = Offer {
                    sheet: sheet.id.clone(),
                    sku: sku.name.clone(),
                    gpu_model: sku.gpu_model.clone(),
                    gpus: sku.gpu_count,
                    cost,
                    converted_total,
                    per_gpu_hour,
                    as_of: sheet.as_of,
                    stale,
                };
                match converted_total {
                    None => not_comparable.push(offer),
                    Some(_) if !offer.cost.is_complete() => incomplete.push(offer),
                    Some(_) => offers.push(offer),
                }
            }
        }
    }
    offers.sort_by(by_total);
    incomplete.sort_by(by_total);
    Comparison {
        currency,
        offers,
        incomplete,
        not_comparable,
    }
}

fn by_total(a: &Offer, b: &Offer) -> std::cmp::Ordering {
    a.converted_total
        .cmp(&b.converted_total)
        .then_with(|| (&a.sheet, &a.sku, a.cost.mode).cmp(&(&b.sheet, &b.sku, b.cost.mode)))
}

/// Every word of the query names the SKU's model (`a100`, `4090`, `sxm`) or its memory
/// (`80gb`), case and punctuation aside: `A100 80GB` matches `A100 SXM 80GB` and an `A100`
/// whose sheet states 80 GiB.
pub fn fits(sku: &Sku, query: &Query) -> bool {
    if sku.gpu_count < query.min_gpus {
        return false;
    }
    let Some(gpu) = &query.gpu else {
        return true;
    };
    let memory = sku.gpu_memory_gib.normalize();
    let mut known = words(&sku.gpu_model);
    known.push(format!("{memory}gb"));
    known.push(format!("{memory}gib"));
    words(gpu).iter().all(|w| known.contains(w))
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

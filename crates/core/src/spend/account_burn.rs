//! What the whole account burns, for the balance it draws on: this instance's burn from its
//! meter, and every other instance the account lists that is up, priced by the same sheet
//! (the provider's live price where it reports one; the sheet's no-GPU price for one running
//! without its GPUs). An instance the sheet cannot price is counted, not guessed: the burn is
//! then a lower bound and says how many it leaves out.

use rust_decimal::Decimal;

use crate::cloud::InstanceInfo;
use crate::guard::{Burn, BurnScope};
use crate::meter::{BillingMode, InstanceState};
use crate::money::{CurrencyMismatch, Money};
use crate::pricing::Sheet;

/// The other instances' burn an hour, in the sheet's currency, and how many up were not priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OthersBurn {
    pub per_hour: Money,
    pub uncounted: usize,
}

/// The burn of the instances in `listed` other than `this_id` that are up, by `sheet`.
pub fn others_burn<'a>(
    sheet: &Sheet,
    this_id: &str,
    listed: impl IntoIterator<Item = &'a InstanceInfo>,
) -> OthersBurn {
    let mut per_hour = Decimal::ZERO;
    let mut uncounted = 0;
    for instance in listed
        .into_iter()
        .filter(|i| i.id != this_id && i.state.is_up())
    {
        match hourly(sheet, instance) {
            Some(price) => per_hour += price,
            None => uncounted += 1,
        }
    }
    OthersBurn {
        per_hour: Money::new(per_hour, sheet.currency),
        uncounted,
    }
}

/// The burn the cockpit, `serve` and the watchdog reckon the balance at: this instance's, and
/// where the account was `listed`, its other instances' by `sheet`; this instance's alone
/// (said so) where either is missing or the sheet bills in another currency.
pub fn burn_of_account(
    this: Money,
    this_id: &str,
    sheet: Option<&Sheet>,
    listed: Option<&[InstanceInfo]>,
) -> Burn {
    let others = sheet.zip(listed).map(|(s, l)| others_burn(s, this_id, l));
    Burn::account(this, others).unwrap_or_else(|_| Burn::this_instance(this))
}

/// What `instance` costs an hour while it is up, where the provider or the sheet says.
fn hourly(sheet: &Sheet, instance: &InstanceInfo) -> Option<Decimal> {
    if instance.state == InstanceState::NoGpu {
        return sheet.billing.no_gpu_per_hour;
    }
    if let Some(live) = instance.live_price_per_hour {
        return Some(live);
    }
    let sku = sheet.sku(&instance.sku)?;
    match instance.mode {
        BillingMode::Spot => sku.spot_per_hour,
        // Bought up front: an hour of it draws nothing from the balance now.
        BillingMode::Monthly => Some(Decimal::ZERO),
        BillingMode::OnDemand => sku.on_demand_per_hour,
        // Priced per unit of work, not per hour: left uncounted.
        BillingMode::ComputeUnits => None,
    }
}

impl Burn {
    /// This instance's burn alone: the account's other instances were not read.
    pub fn this_instance(per_hour: Money) -> Burn {
        Burn {
            per_hour,
            scope: BurnScope::ThisInstance,
            uncounted: None,
        }
    }

    /// The account's burn: this instance's and, where the account was listed, the others'.
    pub fn account(this: Money, others: Option<OthersBurn>) -> Result<Burn, CurrencyMismatch> {
        let Some(others) = others else {
            return Ok(Burn::this_instance(this));
        };
        this.checked_cmp(&others.per_hour)?;
        Ok(Burn {
            per_hour: Money::new(this.amount + others.per_hour.amount, this.currency),
            scope: if others.uncounted == 0 {
                BurnScope::Account
            } else {
                BurnScope::ThisInstance
            },
            uncounted: Some(others.uncounted),
        })
    }
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;
    use rust_decimal::dec;

    use super::*;
    use crate::money::Currency;

    fn instance(id: &str, sku: &str, state: InstanceState) -> InstanceInfo {
        InstanceInfo {
            id: id.into(),
            name: String::new(),
            provider: "autodl".into(),
            region: None,
            sku: sku.into(),
            mode: BillingMode::OnDemand,
            state,
            created: Timestamp::UNIX_EPOCH,
            live_price_per_hour: None,
            history: Vec::new(),
        }
    }

    fn sheet() -> Sheet {
        let mut sheet = crate::pricing::bundled_sheet("autodl")
            .expect("the bundled AutoDL sheet")
            .clone();
        sheet.billing.no_gpu_per_hour = Some(dec!(0.10));
        sheet
    }

    #[test]
    fn every_other_instance_up_is_priced_and_this_one_and_the_stopped_are_not_counted_twice() {
        let sheet = sheet();
        let four_090 = sheet.sku("rtx-4090").unwrap().on_demand_per_hour.unwrap();
        let listed = [
            instance("this", "rtx-4090", InstanceState::Running),
            instance("a", "rtx-4090", InstanceState::Running),
            instance("b", "rtx-4090", InstanceState::NoGpu),
            instance("c", "rtx-4090", InstanceState::Stopped),
            instance("d", "rtx-4090", InstanceState::Released),
        ];
        let others = others_burn(&sheet, "this", &listed);
        assert_eq!(others.per_hour.amount, four_090 + dec!(0.10));
        assert_eq!(others.uncounted, 0);
        let cny = |a| Money::new(a, Currency::CNY);
        let burn = Burn::account(cny(dec!(1.88)), Some(others)).unwrap();
        assert_eq!(burn.per_hour, cny(dec!(1.88) + four_090 + dec!(0.10)));
        assert_eq!(burn.scope, BurnScope::Account);
        assert_eq!(burn.note(), "");
    }

    #[test]
    fn an_instance_the_sheet_cannot_price_makes_the_burn_a_bound_that_says_so() {
        let listed = [
            instance("a", "pro6000-p", InstanceState::Running),
            instance("b", "rtx-4090", InstanceState::Running),
        ];
        let others = others_burn(&sheet(), "this", &listed);
        assert_eq!(others.uncounted, 1);
        let burn = Burn::account(Money::new(dec!(1), Currency::CNY), Some(others)).unwrap();
        assert_eq!(burn.scope, BurnScope::ThisInstance);
        assert_eq!(burn.at_least(), "≥ ");
        assert!(
            burn.note().contains("1 other running instance"),
            "{}",
            burn.note()
        );
        let unread = Burn::account(Money::new(dec!(1), Currency::CNY), None).unwrap();
        assert!(
            unread.note().contains("this instance only"),
            "{}",
            unread.note()
        );
        let usd = Burn::account(Money::new(dec!(1), Currency::USD), Some(others));
        assert!(usd.is_err(), "two currencies are never added");
    }
}

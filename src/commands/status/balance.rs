//! The prepaid balance in `status`: what the provider says the account holds, exact, or `null`
//! where it keeps none or could not be read; and when it runs out at the current burn
//! ([`crate::guard::balance`]), with whose burn that is.

use jiff::Timestamp;
use serde::Serialize;

use crate::commands::block_on;
use crate::guard::{BalanceOutlook, Burn, BurnScope};
use crate::money::Money;
use crate::provider::{Balance, Provider};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BalanceJson {
    /// The exact amount, as a decimal string.
    pub available: String,
    /// Vouchers drawn on first; `null` where the provider does not say.
    pub vouchers: Option<String>,
    pub currency: String,
    /// The balance with when it runs out, for the text output.
    #[serde(skip)]
    pub line: String,
}

impl From<&Balance> for BalanceJson {
    fn from(b: &Balance) -> Self {
        BalanceJson {
            available: b.available.amount.normalize().to_string(),
            vouchers: b.vouchers.map(|v| v.amount.normalize().to_string()),
            currency: b.available.currency.to_string(),
            line: b.line(),
        }
    }
}

/// The burn the balance runs out at, and whose it is: `account` (every running instance) or
/// `this_instance` (a lower bound of the account's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BalanceBurnJson {
    pub amount: String,
    pub currency: String,
    pub scope: BurnScope,
}

/// The balance, or why it could not be read (one line, without secrets: the adapter's error).
pub fn read(provider: &dyn Provider) -> (Option<Balance>, Option<String>) {
    match block_on(provider.balance()) {
        Ok(Ok(found)) => (found, None),
        Ok(Err(e)) => (None, Some(e.to_string())),
        Err(f) => (None, Some(f.message)),
    }
}

/// When `balance` runs out at this instance's `burn` (all `status` knows of the account), or
/// `None` without a burn or with one in another currency.
pub fn outlook(balance: &Balance, burn: Option<Money>, now: Timestamp) -> Option<BalanceOutlook> {
    let burn = Burn {
        per_hour: burn?,
        scope: BurnScope::ThisInstance,
    };
    BalanceOutlook::new(balance.clone(), burn, now).ok()
}

impl super::cloud::CloudJson {
    /// Fills the balance fields from what was read at `now`.
    pub fn set_balance(
        &mut self,
        (balance, error): (Option<Balance>, Option<String>),
        now: Timestamp,
    ) {
        self.balance_error = error;
        let Some(balance) = balance else {
            return;
        };
        let mut json = BalanceJson::from(&balance);
        if let Some(o) = outlook(&balance, self.burn, now) {
            json.line = crate::ui::balance::line(&o, now);
            self.balance_runs_out_at = o.runs_out_at.map(|t| t.to_string());
            self.balance_burn_per_hour = Some(BalanceBurnJson {
                amount: o.burn.per_hour.amount.normalize().to_string(),
                currency: o.burn.per_hour.currency.to_string(),
                scope: o.burn.scope,
            });
        }
        self.balance = Some(json);
    }
}

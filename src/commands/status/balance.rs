//! The prepaid balance in `status`: what the provider says the account holds, exact, or `null`
//! where it keeps none or could not be read; and when it runs out at the current burn
//! ([`crate::guard::balance`]), with whose burn that is.

use jiff::Timestamp;
use serde::Serialize;

use crate::commands::block_on;
use crate::guard::{BalanceOutlook, Burn, BurnScope};
use crate::money::Money;
use crate::pricing::Sheet;
use crate::provider::{Balance, Provider};
use crate::spend::{OthersBurn, others_burn};

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
    /// Where the account was listed, how many of its running instances no price was found
    /// for (left out, so the burn is a lower bound); `null` where it was not listed.
    pub uncounted_instances: Option<usize>,
}

/// What `status` read of a prepaid account.
#[derive(Debug, Default)]
pub struct Read {
    pub balance: Option<Balance>,
    /// Why the balance could not be read (one line, without secrets: the adapter's error).
    pub error: Option<String>,
    /// The account's other instances that are up, priced by `sheet`; `None` where the account
    /// was not listed (no balance, no sheet, or the list failed).
    pub others: Option<OthersBurn>,
}

/// The balance, and where there is one and a sheet, the burn of the account's other instances
/// (one listing of the account, made only for a provider that keeps a balance).
pub fn read(provider: &dyn Provider, sheet: Option<&Sheet>, this_id: &str) -> Read {
    let (balance, error) = match block_on(provider.balance()) {
        Ok(Ok(found)) => (found, None),
        Ok(Err(e)) => (None, Some(e.to_string())),
        Err(f) => (None, Some(f.message)),
    };
    let others = sheet.filter(|_| balance.is_some()).and_then(|sheet| {
        let listed = block_on(provider.instances()).ok()?.ok()?;
        Some(others_burn(
            sheet,
            this_id,
            listed.iter().map(|d| &d.instance),
        ))
    });
    Read {
        balance,
        error,
        others,
    }
}

/// When `balance` runs out at the account's burn (this instance's `burn` and the `others`'),
/// or `None` without a burn or with one in another currency.
pub fn outlook(
    balance: &Balance,
    burn: Option<Money>,
    others: Option<OthersBurn>,
    now: Timestamp,
) -> Option<BalanceOutlook> {
    let burn = Burn::account(burn?, others).ok()?;
    BalanceOutlook::new(balance.clone(), burn, now).ok()
}

impl super::cloud::CloudJson {
    /// Fills the balance fields from what was read at `now`.
    pub fn set_balance(&mut self, read: Read, now: Timestamp) {
        self.balance_error = read.error;
        let Some(balance) = read.balance else {
            return;
        };
        let mut json = BalanceJson::from(&balance);
        if let Some(o) = outlook(&balance, self.burn, read.others, now) {
            json.line = crate::ui::balance::line(&o, now);
            self.balance_runs_out_at = o.runs_out_at.map(|t| t.to_string());
            self.balance_burn_per_hour = Some(BalanceBurnJson {
                amount: o.burn.per_hour.amount.normalize().to_string(),
                currency: o.burn.per_hour.currency.to_string(),
                scope: o.burn.scope,
                uncounted_instances: o.burn.uncounted,
            });
        }
        self.balance = Some(json);
    }
}

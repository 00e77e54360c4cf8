//! The prepaid balance in `status`: what the provider says the account holds, exact, or `null`
//! where it keeps none or could not be read. The balance guard will read the same figure.

use serde::Serialize;

use crate::commands::block_on;
use crate::provider::{Balance, Provider};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BalanceJson {
    /// The exact amount, as a decimal string.
    pub available: String,
    /// Vouchers drawn on first; `null` where the provider does not say.
    pub vouchers: Option<String>,
    pub currency: String,
    /// `available` with its vouchers, for the text output.
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

/// The balance, or why it could not be read (one line, without secrets: the adapter's error).
pub fn read(provider: &dyn Provider) -> (Option<BalanceJson>, Option<String>) {
    match block_on(provider.balance()) {
        Ok(Ok(found)) => (found.as_ref().map(BalanceJson::from), None),
        Ok(Err(e)) => (None, Some(e.to_string())),
        Err(f) => (None, Some(f.message)),
    }
}

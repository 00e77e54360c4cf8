//! A prepaid account's balance, as the provider reports it: what the balance guard
//! (`guard::balance`: when the money runs out at the current burn, thresholds, a floor) reads.
//! It lives beside money, not in `cloud`, so the guard can read it without the two modules
//! importing each other. Clouds that bill a card afterwards have none.

use super::Money;

/// What the account holds, read at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    /// Cash the provider will draw on.
    pub available: Money,
    /// Vouchers the provider draws on before cash; `None` where it does not say.
    pub vouchers: Option<Money>,
}

impl Balance {
    /// `available`, with the vouchers after it where the provider reports any: one line, in
    /// the user's language, for a terminal.
    #[must_use]
    pub fn line(&self) -> String {
        match &self.vouchers {
            Some(v) if !v.amount.is_zero() => crate::t!(
                "balance-with-vouchers",
                available = self.available.to_string(),
                vouchers = v.to_string()
            ),
            _ => self.available.to_string(),
        }
    }
}

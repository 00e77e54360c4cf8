//! The wallet (https://www.autodl.com/docs/common_api/, 获取账户余额): `assets` is the cash
//! balance and `voucher_balance` the vouchers, each an integer that the documentation says to
//! divide by 1000 for yuan ("除以1000等于元"). Scripts that read them as fen (÷100) or as yuan
//! show a balance ten or a thousand times what the account holds.

use rust_decimal::Decimal;
use serde_json::Value;

use crate::money::{Currency, Money};
use crate::provider::Balance;
use crate::provider::bearer::decimal;

/// An amount in thousandths of a yuan as money, exactly.
pub fn yuan_from_thousandths(v: Decimal) -> Money {
    Money::new(v / Decimal::ONE_THOUSAND, Currency::CNY)
}

/// The balance from the wallet's `data`; `None` without `assets`.
pub fn parse(data: &Value) -> Option<Balance> {
    let field = |k| data.get(k).and_then(decimal);
    Some(Balance {
        available: yuan_from_thousandths(field("assets")?),
        vouchers: field("voucher_balance").map(yuan_from_thousandths),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousandths_of_a_yuan_are_read_as_such_not_as_yuan_or_fen() {
        let data =
            serde_json::json!({"assets": 29290, "accumulate": 1000, "voucher_balance": 1500});
        let b = parse(&data).unwrap();
        // 29290 thousandths is 29.29 CNY: not 29,290 (read as yuan), not 292.90 (as fen).
        assert_eq!(
            b.available,
            Money::new(Decimal::new(2929, 2), Currency::CNY)
        );
        assert_eq!(
            b.vouchers,
            Some(Money::new(Decimal::new(15, 1), Currency::CNY))
        );
        assert_eq!(b.line(), "29.29 CNY (vouchers 1.50 CNY)");
        assert_eq!(
            yuan_from_thousandths(Decimal::ONE).amount,
            Decimal::new(1, 3)
        );
        assert_eq!(parse(&serde_json::json!({"voucher_balance": 1})), None);
    }
}

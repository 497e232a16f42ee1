//! A parsed quantity and the canonical text it writes.

use super::decimal::Decimal;
use super::Format;

/// A parsed quantity: its sign, amount and the format it writes itself in.
pub(super) struct Quantity {
    pub(super) negative: bool,
    pub(super) amount: Decimal,
    pub(super) format: Format,
}

impl Quantity {
    /// `CanonicalizeBytes`: no fraction, the largest suffix that loses
    /// nothing; a binary quantity under 1024, or not whole, written as a
    /// decimal one.
    pub(super) fn canonical(self) -> String {
        if self.amount.is_zero() {
            return "0".into();
        }
        let sign = if self.negative { "-" } else { "" };
        let mut format = self.format;
        let mut whole = None;
        if format == Format::BinarySI {
            let mut rounded = self.amount.clone();
            let below_1024 = self.amount.cmp_magnitude(&Decimal::of("1024", 0)).is_lt();
            if below_1024 || !rounded.round_up_to(0) {
                format = Format::DecimalSI;
            } else {
                whole = rounded.as_integer();
            }
        }
        if let (Format::BinarySI, Some(mut value)) = (format, whole) {
            let mut times = 0;
            while value >= 1024 && value % 1024 == 0 {
                value /= 1024;
                times += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                .get(times)
                .copied()
                .unwrap_or("");
            return format!("{sign}{value}{suffix}");
        }
        let mut amount = self.amount.trimmed();
        while amount.exponent % 3 != 0 {
            amount.digits.push(0);
            amount.exponent -= 1;
        }
        let digits: String = amount
            .digits
            .iter()
            .map(|digit| char::from(b'0' + digit))
            .collect();
        let suffix = match format {
            Format::DecimalExponent if amount.exponent == 0 => String::new(),
            Format::DecimalExponent => format!("e{}", amount.exponent),
            // Go has no suffix past 10^18 and writes none (`1000E` is `1`).
            _ => decimal_suffix(amount.exponent).unwrap_or("").to_string(),
        };
        format!("{sign}{digits}{suffix}")
    }
}

fn decimal_suffix(exponent: i64) -> Option<&'static str> {
    Some(match exponent {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => return None,
    })
}

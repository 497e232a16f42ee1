//! Kubernetes quantities (`1`, `500m`, `1Gi`, `1.5e3`) in the text the API
//! server and gitops-engine's typed comparison write them in: apimachinery's
//! `ParseQuantity` followed by `Quantity.String()`
//! (k8s.io/apimachinery/pkg/api/resource/quantity.go), worked out exactly on
//! decimal digits, never with floats. Two quantities that write the same
//! text are equal: `1`, `1000m` and `1.0`; `1Gi` and `1024Mi`; `0.5` and
//! `500m`. The suffix's kind is kept as Kubernetes keeps it, so `1Gi` and
//! `1073741824` write differently, and Argo CD shows them as different.

use crate::value::ValueRef;
use decimal::Decimal;
use parts::{interpret, Parts};
use std::borrow::Cow;
use written::Quantity;

/// The canonical text of a quantity written as a JSON string or number, as
/// `Quantity.UnmarshalJSON` reads it (spaces around it trimmed); none when
/// it is not a quantity.
pub fn canonical_value<'a>(value: impl Into<ValueRef<'a>>) -> Option<Cow<'a, str>> {
    let value = value.into();
    match (value.as_str(), value.as_number()) {
        (Some(text), _) => canonical(text),
        (_, Some(number)) => canonical(&number.to_string()).map(|text| text.into_owned().into()),
        _ => None,
    }
}

/// The text `Quantity.String()` writes for `text` once parsed; none when
/// `ParseQuantity` refuses it. A text already in canonical form is given
/// back as it is, as Go keeps it.
pub fn canonical(text: &str) -> Option<Cow<'_, str>> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text == "0" {
        return Some(Cow::Borrowed(text));
    }
    let parts = Parts::scan(text)?;
    let (base, exponent, format) = interpret(parts.suffix)?;
    if let Some(fast) = fast_path(text, &parts, exponent, format) {
        return Some(fast);
    }
    let quantity = slow_path(&parts, base, exponent, format)?;
    Some(Cow::Owned(quantity.canonical()))
}

/// The three ways Kubernetes writes a quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// `12e6`.
    DecimalExponent,
    /// `12Mi` (12 × 2^20).
    BinarySI,
    /// `12M` (12 × 10^6).
    DecimalSI,
}

/// Nano (10^-9): Kubernetes rounds a finer quantity up to it.
const NANO: i64 = -9;

/// `ParseQuantity`'s path for a quantity that fits in 64 bits at nano
/// precision or coarser: the text itself when Go deems it canonical
/// already, else its canonical text; none when it takes the exact path.
fn fast_path<'t>(
    text: &'t str,
    parts: &Parts,
    exponent: i64,
    format: Format,
) -> Option<Cow<'t, str>> {
    let digits = (parts.whole.len() + parts.fraction.len()) as i64;
    let (mut scale, precision, factor) = match format {
        Format::DecimalExponent | Format::DecimalSI => (exponent, 18 - digits, 1i64),
        Format::BinarySI if parts.fraction.is_empty() => {
            let precision = 15 - parts.whole.len() as i64 - exponent * 3 / 10 - 1;
            (0, precision, 1i64 << exponent)
        }
        Format::BinarySI => (0, -1, 1),
    };
    if precision < 0 {
        return None;
    }
    scale -= parts.fraction.len() as i64;
    if scale < NANO {
        return None;
    }
    let shifted = format!("{}{}", parts.whole, parts.fraction);
    let value: i64 = shifted.parse().ok()?;
    let amount = value.checked_mul(factor)?;
    let reused = match format {
        Format::BinarySI => exponent % 10 == 0 && value & 0x07 != 0,
        _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
    };
    if reused {
        return Some(Cow::Borrowed(text));
    }
    let quantity = Quantity {
        negative: !parts.positive,
        amount: Decimal::of(&amount.unsigned_abs().to_string(), scale),
        format,
    };
    Some(Cow::Owned(quantity.canonical()))
}

/// `ParseQuantity`'s exact path: the number times its suffix, rounded up to
/// nano, a binary quantity capped at 2^63 - 1; none for a number without a
/// digit, which `inf.Dec` does not read.
fn slow_path(parts: &Parts, base: u32, exponent: i64, mut format: Format) -> Option<Quantity> {
    if !parts.has_digits {
        return None;
    }
    let digits = format!("{}{}", parts.whole, parts.fraction);
    let mut amount = Decimal::of(&digits, -(parts.fraction.len() as i64));
    if base == 10 {
        amount.exponent += exponent;
    } else {
        amount.multiply_by_power_of_two(exponent as u32);
    }
    amount.round_up_to(NANO);
    if format == Format::BinarySI {
        let largest = Decimal::of(&i64::MAX.to_string(), 0);
        if amount.cmp_magnitude(&largest).is_gt() {
            amount = largest;
        }
        if !amount.is_zero() && amount.cmp_magnitude(&Decimal::of("1", 0)).is_lt() {
            format = Format::DecimalSI;
        }
    }
    Some(Quantity {
        negative: !parts.positive,
        amount,
        format,
    })
}

mod decimal;
mod parts;
mod written;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(text: &str) -> String {
        canonical(text)
            .unwrap_or_else(|| panic!("{text} is a quantity"))
            .into_owned()
    }

    /// apimachinery's `TestQuantityString` (canonical and alternate forms)
    /// and `TestQuantityParseEmit`.
    #[test]
    fn canonical_texts_as_apimachinery_tests_them() {
        for (alternate, expected) in [
            ("1024Mi", "1Gi"),
            ("307200Ki", "300Mi"),
            ("1025024Mi", "1001Gi"),
            ("1024Gi", "1Ti"),
            ("5000m", "5"),
            ("0.5", "500m"),
            ("1000M", "1G"),
            ("0.001T", "1G"),
            ("1000u", "1m"),
            ("1.08", "1080m"),
            ("1080000000n", "1080m"),
            (".001e12", "1e9"),
            ("0.001e0", "1e-3"),
            ("1000e-12", "1e-9"),
            ("00", "0"),
            ("1Ki", "1Ki"),
            (".001Ki", "1024m"),
            (".000001Ki", "1024u"),
            (".000000001Ki", "1024n"),
            (".000000000001Ki", "2n"),
            ("1.5Gi", "1536Mi"),
            ("1.5", "1500m"),
        ] {
            assert_eq!(written(alternate), expected, "{alternate}");
            assert_eq!(written(expected), expected, "{expected} is canonical");
            if expected != "0" {
                assert_eq!(written(&format!("-{alternate}")), format!("-{expected}"));
            }
        }
    }

    #[test]
    fn rounding_and_capping_as_parse_quantity_does() {
        assert_eq!(written("3.001n"), "4n");
        assert_eq!(written("0.0000000001"), "1n");
        assert_eq!(written("0.00000012345"), "124n");
        assert_eq!(written("9Ei"), "9223372036854775807");
        assert_eq!(written("9223372036854775807Ki"), "9223372036854775807");
        assert_eq!(written("12E"), "12E");
        assert_eq!(written("1.1E-9"), "2e-9");
        assert_eq!(written("0.5Mi"), "512Ki");
        assert_eq!(written("1000E"), "1", "Go writes no suffix past exa");
        assert_eq!(written("1e100"), "10e99");
    }

    #[test]
    fn a_text_go_deems_canonical_is_kept_as_written() {
        assert_eq!(written("1.500"), "1.500");
        assert_eq!(written("100.035k"), "100.035k");
        assert_eq!(written("1E3"), "1E3");
        assert_eq!(written("+1"), "+1");
        assert_eq!(written("1.5"), "1500m");
        assert_eq!(written(" 1 "), "1", "UnmarshalJSON trims spaces");
    }

    #[test]
    fn what_is_not_a_quantity() {
        for text in [
            "",
            ".e-10",
            "-.Pi",
            "1.1.M",
            "1+1.0M",
            "0.1mi",
            "0.1am",
            "aoeu",
            ".5i",
            "1i",
            "-3.01i",
            "-3.01e-",
            "1e",
            "1e99999999999",
            "½",
        ] {
            assert_eq!(canonical(text), None, "{text:?}");
        }
    }

    #[test]
    fn numbers_read_as_quantities() {
        assert_eq!(canonical_value(&json!(1)).as_deref(), Some("1"));
        assert_eq!(canonical_value(&json!(0.5)).as_deref(), Some("500m"));
        assert_eq!(canonical_value(&json!(1000)).as_deref(), Some("1k"));
        assert_eq!(canonical_value(&json!(true)), None);
    }
}

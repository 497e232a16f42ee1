//! Kubernetes quantities (`1`, `500m`, `1Gi`, `1.5e3`) in the text the API
//! server and gitops-engine's typed comparison write them in: apimachinery's
//! `ParseQuantity` followed by `Quantity.String()`
//! (k8s.io/apimachinery/pkg/api/resource/quantity.go), worked out exactly on
//! decimal digits, never with floats. Two quantities that write the same
//! text are equal: `1`, `1000m` and `1.0`; `1Gi` and `1024Mi`; `0.5` and
//! `500m`. The suffix's kind is kept as Kubernetes keeps it, so `1Gi` and
//! `1073741824` write differently, and Argo CD shows them as different.

use crate::value::ValueRef;
use std::borrow::Cow;

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

/// A quantity's text cut as `parseQuantityString` cuts it.
struct Parts<'t> {
    positive: bool,
    /// The whole part without its leading zeros; "0" when none is left.
    whole: &'t str,
    /// The digits after the point.
    fraction: &'t str,
    /// Whether the number has a digit at all (`.` alone has none).
    has_digits: bool,
    suffix: &'t str,
}

impl<'t> Parts<'t> {
    /// `parseQuantityString`: a sign, digits, a point and digits, then the
    /// suffix (letters of `eEinumkKMGTP`, a sign, digits). A text that ends
    /// early is a number without a suffix.
    fn scan(text: &'t str) -> Option<Parts<'t>> {
        let bytes = text.as_bytes();
        let end = bytes.len();
        let mut pos = 0;
        let mut positive = true;
        match bytes.first() {
            Some(b'-') => {
                positive = false;
                pos += 1;
            }
            Some(b'+') => pos += 1,
            _ => {}
        }
        let ended = |whole, fraction| Parts {
            positive,
            whole,
            fraction,
            has_digits: true,
            suffix: "",
        };
        let zeros_start = pos;
        while pos < end && bytes[pos] == b'0' {
            pos += 1;
        }
        let leading_zeros = pos > zeros_start;
        if pos >= end {
            return Some(ended("0", ""));
        }
        let start = pos;
        pos += count_digits(&bytes[pos..]);
        if pos >= end {
            return Some(ended(&text[start..], ""));
        }
        let whole = match &text[start..pos] {
            "" => "0",
            digits => digits,
        };
        let mut fraction = "";
        if bytes[pos] == b'.' {
            pos += 1;
            let start = pos;
            pos += count_digits(&bytes[pos..]);
            if pos >= end {
                return Some(ended(whole, &text[start..]));
            }
            fraction = &text[start..pos];
        }
        let suffix_start = pos;
        while pos < end && b"eEinumkKMGTP".contains(&bytes[pos]) {
            pos += 1;
        }
        if pos < end && matches!(bytes[pos], b'-' | b'+') {
            pos += 1;
        }
        pos += count_digits(&bytes[pos..]);
        (pos >= end).then_some(Parts {
            positive,
            whole,
            fraction,
            has_digits: leading_zeros || whole != "0" || !fraction.is_empty(),
            suffix: &text[suffix_start..],
        })
    }
}

fn count_digits(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count()
}

/// Exponents beyond this are refused: Go would wrap them around in 32 bits.
const LARGEST_EXPONENT: i64 = 1_000_000_000;

/// `quantitySuffixer.interpret`: the base, the exponent and the format of a
/// suffix (`Mi` is 2^20, `m` is 10^-3, `e3` is 10^3).
fn interpret(suffix: &str) -> Option<(u32, i64, Format)> {
    let decimal = |exponent| Some((10, exponent, Format::DecimalSI));
    let binary = |exponent| Some((2, exponent, Format::BinarySI));
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        _ => {
            let exponent = suffix
                .strip_prefix(['e', 'E'])
                .filter(|digits| !digits.is_empty())?;
            let exponent: i64 = exponent.parse().ok()?;
            (exponent.abs() <= LARGEST_EXPONENT).then_some((10, exponent, Format::DecimalExponent))
        }
    }
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

/// An exact non-negative decimal: `digits` × 10^`exponent`, the digits
/// without leading zeros (none for zero).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decimal {
    digits: Vec<u8>,
    exponent: i64,
}

impl Decimal {
    fn of(digits: &str, exponent: i64) -> Decimal {
        let digits: Vec<u8> = digits
            .bytes()
            .skip_while(|byte| *byte == b'0')
            .map(|byte| byte - b'0')
            .collect();
        Decimal { digits, exponent }
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    fn multiply_by_power_of_two(&mut self, power: u32) {
        let factor = 1u128 << power;
        let mut carry = 0u128;
        for digit in self.digits.iter_mut().rev() {
            let product = u128::from(*digit) * factor + carry;
            *digit = (product % 10) as u8;
            carry = product / 10;
        }
        let mut front = Vec::new();
        while carry > 0 {
            front.push((carry % 10) as u8);
            carry /= 10;
        }
        front.reverse();
        front.append(&mut self.digits);
        self.digits = front;
    }

    /// Rounds up (away from zero) to a multiple of 10^`exponent`; whether
    /// nothing was lost.
    fn round_up_to(&mut self, exponent: i64) -> bool {
        if self.is_zero() || self.exponent >= exponent {
            return true;
        }
        let dropped = exponent - self.exponent;
        let kept = self.digits.len() as i64 - dropped;
        self.exponent = exponent;
        if kept <= 0 {
            self.digits = vec![1];
            return false;
        }
        let lost = self.digits.split_off(kept as usize);
        let exact = lost.iter().all(|digit| *digit == 0);
        if !exact {
            self.add_one();
        }
        exact
    }

    fn add_one(&mut self) {
        for digit in self.digits.iter_mut().rev() {
            if *digit < 9 {
                *digit += 1;
                return;
            }
            *digit = 0;
        }
        self.digits.insert(0, 1);
    }

    /// The same value with its trailing zeros moved into the exponent.
    fn trimmed(mut self) -> Decimal {
        while self.digits.last() == Some(&0) {
            self.digits.pop();
            self.exponent += 1;
        }
        self
    }

    fn cmp_magnitude(&self, other: &Decimal) -> std::cmp::Ordering {
        let (a, b) = (self.clone().trimmed(), other.clone().trimmed());
        match (a.is_zero(), b.is_zero()) {
            (true, true) => return std::cmp::Ordering::Equal,
            (true, false) => return std::cmp::Ordering::Less,
            (false, true) => return std::cmp::Ordering::Greater,
            (false, false) => {}
        }
        let top = |d: &Decimal| d.digits.len() as i64 + d.exponent;
        top(&a).cmp(&top(&b)).then_with(|| a.digits.cmp(&b.digits))
    }

    /// The value as an integer, when it is one and fits in 64 bits.
    fn as_integer(&self) -> Option<u64> {
        let trimmed = self.clone().trimmed();
        if trimmed.is_zero() {
            return Some(0);
        }
        if trimmed.exponent < 0 || trimmed.digits.len() as i64 + trimmed.exponent > 20 {
            return None;
        }
        let mut value = 0u64;
        for digit in &trimmed.digits {
            value = value.checked_mul(10)?.checked_add(u64::from(*digit))?;
        }
        for _ in 0..trimmed.exponent {
            value = value.checked_mul(10)?;
        }
        Some(value)
    }
}

/// A parsed quantity: its sign, amount and the format it writes itself in.
struct Quantity {
    negative: bool,
    amount: Decimal,
    format: Format,
}

impl Quantity {
    /// `CanonicalizeBytes`: no fraction, the largest suffix that loses
    /// nothing; a binary quantity under 1024, or not whole, written as a
    /// decimal one.
    fn canonical(self) -> String {
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

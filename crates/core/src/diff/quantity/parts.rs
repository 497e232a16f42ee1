//! A quantity's text cut into its number and suffix, and what its suffix
//! means.

use super::Format;

/// A quantity's text cut as `parseQuantityString` cuts it.
pub(super) struct Parts<'t> {
    pub(super) positive: bool,
    /// The whole part without its leading zeros; "0" when none is left.
    pub(super) whole: &'t str,
    /// The digits after the point.
    pub(super) fraction: &'t str,
    /// Whether the number has a digit at all (`.` alone has none).
    pub(super) has_digits: bool,
    pub(super) suffix: &'t str,
}

impl<'t> Parts<'t> {
    /// `parseQuantityString`: a sign, digits, a point and digits, then the
    /// suffix (letters of `eEinumkKMGTP`, a sign, digits). A text that ends
    /// early is a number without a suffix.
    pub(super) fn scan(text: &'t str) -> Option<Parts<'t>> {
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
pub(super) fn interpret(suffix: &str) -> Option<(u32, i64, Format)> {
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

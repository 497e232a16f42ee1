//! A plain (unquoted) scalar read as Kubernetes reads it: null, a boolean,
//! a number as the JSON panes read one, or text.

use serde_json::{Number, Value};

/// An unquoted scalar: null, a boolean, a number, or text; a number too
/// large for a 64-bit float is an error, as in JSON.
pub(super) fn plain_scalar(text: &str) -> Result<Value, String> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
            return Ok(Value::Bool(true))
        }
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            return Ok(Value::Bool(false))
        }
        _ => {}
    }
    // Rust's integer parsers take a sign of their own, which YAML does not
    // allow after a prefix or a sign (`0x+1`, `++1`).
    let unsigned = |digits: &str| digits.starts_with(|first: char| first.is_ascii_alphanumeric());
    let radix = |prefix: &str, radix: u32| {
        text.strip_prefix(prefix)
            .filter(|digits| unsigned(digits))
            .and_then(|digits| u64::from_str_radix(digits, radix).ok())
    };
    if let Some(number) = radix("0x", 16).or_else(|| radix("0o", 8)) {
        return Ok(number.into());
    }
    if let Ok(number) = text.parse::<i64>() {
        return Ok(number.into());
    }
    let after_sign = text.strip_prefix('+').unwrap_or(text);
    if let Some(number) = Some(after_sign).filter(|digits| unsigned(digits)).and_then(|digits| digits.parse::<u64>().ok()) {
        return Ok(number.into());
    }
    let looks_numeric = text.bytes().any(|b| b.is_ascii_digit())
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    if !looks_numeric {
        return Ok(Value::String(text.to_owned()));
    }
    // Read as the JSON panes read numbers, so that a value means the same in either.
    match serde_json::from_str::<f64>(&as_json_number(text)) {
        Ok(number) => Ok(Number::from_f64(number).map_or(Value::Null, Value::Number)),
        Err(error) if error.to_string().starts_with("number out of range") => Err(format!(
            "the number {text} is out of range of a 64-bit float; quote it to keep it as text"
        )),
        Err(_) => Ok(Value::String(text.to_owned())),
    }
}

/// A YAML float (`+1.5`, `.5`, `1.`, `007.5`, `1e3`) written as JSON writes it
/// (`1.5`, `0.5`, `1.0`, `7.5`, `1.0e3`); what is no float stays no JSON number.
fn as_json_number(text: &str) -> String {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.strip_prefix('+').unwrap_or(text)),
    };
    let (mantissa, exponent) = rest.split_at(rest.find(['e', 'E']).unwrap_or(rest.len()));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if !digits(whole) || !digits(fraction) {
        return text.to_owned();
    }
    let whole = match whole.trim_start_matches('0') {
        "" if whole.is_empty() && fraction.is_empty() => "",
        "" => "0",
        whole => whole,
    };
    let fraction = if fraction.is_empty() { "0" } else { fraction };
    format!("{sign}{whole}.{fraction}{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_floats_read_as_the_json_panes_read_them() {
        for (text, expected) in [
            ("+1.5", 1.5),
            (".5", 0.5),
            ("-.5", -0.5),
            ("1.", 1.0),
            ("007.5", 7.5),
            ("1e3", 1000.0),
            ("2.5E-1", 0.25),
            ("0.1", 0.1),
        ] {
            assert_eq!(plain_scalar(text), Ok(json!(expected)), "{text}");
        }
        for text in ["1.2.3", "1e", "-e5", "1e5e", "1-2"] {
            assert_eq!(plain_scalar(text), Ok(json!(text)), "{text} is text");
        }
        assert!(plain_scalar("1e400").unwrap_err().contains("out of range"));
    }
}

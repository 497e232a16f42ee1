//! Durations as the tools write them (Argo CD's and Flux's: a whole number of
//! seconds, or a Go duration such as `5m` or `1h30m`), and the world's steps:
//! the world has no clock, a step stands for a minute.

/// Argo CD's `parseStringToDuration`: a whole number is seconds, anything
/// else a Go duration (`time.ParseDuration`).
pub fn seconds(text: &str) -> Result<f64, String> {
    if let Ok(whole) = text.parse::<i64>() {
        return Ok(whole as f64);
    }
    go_duration(text).ok_or_else(|| format!("unable to parse {text} as a duration"))
}

/// `time.ParseDuration`: an optional sign, then numbers (decimals allowed),
/// each with a unit (ns, us, µs, ms, s, m, h), as `1h30m` or `2.5s`.
fn go_duration(text: &str) -> Option<f64> {
    let (sign, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Some(0.0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total = 0.0;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_end);
        if number.is_empty() || number == "." {
            return None;
        }
        let number = go_decimal(number)?;
        let unit_end = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_end);
        let scale = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        total += number * scale;
        rest = after;
    }
    Some(sign * total)
}

/// A duration's number as Go reads it (`leadingInt`, then `leadingFraction`):
/// digits, then at most one `.` and digits, which need not both be there.
fn go_decimal(number: &str) -> Option<f64> {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if fraction.contains('.') {
        return None;
    }
    let whole = match whole {
        "" => 0.0,
        digits => digits.parse::<u64>().ok()? as f64,
    };
    let (mut part, mut scale) = (0.0, 1.0);
    for digit in fraction.bytes() {
        part = part * 10.0 + f64::from(digit - b'0');
        scale *= 10.0;
    }
    Some(whole + part / scale)
}

/// The seconds a step of the world stands for.
pub const SECONDS_PER_STEP: f64 = 60.0;

/// The steps a wait of `seconds` takes: the first step at least that long after.
pub fn steps_for(seconds: f64) -> u32 {
    let steps = (seconds / SECONDS_PER_STEP).ceil();
    if steps.is_nan() || steps <= 0.0 {
        0
    } else if steps >= f64::from(u32::MAX) {
        u32::MAX
    } else {
        steps as u32
    }
}


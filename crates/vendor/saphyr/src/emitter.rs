//! YAML serialization helpers.

use alloc::format;
use core::fmt;

use ordered_float::FloatCore;
use thiserror::Error;

use crate::{
    Scalar, char_traits,
    yaml::{Mapping, Yaml},
};

/// An error when emitting YAML.
#[derive(Copy, Clone, Debug, Error)]
pub enum EmitError {
    /// A formatting error.
    #[error("{0}")]
    FmtError(#[from] fmt::Error),
}

/// The YAML serializer.
///
/// ```
/// # use saphyr::{LoadableYamlNode, Yaml, YamlEmitter};
/// let input_string = "a: b\nc: d";
/// let yaml = Yaml::load_from_str(input_string).unwrap();
///
/// let mut output = String::new();
/// YamlEmitter::new(&mut output).dump(&yaml[0]).unwrap();
///
/// assert_eq!(output, r#"---
/// a: b
/// c: d"#);
/// ```
#[allow(clippy::module_name_repetitions)]
pub struct YamlEmitter<'a> {
    writer: &'a mut dyn fmt::Write,
    best_indent: usize,
    compact: bool,
    level: isize,
    multiline: bool,
    quoted_value: bool,
    /// Set when a literal block has just written the line break after its last line, which the
    /// next node must not write again.
    final_line_break: Option<Chomping>,
}

/// The chomping of a literal block that ends with a line break.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomping {
    /// Only the final line break is part of the value.
    Clip,
    /// All the trailing line breaks are part of the value, and so would be text after them.
    Keep,
}

/// A convenience alias for emitter functions that may fail without returning a value.
pub type EmitResult = Result<(), EmitError>;

// from serialize::json
fn escape_str(wr: &mut dyn fmt::Write, v: &str) -> Result<(), fmt::Error> {
    wr.write_str("\"")?;

    let bytes = v.as_bytes();
    let mut start = 0;

    while start < bytes.len() {
        let Some(i) = bytes[start..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'\\' | b'\x00'..=b'\x1f' | b'\x7f'))
        else {
            wr.write_str(&v[start..])?;
            break;
        };

        let i = start + i;

        if start < i {
            wr.write_str(&v[start..i])?;
        }

        let escaped = match bytes[i] {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\x00' => "\\u0000",
            b'\x01' => "\\u0001",
            b'\x02' => "\\u0002",
            b'\x03' => "\\u0003",
            b'\x04' => "\\u0004",
            b'\x05' => "\\u0005",
            b'\x06' => "\\u0006",
            b'\x07' => "\\u0007",
            b'\x08' => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            b'\x0b' => "\\u000b",
            b'\x0c' => "\\f",
            b'\r' => "\\r",
            b'\x0e' => "\\u000e",
            b'\x0f' => "\\u000f",
            b'\x10' => "\\u0010",
            b'\x11' => "\\u0011",
            b'\x12' => "\\u0012",
            b'\x13' => "\\u0013",
            b'\x14' => "\\u0014",
            b'\x15' => "\\u0015",
            b'\x16' => "\\u0016",
            b'\x17' => "\\u0017",
            b'\x18' => "\\u0018",
            b'\x19' => "\\u0019",
            b'\x1a' => "\\u001a",
            b'\x1b' => "\\u001b",
            b'\x1c' => "\\u001c",
            b'\x1d' => "\\u001d",
            b'\x1e' => "\\u001e",
            b'\x1f' => "\\u001f",
            b'\x7f' => "\\u007f",
            _ => unreachable!(),
        };

        wr.write_str(escaped)?;
        start = i + 1;
    }

    wr.write_str("\"")?;
    Ok(())
}

impl<'a> YamlEmitter<'a> {
    /// Create a new emitter serializing into `writer`.
    pub fn new(writer: &'a mut dyn fmt::Write) -> Self {
        YamlEmitter {
            writer,
            best_indent: 2,
            compact: true,
            level: -1,
            multiline: false,
            quoted_value: false,
            final_line_break: None,
        }
    }

    /// Set 'compact inline notation' on or off, as described for block
    /// [sequences](http://www.yaml.org/spec/1.2/spec.html#id2797382)
    /// and
    /// [mappings](http://www.yaml.org/spec/1.2/spec.html#id2798057).
    ///
    /// In this form, blocks cannot have any properties (such as anchors
    /// or tags), which should be OK, because this emitter doesn't
    /// (currently) emit those anyways.
    ///
    /// TODO(ethiraric, 2024/04/02): We can support those now.
    pub fn compact(&mut self, compact: bool) {
        self.compact = compact;
    }

    /// Determine if this emitter is using 'compact inline notation'.
    #[must_use]
    pub fn is_compact(&self) -> bool {
        self.compact
    }

    /// Render strings containing multiple lines in [literal style].
    ///
    /// # Examples
    ///
    /// ```rust
    /// use saphyr::{LoadableYamlNode, Yaml, YamlEmitter};
    ///
    /// let input = r#"{foo: "bar!\nbar!", baz: 42}"#;
    /// let parsed = Yaml::load_from_str(input).unwrap();
    /// eprintln!("{:?}", parsed);
    ///
    /// let mut output = String::new();
    /// let mut emitter = YamlEmitter::new(&mut output);
    /// emitter.multiline(true);
    /// emitter.dump(&parsed[0]).unwrap();
    /// assert_eq!(output.as_str(), "\
    /// ---
    /// foo: |-
    ///   bar!
    ///   bar!
    /// baz: 42");
    /// ```
    ///
    /// [literal style]: https://yaml.org/spec/1.2/spec.html#id2795688
    pub fn multiline(&mut self, multiline: bool) {
        self.multiline = multiline;
    }

    /// Determine if this emitter will emit multiline strings when appropriate.
    #[must_use]
    pub fn is_multiline(&self) -> bool {
        self.multiline
    }

    /// Quote semantic string values with double quotes.
    ///
    /// This option applies to root strings, sequence items, tagged strings, and mapping values.
    /// It does not apply to mapping keys or explicit [`Yaml::Representation`] nodes. It takes
    /// precedence over [`Self::multiline`].
    pub fn quoted_value(&mut self, quoted_value: bool) {
        self.quoted_value = quoted_value;
    }

    /// Determine if this emitter quotes semantic string values.
    #[must_use]
    pub fn is_quoted_value(&self) -> bool {
        self.quoted_value
    }

    /// Dump Yaml to an output stream.
    /// # Errors
    /// Returns `EmitError` when an error occurs.
    pub fn dump(&mut self, doc: &Yaml) -> EmitResult {
        // write DocumentStart
        writeln!(self.writer, "---")?;
        self.level = -1;
        self.final_line_break = None;
        self.emit_node(doc)?;
        if self.final_line_break == Some(Chomping::Keep) {
            // Text after the block would be part of it, so end the document.
            self.writer.write_str("...")?;
        }
        Ok(())
    }

    /// Start a new line, unless a literal block has just written its final line break.
    fn write_line_break(&mut self) -> EmitResult {
        if self.final_line_break.take().is_none() {
            writeln!(self.writer)?;
        }
        Ok(())
    }

    fn write_indent(&mut self) -> EmitResult {
        if self.level <= 0 {
            return Ok(());
        }
        for _ in 0..self.level {
            for _ in 0..self.best_indent {
                write!(self.writer, " ")?;
            }
        }
        Ok(())
    }

    fn emit_node(&mut self, node: &Yaml) -> EmitResult {
        self.emit_node_with_options(node, self.multiline, self.quoted_value)
    }

    fn emit_node_with_options(
        &mut self,
        node: &Yaml,
        allow_multiline: bool,
        quoted_value: bool,
    ) -> EmitResult {
        match *node {
            Yaml::Sequence(ref v) => self.emit_sequence(v, quoted_value),
            Yaml::Mapping(ref h) => self.emit_mapping(h, quoted_value),
            Yaml::Value(Scalar::String(ref v)) => {
                if quoted_value {
                    escape_str(self.writer, v)?;
                } else if allow_multiline && self.should_emit_string_as_block(v) {
                    self.emit_literal_block(v)?;
                } else if need_quotes(v) {
                    escape_str(self.writer, v)?;
                } else {
                    write!(self.writer, "{v}")?;
                }
                Ok(())
            }
            Yaml::Value(Scalar::Boolean(v)) => {
                if v {
                    self.writer.write_str("true")?;
                } else {
                    self.writer.write_str("false")?;
                }
                Ok(())
            }
            Yaml::Value(Scalar::Integer(v)) => Ok(write!(self.writer, "{v}")?),
            Yaml::Value(Scalar::FloatingPoint(ref v)) if v.is_nan() => {
                Ok(write!(self.writer, ".nan")?)
            }
            Yaml::Value(Scalar::FloatingPoint(ref v)) if v.is_infinite() => Ok(write!(
                self.writer,
                "{}.inf",
                if v.is_sign_negative() { "-" } else { "" }
            )?),
            Yaml::Value(Scalar::FloatingPoint(ref v)) => Ok(write!(
                self.writer,
                "{v}{}",
                if v.fract() == 0.0 { ".0" } else { "" }
            )?),
            Yaml::Value(Scalar::Null) | Yaml::BadValue => Ok(write!(self.writer, "~")?),
            Yaml::Representation(ref v, style, ref tag) => {
                if let Some(tag) = tag {
                    write!(self.writer, "{} ", tag.as_ref())?;
                }
                match style {
                    saphyr_parser::ScalarStyle::Plain => write!(self.writer, "{v}")?,
                    saphyr_parser::ScalarStyle::SingleQuoted => write!(self.writer, "'{v}'")?,
                    saphyr_parser::ScalarStyle::DoubleQuoted => write!(self.writer, "\"{v}\"")?,
                    saphyr_parser::ScalarStyle::Literal => todo!(),
                    saphyr_parser::ScalarStyle::Folded => todo!(),
                }
                Ok(())
            }
            Yaml::Tagged(ref tag, ref node) => {
                write!(self.writer, "{} ", tag.as_ref())?;
                // We need to insert a newline after the tag in the following cases:
                //   - We have a non-empty sequence or mapping. `emit_sequence` and `emit_mapping`
                //     do not add that extra newline at the beginning.
                //       foo: !tag {} // OK
                //       ---
                //       foo: !tag [] // OK
                //       ---
                //       foo: !tag bar: baz // KO
                //       ---
                //       foo: !tag // OK
                //         bar: baz
                //       ---
                //       foo: !tag - a // OK
                //       ---
                //       foo: !tag - a // KO
                //         - b
                //       ---
                //       foo: !tag // OK
                //         - a
                //         - b
                if node.is_non_empty_collection() {
                    self.level += 1;
                    writeln!(self.writer)?;
                    self.write_indent()?;
                    self.level -= 1;
                }
                self.emit_node_with_options(node.as_ref(), allow_multiline, quoted_value)
            }
            // XXX(chenyh) Alias
            Yaml::Alias(_) => Ok(()),
        }
    }

    fn emit_literal_block(&mut self, v: &str) -> EmitResult {
        let needs_indent_indicator = v.trim_start_matches('\n').starts_with([' ', '\t']);
        let trailing_line_breaks = v.len() - v.trim_end_matches('\n').len();
        // Clip chomping keeps one final line break, keep chomping keeps all of them.
        let keep = trailing_line_breaks > 1;
        let header = if keep {
            "|+"
        } else if trailing_line_breaks == 1 {
            "|"
        } else {
            "|-"
        };
        if needs_indent_indicator {
            self.writer
                .write_str(&format!("|{}{}", self.best_indent, &header[1..]))?;
        } else {
            self.writer.write_str(header)?;
        }

        let previous_level = self.level;
        self.level += 1;
        if self.level == 0 && (needs_indent_indicator || has_document_marker_line(v)) {
            // At root, write_indent() emits none; |2 needs two spaces to preserve
            // leading scalar whitespace, and a line starting with `---` or `...` would end
            // the document.
            self.level = 1;
        }
        // lines() will omit the last line if it is empty.
        for line in v.lines() {
            writeln!(self.writer)?;
            self.write_indent()?;
            // It's literal text, so don't escape special chars.
            self.writer.write_str(line)?;
        }
        if trailing_line_breaks > 0 {
            // The final line break is part of the value. Write it here, since no node follows
            // the block at the end of the document.
            writeln!(self.writer)?;
            self.final_line_break = Some(if keep { Chomping::Keep } else { Chomping::Clip });
        }
        self.level = previous_level;
        Ok(())
    }

    fn emit_sequence(&mut self, v: &[Yaml], quoted_value: bool) -> EmitResult {
        if v.is_empty() {
            write!(self.writer, "[]")?;
        } else {
            self.level += 1;
            for (cnt, x) in v.iter().enumerate() {
                if cnt > 0 {
                    self.write_line_break()?;
                    self.write_indent()?;
                }
                write!(self.writer, "-")?;
                self.emit_val(true, x, quoted_value)?;
            }
            self.level -= 1;
        }
        Ok(())
    }

    fn emit_mapping(&mut self, h: &Mapping, quoted_value: bool) -> EmitResult {
        if h.is_empty() {
            self.writer.write_str("{}")?;
        } else {
            self.level += 1;
            for (cnt, (k, v)) in h.iter().enumerate() {
                let complex_key = matches!(k, Yaml::Mapping(_) | Yaml::Sequence(_));
                if cnt > 0 {
                    self.write_line_break()?;
                    self.write_indent()?;
                }
                if complex_key {
                    write!(self.writer, "?")?;
                    self.emit_val(true, k, false)?;
                    self.write_line_break()?;
                    self.write_indent()?;
                    write!(self.writer, ":")?;
                    self.emit_val(true, v, quoted_value)?;
                } else {
                    // A literal block cannot be used as an implicit key, so multiline keys are
                    // always written as quoted strings.
                    self.emit_node_with_options(k, false, false)?;
                    write!(self.writer, ":")?;
                    self.emit_val(false, v, quoted_value)?;
                }
            }
            self.level -= 1;
        }
        Ok(())
    }

    /// Emit a yaml as a hash or array value: i.e., which should appear
    /// following a ":" or "-", either after a space, or on a new line.
    /// If `inline` is true, then the preceding characters are distinct
    /// and short enough to respect the compact flag.
    fn emit_val(&mut self, inline: bool, val: &Yaml, quoted_value: bool) -> EmitResult {
        match *val {
            Yaml::Sequence(ref v) => {
                if (inline && self.compact) || v.is_empty() {
                    write!(self.writer, " ")?;
                } else {
                    writeln!(self.writer)?;
                    self.level += 1;
                    self.write_indent()?;
                    self.level -= 1;
                }
                self.emit_sequence(v, quoted_value)
            }
            Yaml::Mapping(ref h) => {
                if (inline && self.compact) || h.is_empty() {
                    write!(self.writer, " ")?;
                } else {
                    writeln!(self.writer)?;
                    self.level += 1;
                    self.write_indent()?;
                    self.level -= 1;
                }
                self.emit_mapping(h, quoted_value)
            }
            _ => {
                write!(self.writer, " ")?;
                self.emit_node_with_options(val, self.multiline, quoted_value)
            }
        }
    }

    /// Check whether the string should be emitted as a literal block.
    ///
    /// This takes into account the [`multiline`] option and whether the string contains
    /// newlines. A string made only of newlines has no line of text, so it is quoted.
    ///
    /// [`multiline`]: Self::multiline.
    #[must_use]
    fn should_emit_string_as_block(&self, s: &str) -> bool {
        self.multiline
            && s.contains('\n')
            && !s.trim_start_matches('\n').is_empty()
            && char_traits::is_valid_literal_block_scalar(s)
    }
}

/// Check whether a line of the string would be a document marker (`---` or `...` followed by a
/// space, a tab or the end of the line) if it were written without indentation.
fn has_document_marker_line(s: &str) -> bool {
    let is_marker = |start: usize| {
        let line = &s.as_bytes()[start..];
        (line.starts_with(b"---") || line.starts_with(b"..."))
            && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\n'))
    };
    // Most strings contain neither "\n---" nor "\n...", which `contains` finds out quickly.
    is_marker(0)
        || ["\n---", "\n..."].into_iter().any(|marker| {
            s.contains(marker) && s.match_indices(marker).any(|(i, _)| is_marker(i + 1))
        })
}

/// Check if the string requires quoting.
/// Strings starting with any of the following characters must be quoted.
/// :, &, *, ?, |, -, <, >, =, !, %, @
/// Strings containing any of the following characters must be quoted.
/// {, }, \[, t \], ,, #, `
///
/// If the string contains any of the following control characters, it must be escaped with double quotes:
/// \0, \x01, \x02, \x03, \x04, \x05, \x06, \a, \b, \t, \n, \v, \f, \r, \x0e, \x0f, \x10, \x11, \x12, \x13, \x14, \x15, \x16, \x17, \x18, \x19, \x1a, \e, \x1c, \x1d, \x1e, \x1f, \N, \_, \L, \P
///
/// Finally, there are other cases when the strings must be quoted, no matter if you're using single or double quotes:
/// * When the string is true or false (otherwise, it would be treated as a boolean value);
/// * When the string is null or ~ (otherwise, it would be considered as a null value);
/// * When the string looks like a number, such as integers (e.g. 2, 14, etc.), floats (e.g. 2.6, 14.9) and exponential numbers (e.g. 12e7, etc.) (otherwise, it would be treated as a numeric value);
/// * When the string looks like a date (e.g. 2014-12-31) (otherwise it would be automatically converted into a Unix timestamp).
#[allow(clippy::doc_markdown)]
/// Whether `str::parse::<f64>` would read `string`, by the grammar of `f64::from_str`:
/// a sign, then `inf`, `infinity` or `nan` (any case), or digits with at most one `.`
/// and at least one digit, then an optional exponent `e` (any case), a sign and digits.
/// Calling the parser itself would link all of it, and its tables, for this yes or no.
fn reads_as_f64(string: &str) -> bool {
    let unsigned = string.strip_prefix(['+', '-']).unwrap_or(string);
    if ["inf", "infinity", "nan"]
        .iter()
        .any(|word| unsigned.eq_ignore_ascii_case(word))
    {
        return true;
    }
    let digits = |text: &str| text.bytes().all(|byte| byte.is_ascii_digit());
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mantissa_reads = digits(whole) && digits(fraction) && whole.len() + fraction.len() > 0;
    let exponent_reads = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        !exponent.is_empty() && digits(exponent)
    });
    mantissa_reads && exponent_reads
}

fn need_quotes(string: &str) -> bool {
    fn need_quotes_spaces(string: &str) -> bool {
        string.starts_with(' ') || string.ends_with(' ')
    }

    string.is_empty()
        || need_quotes_spaces(string)
        || string.starts_with(|character: char| {
            matches!(
                character,
                '&' | '*' | '?' | '|' | '-' | '<' | '>' | '=' | '!' | '%' | '@'
            )
        })
        || string.contains(|character: char| {
            matches!(
                character,
                '\0'..='\x1f'
                    | ':'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | ','
                    | '#'
                    | '`'
                    | '\"'
                    | '\''
                    | '\\'
                    | '\x7f'
                    | '\u{feff}'
            )
        })
        || [
            // http://yaml.org/type/bool.html
            // Note: 'y', 'Y', 'n', 'N', is not quoted deliberately, as in libyaml. PyYAML also parse
            // them as string, not booleans, although it is violating the YAML 1.1 specification.
            // See https://github.com/dtolnay/serde-yaml/pull/83#discussion_r152628088.
            "yes", "Yes", "YES", "no", "No", "NO", "True", "TRUE", "true", "False", "FALSE",
            "false", "on", "On", "ON", "off", "Off", "OFF",
            // http://yaml.org/type/null.html
            "null", "Null", "NULL", "~",
        ]
        .contains(&string)
        || string.starts_with('.')
        || string.starts_with("+.")
        || string.starts_with("0x")
        || string.starts_with("0o")
        || string.parse::<i64>().is_ok()
        || reads_as_f64(string)
}

#[cfg(test)]
mod test {
    use alloc::{string::String, vec::Vec};
    use core::fmt;

    use crate::{LoadableYamlNode, Yaml, YamlEmitter};

    #[test]
    fn test_literal_block_header_single_write() {
        #[derive(Default)]
        struct RecordingWriter {
            writes: Vec<String>,
        }

        impl fmt::Write for RecordingWriter {
            fn write_str(&mut self, value: &str) -> fmt::Result {
                self.writes.push(value.into());
                Ok(())
            }
        }

        for (value, header) in [
            ("first\nsecond\n", "|"),
            ("first\nsecond", "|-"),
            (" first\nsecond\n", "|2"),
            (" first\nsecond", "|2-"),
            ("\n first\nsecond", "|2-"),
            ("\tfirst\nsecond\n", "|2"),
            ("first\n\n", "|+"),
            ("\n first\n\n", "|2+"),
        ] {
            let mut writer = RecordingWriter::default();
            YamlEmitter::new(&mut writer)
                .emit_literal_block(value)
                .unwrap();
            assert_eq!(writer.writes[0], header);
            assert_eq!(writer.writes[1], "\n");
        }
    }

    #[test]
    fn test_control_characters_are_quoted() {
        // Plain scalars cannot hold these characters (YAML 1.2, c-printable),
        // so they must be emitted as escapes inside double quotes.
        for (input, expected) in [
            ("a\x07b", "\"a\\u0007b\""),
            ("a\x08b", "\"a\\bb\""),
            ("a\x0bb", "\"a\\u000bb\""),
            ("a\x0cb", "\"a\\fb\""),
            ("a\x1bb", "\"a\\u001bb\""),
            ("a\x7fb", "\"a\\u007fb\""),
            // BOMs inside documents may only appear within quoted scalars (YAML 1.2.2, 5.2)
            ("a\u{feff}b", "\"a\u{feff}b\""),
        ] {
            let yaml = Yaml::Value(crate::Scalar::String(input.into()));
            let mut output = String::new();
            YamlEmitter::new(&mut output).dump(&yaml).unwrap();
            assert_eq!(output, alloc::format!("---\n{expected}"), "input {input:?}");
            assert_eq!(
                Yaml::load_from_str(&output).unwrap()[0],
                yaml,
                "input {input:?}"
            );
        }
    }

    #[test]
    fn test_multiline() {
        let input = r#"{foo: "bar!\nbar!", baz: 42}"#;
        let parsed = Yaml::load_from_str(input).unwrap();
        let mut output = String::new();
        let mut emitter = YamlEmitter::new(&mut output);
        emitter.multiline(true);
        emitter.dump(&parsed[0]).unwrap();
    }
}

//! The colours of a line of JSON or YAML: keys, strings, numbers, the literals
//! (`true`, `false`, `null` and YAML's like them) and comments. A line is read on
//! its own, so an editor colours the lines on screen without reading the rest;
//! punctuation and what is not one of these stays uncoloured.

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Key,
    String,
    Number,
    Literal,
    Comment,
}

impl Token {
    pub const ALL: [Token; 5] = [Token::Key, Token::String, Token::Number, Token::Literal, Token::Comment];

    /// The name style.css colours it by (`::highlight(code-key)`).
    pub fn name(self) -> &'static str {
        match self {
            Token::Key => "code-key",
            Token::String => "code-string",
            Token::Number => "code-number",
            Token::Literal => "code-literal",
            Token::Comment => "code-comment",
        }
    }
}

/// The coloured parts of `line`, as byte ranges, in order.
pub fn tokens(line: &str) -> Vec<(Range<usize>, Token)> {
    let bytes = line.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        match bytes[at] {
            b' ' | b'\t' | b',' | b'[' | b']' | b'{' | b'}' | b':' | b'-' if !starts_number(&bytes[at..]) => {
                at += 1;
                continue;
            }
            b'#' if start == 0 || bytes[start - 1] == b' ' => {
                found.push((start..bytes.len(), Token::Comment));
                break;
            }
            quote @ (b'"' | b'\'') => {
                at += 1;
                while at < bytes.len() && bytes[at] != quote {
                    at += if bytes[at] == b'\\' && quote == b'"' { 2 } else { 1 };
                }
                at = (at + 1).min(bytes.len());
                let token = if is_key_end(&bytes[at..]) { Token::Key } else { Token::String };
                found.push((start..at, token));
            }
            _ => {
                while at < bytes.len() && !ends_plain(&bytes[at..], at > start) {
                    at += 1;
                }
                let word = line[start..at].trim_end();
                let end = start + word.len();
                let token = if is_key_end(&bytes[at..]) {
                    Token::Key
                } else if is_literal(word) {
                    Token::Literal
                } else if is_number(word) {
                    Token::Number
                } else {
                    Token::String
                };
                found.push((start..end, token));
            }
        }
    }
    found
}

fn starts_number(rest: &[u8]) -> bool {
    rest[0] == b'-' && rest.get(1).is_some_and(u8::is_ascii_digit)
}

/// Whether a plain word ends here: at `: `, a final `:`, ` #`, or flow punctuation.
fn ends_plain(rest: &[u8], after_text: bool) -> bool {
    match rest[0] {
        b',' | b'[' | b']' | b'{' | b'}' => true,
        b':' => matches!(rest.get(1), None | Some(b' ' | b'\t')),
        b' ' => after_text && rest.get(1) == Some(&b'#'),
        _ => false,
    }
}

/// Whether what follows a word makes it a key: `:` then a space or the line's end.
fn is_key_end(rest: &[u8]) -> bool {
    let rest = rest.trim_ascii_start();
    rest.first() == Some(&b':') && matches!(rest.get(1), None | Some(b' ' | b'\t'))
}

fn is_literal(word: &str) -> bool {
    matches!(
        word,
        "true" | "false" | "null" | "~" | "yes" | "no" | "on" | "off" | "True" | "False" | "Null"
    )
}

fn is_number(word: &str) -> bool {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    digits.starts_with(|first: char| first.is_ascii_digit())
        && digits.bytes().all(|byte| byte.is_ascii_digit() || matches!(byte, b'.' | b'e' | b'E' | b'+' | b'-'))
}

/// The byte at which the bracket that pairs with the one at `at` stands, scanning
/// `text` forward from an opening bracket or back from a closing one, brackets of
/// either kind nesting; brackets inside strings count too. None if `at` holds no
/// bracket, or its pair is missing or of the other kind.
pub fn matching_bracket(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let forward = matches!(bytes.get(at)?, b'{' | b'[');
    let (opens, closes): (&[u8], &[u8]) = match forward {
        true => (b"{[", b"}]"),
        false => (b"}]", b"{["),
    };
    opens.iter().position(|byte| *byte == bytes[at])?;
    let mut waiting = Vec::new();
    let indices: Box<dyn Iterator<Item = usize>> = match forward {
        true => Box::new(at..bytes.len()),
        false => Box::new((0..=at).rev()),
    };
    for index in indices {
        if let Some(kind) = opens.iter().position(|byte| *byte == bytes[index]) {
            waiting.push(kind);
        } else if let Some(kind) = closes.iter().position(|byte| *byte == bytes[index]) {
            if waiting.pop() != Some(kind) {
                return None;
            }
            if waiting.is_empty() {
                return Some(index);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coloured(line: &str) -> Vec<(&str, Token)> {
        tokens(line).into_iter().map(|(range, token)| (&line[range], token)).collect()
    }

    #[test]
    fn colours_json() {
        use Token::*;
        assert_eq!(
            coloured(r#"    "replicas": 3, "image": "web:1.0", "on": true, "x": null, "n": -1.5e3"#),
            [
                ("\"replicas\"", Key),
                ("3", Number),
                ("\"image\"", Key),
                ("\"web:1.0\"", String),
                ("\"on\"", Key),
                ("true", Literal),
                ("\"x\"", Key),
                ("null", Literal),
                ("\"n\"", Key),
                ("-1.5e3", Number)
            ]
        );
        assert_eq!(coloured(r#"  "say \"hi\": now""#), [(r#""say \"hi\": now""#, String)]);
    }

    #[test]
    fn brackets_pair_across_lines_and_nesting() {
        let text = "{\n  \"a\": [1, {\"b\": 2}],\n  \"c\": {}\n}";
        let close = text.len() - 1;
        assert_eq!(matching_bracket(text, 0), Some(close));
        assert_eq!(matching_bracket(text, close), Some(0));
        let list = text.find('[').unwrap();
        assert_eq!(matching_bracket(text, list), text.find(']'));
        assert_eq!(matching_bracket(text, text.find(']').unwrap()), Some(list));
        assert_eq!(matching_bracket(text, 1), None, "no bracket there");
        assert_eq!(matching_bracket("{ [ }", 0), None, "unpaired");
        assert_eq!(matching_bracket("[[]", 0), None);
    }

    #[test]
    fn colours_yaml() {
        use Token::*;
        assert_eq!(
            coloured("  - image: registry.example/web:1.4.2 # pinned"),
            [("image", Key), ("registry.example/web:1.4.2", String), ("# pinned", Comment)]
        );
        assert_eq!(coloured("replicas: 3"), [("replicas", Key), ("3", Number)]);
        assert_eq!(coloured("spec:"), [("spec", Key)]);
        assert_eq!(coloured("'quoted key': yes"), [("'quoted key'", Key), ("yes", Literal)]);
        assert_eq!(coloured("# a comment"), [("# a comment", Comment)]);
        assert_eq!(coloured("ports: [80, 443]"), [("ports", Key), ("80", Number), ("443", Number)]);
        assert_eq!(coloured("url: http://a#b"), [("url", Key), ("http://a#b", String)]);
    }
}

//! The jq paths of Argo CD's `jqPathExpressions` that the playground reads,
//! as JSON pointer patterns, and back.

use crate::pointer::{escape, Pattern};
use serde_json::Value;

/// The jq paths the playground reads, for messages.
pub(super) const JQ_PATHS: &str =
    "`.a.b`, `.a[]` (every item), `.a[0]` (one item), `.[\"a.b\"]` or `.\"a.b\"` (a quoted key)";

/// The jq path of a pattern: `/spec/containers/*/image` is
/// `.spec.containers[].image`.
pub(super) fn jq_of(pattern: &Pattern) -> String {
    let mut jq = String::new();
    for segment in pattern.segments() {
        let index = segment.filter(|segment| is_index(segment));
        match (segment, index) {
            (None, _) | (_, Some(_)) => {
                if jq.is_empty() {
                    jq.push('.');
                }
                jq.push('[');
                jq.push_str(index.unwrap_or_default());
                jq.push(']');
            }
            (Some(name), None) if is_identifier(name) => {
                jq.push('.');
                jq.push_str(name);
            }
            (Some(name), None) => {
                jq.push('.');
                jq.push_str(&Value::String(name.to_string()).to_string());
            }
        }
    }
    if jq.is_empty() {
        jq.push('.');
    }
    jq
}

/// Whether a segment reads as an array index: digits, without a leading 0.
fn is_index(segment: &str) -> bool {
    segment.bytes().all(|byte| byte.is_ascii_digit())
        && (segment == "0" || !segment.starts_with('0'))
        && segment.parse::<usize>().is_ok()
}

/// Whether jq reads `.name` as that field: an identifier, and no keyword
/// (which older jq refuses there).
fn is_identifier(name: &str) -> bool {
    const KEYWORDS: [&str; 17] = [
        "and", "or", "if", "then", "elif", "else", "end", "as", "def", "reduce", "foreach", "try",
        "catch", "label", "import", "include", "__loc__",
    ];
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

/// One step of a jq path.
enum JqStep {
    /// `[]`: every item of a list, or every field of an object.
    Every,
    Index(usize),
    Field(String),
}

/// The pattern of one of `jqPathExpressions`, for the paths the playground
/// reads: `.a.b`, `.a[]`, `.a[0]`, `.["a.b"]` and `."a.b"` (also `.a.[0]`,
/// and spaces between steps, as jq allows). What Argo CD deletes with
/// `del(<path>)` is what the pattern ignores. Anything else (pipes,
/// `select()`, functions, `..`, slices, `?`) is refused, saying where.
/// The pattern's index segments, as a JSON pointer's, also match a field
/// named by those digits; Argo CD's jq would skip the path there.
pub(super) fn jq_path(expression: &str) -> Result<Pattern, String> {
    let mut reader = JqReader {
        text: expression,
        at: 0,
    };
    let mut steps = Vec::new();
    reader.skip_space();
    if !reader.eat('.') {
        return Err(reader.unsupported());
    }
    if !reader.at_end() {
        steps.push(reader.after_dot()?);
    }
    loop {
        reader.skip_space();
        if reader.at_end() {
            break;
        }
        if reader.eat('.') {
            steps.push(reader.after_dot()?);
        } else if reader.peek() == Some('[') {
            steps.push(reader.bracket()?);
        } else {
            return Err(reader.unsupported());
        }
    }
    if steps.is_empty() {
        return Err(format!(
            "`.` is the whole object; name a field in it, such as `.spec.replicas` (the playground reads {JQ_PATHS})"
        ));
    }
    let mut pointer = String::new();
    for step in steps {
        pointer.push('/');
        match step {
            JqStep::Every => pointer.push('*'),
            JqStep::Index(index) => pointer.push_str(&index.to_string()),
            JqStep::Field(name) if name == "*" => {
                return Err(
                    "the playground cannot name a field called `*` (it reads `*` in a pointer as any field)"
                        .into(),
                )
            }
            JqStep::Field(name) => pointer.push_str(&escape(&name)),
        }
    }
    Pattern::parse(&pointer)
}

struct JqReader<'a> {
    text: &'a str,
    at: usize,
}

impl JqReader<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn at_end(&self) -> bool {
        self.rest().is_empty()
    }

    fn eat(&mut self, wanted: char) -> bool {
        let found = self.peek() == Some(wanted);
        if found {
            self.at += wanted.len_utf8();
        }
        found
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// What is not read, from where the reader stopped.
    fn unsupported(&self) -> String {
        const SHOWN: usize = 24;
        let rest = self.rest();
        let shown: String = rest.chars().take(SHOWN).collect();
        let more = if rest.chars().count() > SHOWN {
            "…"
        } else {
            ""
        };
        let at = if rest.is_empty() {
            "the path ends too soon".to_string()
        } else {
            format!("`{shown}{more}` is not read")
        };
        format!(
            "the playground reads jq paths only: {JQ_PATHS}; not pipes, `select()`, functions or `..` ({at})"
        )
    }

    /// The step after a `.`: a name, a quoted key or a bracket.
    fn after_dot(&mut self) -> Result<JqStep, String> {
        match self.peek() {
            Some('"') => self.string().map(JqStep::Field),
            Some('[') => self.bracket(),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let rest = self.rest();
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let name = rest[..end].to_string();
                self.at += end;
                Ok(JqStep::Field(name))
            }
            _ => Err(self.unsupported()),
        }
    }

    /// `[]`, `[0]` or `["key"]`.
    fn bracket(&mut self) -> Result<JqStep, String> {
        let start = self.at;
        self.eat('[');
        self.skip_space();
        let step = match self.peek() {
            Some(']') => JqStep::Every,
            Some('"') => JqStep::Field(self.string()?),
            Some(c) if c.is_ascii_digit() => {
                let rest = self.rest();
                let end = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let index = rest[..end].parse().ok();
                self.at += end;
                match index {
                    Some(index) => JqStep::Index(index),
                    None => {
                        self.at = start;
                        return Err(self.unsupported());
                    }
                }
            }
            _ => {
                self.at = start;
                return Err(self.unsupported());
            }
        };
        self.skip_space();
        if !self.eat(']') {
            self.at = start;
            return Err(self.unsupported());
        }
        Ok(step)
    }

    /// A quoted key, with JSON's escapes (jq's `\(...)` is refused).
    fn string(&mut self) -> Result<String, String> {
        let rest = self.rest();
        let mut escaped = false;
        let end = rest.char_indices().skip(1).find_map(|(at, c)| {
            let closes = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            closes.then_some(at)
        });
        let Some(end) = end else {
            return Err("a quoted key is not closed".into());
        };
        match serde_json::from_str(&rest[..=end]) {
            Ok(key) => {
                self.at += end + 1;
                Ok(key)
            }
            Err(_) => Err(self.unsupported()),
        }
    }
}

//! JSON pointers (RFC 6901): the path of a field, written `/spec/replicas`,
//! and patterns of them, where `*` stands for any one segment.

use std::fmt::Write;

/// One step of a path inside a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    Field(&'a str),
    Index(usize),
}

/// The pointer of a path: `[Field("spec"), Field("replicas")]` is `/spec/replicas`.
pub fn render(path: &[Step]) -> String {
    let mut pointer = String::new();
    for step in path {
        match step {
            Step::Field(name) => {
                pointer.push('/');
                pointer.push_str(&escape(name));
            }
            Step::Index(index) => {
                let _ = write!(pointer, "/{index}");
            }
        }
    }
    pointer
}

/// A segment escaped for a pointer: `~` is `~0`, `/` is `~1`.
pub fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum PatternSegment {
    Any,
    Exact(String),
}

/// A pointer pattern such as `/spec/template/spec/containers/*/image`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    segments: Vec<PatternSegment>,
}

impl Pattern {
    /// Reads a pattern; `Err` says what is wrong with it.
    pub fn parse(pointer: &str) -> Result<Self, String> {
        if pointer.is_empty() {
            return Ok(Pattern {
                segments: Vec::new(),
            });
        }
        let Some(rest) = pointer.strip_prefix('/') else {
            return Err(format!(
                "`{pointer}` is not a JSON pointer: it should start with `/`"
            ));
        };
        let mut segments = Vec::new();
        for raw in rest.split('/') {
            segments.push(match raw {
                "*" => PatternSegment::Any,
                _ => PatternSegment::Exact(unescape(raw).ok_or_else(|| {
                    format!("`{pointer}` is not a JSON pointer: `~` must be followed by 0 or 1")
                })?),
            });
        }
        Ok(Pattern { segments })
    }

    /// Whether the pattern names exactly this path.
    pub fn matches(&self, path: &[Step]) -> bool {
        self.segments.len() == path.len() && self.prefix_matches(path)
    }

    /// Whether the pattern names a field strictly inside this path.
    pub fn is_below(&self, path: &[Step]) -> bool {
        self.segments.len() > path.len() && self.prefix_matches(path)
    }

    fn prefix_matches(&self, path: &[Step]) -> bool {
        self.segments
            .iter()
            .zip(path)
            .all(|(segment, step)| match (segment, step) {
                (PatternSegment::Any, _) => true,
                (PatternSegment::Exact(name), Step::Field(field)) => name == field,
                (PatternSegment::Exact(name), Step::Index(index)) => name.parse() == Ok(*index),
            })
    }

    /// The segments, `None` standing for `*`.
    pub fn segments(&self) -> impl Iterator<Item = Option<&str>> {
        self.segments.iter().map(|segment| match segment {
            PatternSegment::Any => None,
            PatternSegment::Exact(name) => Some(name.as_str()),
        })
    }
}

/// A pointer as a person reads it: a segment naming a field with a `/` in
/// it (a file's path, an annotation's key) as the name is written, quoted:
/// `/repository/files/envs~1prod~1db.yaml` is `/repository/files/"envs/prod/db.yaml"`.
pub fn as_written(pointer: &str) -> String {
    pointer
        .split('/')
        .map(|segment| match unescape(segment) {
            Some(name) if name.contains('/') => format!("{name:?}"),
            _ => segment.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A pointer's segment as the field name it stands for: `a~1b` is `a/b`;
/// `None` when a `~` is not followed by 0 or 1.
pub fn unescape(segment: &str) -> Option<String> {
    let mut out = String::with_capacity(segment.len());
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        match c {
            '~' => match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            },
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_with_a_slash_reads_as_its_name_is_written() {
        assert_eq!(as_written("/repository/files/envs~1prod~1db.yaml/metadata"), r#"/repository/files/"envs/prod/db.yaml"/metadata"#);
        assert_eq!(as_written("/metadata/annotations/a~0b"), "/metadata/annotations/a~0b", "a field without a slash stays as the pointer writes it");
        assert_eq!(as_written(""), "");
    }

    #[test]
    fn renders_and_escapes() {
        let path = [
            Step::Field("metadata"),
            Step::Field("annotations"),
            Step::Field("a/b~c"),
            Step::Index(2),
        ];
        assert_eq!(render(&path), "/metadata/annotations/a~1b~0c/2");
    }

    #[test]
    fn wildcards_match_one_segment() {
        let pattern = Pattern::parse("/spec/containers/*/image").unwrap();
        let image = [
            Step::Field("spec"),
            Step::Field("containers"),
            Step::Index(3),
            Step::Field("image"),
        ];
        assert!(pattern.matches(&image));
        assert!(!pattern.matches(&image[..3]));
        assert!(pattern.is_below(&image[..3]));
        assert!(!pattern.is_below(&image));
    }

    #[test]
    fn indices_match_numbers() {
        let pattern = Pattern::parse("/items/0").unwrap();
        assert!(pattern.matches(&[Step::Field("items"), Step::Index(0)]));
        assert!(!pattern.matches(&[Step::Field("items"), Step::Index(1)]));
    }

    #[test]
    fn escaped_segments_match_their_field() {
        let pattern = Pattern::parse("/metadata/annotations/example.com~1owner").unwrap();
        assert!(pattern.matches(&[
            Step::Field("metadata"),
            Step::Field("annotations"),
            Step::Field("example.com/owner")
        ]));
    }

    #[test]
    fn rejects_what_is_not_a_pointer() {
        assert!(Pattern::parse("spec/replicas")
            .unwrap_err()
            .contains("should start with `/`"));
        assert!(Pattern::parse("/a~2").is_err());
    }
}

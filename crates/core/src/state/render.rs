//! Writing a state as text, JSON or YAML, in the form it was read from, and
//! knowing which lines hold each object (so that a page can point at one).

use crate::state::{Form, State};
use saphyr::{Mapping, Scalar, ScalarStyle, Yaml, YamlEmitter};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Json,
    Yaml,
}

impl Format {
    /// The format a text is written in: JSON when it starts like JSON.
    pub fn of(text: &str) -> Format {
        match text.trim_start().chars().next() {
            None | Some('{' | '[') => Format::Json,
            _ => Format::Yaml,
        }
    }
}

/// A state written out, with the lines (0-based, end exclusive) of each object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub lines: BTreeMap<String, Range<usize>>,
}

/// Writes `state` in `format`.
pub fn render(state: &State, format: Format) -> Rendered {
    let mut writer = Writer::default();
    match (format, state.form()) {
        (Format::Json, Form::Named) => {
            writer.line("{");
            let count = state.len();
            for (index, (key, object)) in state.objects().iter().enumerate() {
                let comma = if index + 1 < count { "," } else { "" };
                let name = serde_json::to_string(key).unwrap_or_default();
                writer.object(
                    key,
                    &format!("{name}: {}{comma}", pretty_json(object.value())),
                    "  ",
                );
            }
            writer.line("}");
        }
        (Format::Json, Form::List) => {
            writer.line("[");
            json_items(&mut writer, state, "  ");
            writer.line("]");
        }
        (Format::Json, Form::KubernetesList { envelope }) => {
            writer.line("{");
            for (name, value) in envelope {
                let name = serde_json::to_string(name).unwrap_or_default();
                writer.block(&format!("{name}: {},", pretty_json(value)), "  ");
            }
            writer.line("  \"items\": [");
            json_items(&mut writer, state, "    ");
            writer.line("  ]");
            writer.line("}");
        }
        (Format::Yaml, Form::Named) => {
            for (key, object) in state.objects() {
                writer.object(
                    key,
                    &format!("{}:\n{}", yaml_key(key), indent(&yaml(object.value()), "  ")),
                    "",
                );
            }
        }
        (Format::Yaml, Form::List) => {
            for (index, (key, object)) in state.objects().iter().enumerate() {
                if index > 0 {
                    writer.line("---");
                }
                writer.object(key, &yaml(object.value()), "");
            }
        }
        (Format::Yaml, Form::KubernetesList { envelope }) => {
            writer.block(&yaml(&Value::Object(envelope.clone())), "");
            writer.line("items:");
            for (key, object) in state.objects() {
                let body = indent(&yaml(object.value()), "  ");
                writer.object(key, &format!("- {}", body.trim_start()), "");
            }
        }
    }
    if state.is_empty() && format == Format::Yaml {
        writer.line(if *state.form() == Form::Named {
            "{}"
        } else {
            "[]"
        });
    }
    Rendered {
        text: writer.text,
        lines: writer.lines,
    }
}

/// Writes any value in `format`.
pub fn render_value(value: &Value, format: Format) -> String {
    match format {
        Format::Json => format!("{}\n", pretty_json(value)),
        Format::Yaml => yaml(value),
    }
}

#[derive(Default)]
struct Writer {
    text: String,
    line_count: usize,
    lines: BTreeMap<String, Range<usize>>,
}

impl Writer {
    fn line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
        self.line_count += 1;
    }

    fn block(&mut self, block: &str, prefix: &str) {
        for line in block.lines() {
            self.line(&format!("{prefix}{line}"));
        }
    }

    fn object(&mut self, key: &str, block: &str, prefix: &str) {
        let start = self.line_count;
        self.block(block, prefix);
        self.lines.insert(key.to_string(), start..self.line_count);
    }
}

fn json_items(writer: &mut Writer, state: &State, prefix: &str) {
    let count = state.len();
    for (index, (key, object)) in state.objects().iter().enumerate() {
        let comma = if index + 1 < count { "," } else { "" };
        writer.object(key, &format!("{}{comma}", pretty_json(object.value())), prefix);
    }
}

fn pretty_json(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn indent(block: &str, prefix: &str) -> String {
    block
        .lines()
        .map(|line| format!("{prefix}{line}\n"))
        .collect()
}

fn yaml_key(key: &str) -> String {
    let mut text = yaml(&Value::String(key.to_string()));
    text.truncate(text.trim_end().len());
    text
}

/// One value as a YAML block (without the document marker).
fn yaml(value: &Value) -> String {
    let mut out = String::new();
    let mut emitter = YamlEmitter::new(&mut out);
    emitter.multiline(true);
    if emitter.dump(&to_yaml(value)).is_err() {
        return pretty_json(value);
    }
    let body = out
        .strip_prefix("---")
        .unwrap_or(&out)
        .trim_start_matches([' ', '\n']);
    format!("{}\n", body.trim_end())
}

fn to_yaml(value: &Value) -> Yaml<'_> {
    match value {
        Value::Null => Yaml::Value(Scalar::Null),
        Value::Bool(flag) => Yaml::Value(Scalar::Boolean(*flag)),
        Value::Number(number) => {
            Yaml::Representation(Cow::Owned(number.to_string()), ScalarStyle::Plain, None)
        }
        Value::String(text) => Yaml::Value(Scalar::String(Cow::Borrowed(text))),
        Value::Array(items) => Yaml::Sequence(items.iter().map(to_yaml).collect()),
        Value::Object(fields) => Yaml::Mapping(mapping(fields)),
    }
}

fn mapping(fields: &Map<String, Value>) -> Mapping<'_> {
    let mut mapping = Mapping::new();
    for (name, value) in fields {
        mapping.insert(
            Yaml::Value(Scalar::String(Cow::Borrowed(name))),
            to_yaml(value),
        );
    }
    mapping
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn state(value: Value) -> State {
        State::from_value("test", value).unwrap()
    }

    fn round_trip(value: Value, format: Format) {
        let original = state(value);
        let rendered = render(&original, format);
        assert_eq!(
            State::read("rendered", &rendered.text)
                .unwrap()
                .objects(),
            original.objects(),
            "{}",
            rendered.text
        );
    }

    #[test]
    fn every_form_reads_back_in_both_formats() {
        let named = json!({"web": {"image": "web:1", "ports": [80, 443], "on": "yes", "n": "1.20", "empty": {}}, "api": {"x": null}});
        let list = json!([{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}, {"kind": "Pod", "metadata": {"name": "b", "labels": {"x": "true"}}}]);
        let kube =
            json!({"apiVersion": "v1", "kind": "List", "metadata": {}, "items": list.clone()});
        for format in [Format::Json, Format::Yaml] {
            round_trip(named.clone(), format);
            round_trip(list.clone(), format);
            round_trip(kube.clone(), format);
            round_trip(json!({}), format);
            round_trip(json!([]), format);
        }
    }

    #[test]
    fn json_is_pretty_and_lines_point_at_objects() {
        let rendered = render(
            &state(json!({"api": {"replicas": 2}, "web": {"replicas": 3}})),
            Format::Json,
        );
        assert_eq!(rendered.text, "{\n  \"api\": {\n    \"replicas\": 2\n  },\n  \"web\": {\n    \"replicas\": 3\n  }\n}\n");
        assert_eq!(rendered.lines["api"], 1..4);
        assert_eq!(rendered.lines["web"], 4..7);
    }

    #[test]
    fn yaml_lists_are_document_streams() {
        let rendered = render(
            &state(
                json!([{"kind": "Service", "metadata": {"name": "a"}}, {"kind": "Service", "metadata": {"name": "b"}}]),
            ),
            Format::Yaml,
        );
        assert_eq!(
            rendered.text,
            "kind: Service\nmetadata:\n  name: a\n---\nkind: Service\nmetadata:\n  name: b\n"
        );
        assert_eq!(rendered.lines["Service/default/b"], 4..7);
    }

    #[test]
    fn the_format_of_a_text() {
        assert_eq!(Format::of("  {\"a\": 1}"), Format::Json);
        assert_eq!(Format::of("a: 1"), Format::Yaml);
    }
}

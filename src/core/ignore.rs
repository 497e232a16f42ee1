//! Ignore rules: fields that another controller owns. An ignored field is
//! neither drift nor written by apply: the live value is kept (Flux's rule,
//! and Argo CD's with `RespectIgnoreDifferences=true`).

use super::document::parse_one;
use super::pointer::{escape, Pattern};
use super::state::describe;
use super::yaml::item_lines;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// One item of `options.ignore`: a JSON pointer for every object (the
/// playground's shorthand, where `*` matches any one segment), or the shape
/// of Argo CD's `ignoreDifferences` entries, whose `jsonPointers` are literal
/// and whose `jqPathExpressions` are jq paths (a subset of them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "RuleText")]
pub struct IgnoreRule {
    pub kind: Option<String>,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub json_pointers: Vec<String>,
    pub jq_path_expressions: Vec<String>,
    patterns: Vec<Pattern>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum RuleText {
    Pointer(String),
    Selector(Selector),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Selector {
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    json_pointers: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    jq_path_expressions: Vec<String>,
}

impl From<IgnoreRule> for RuleText {
    fn from(rule: IgnoreRule) -> Self {
        match (
            &rule.kind,
            &rule.name,
            &rule.namespace,
            rule.json_pointers.as_slice(),
            rule.jq_path_expressions.is_empty(),
        ) {
            (None, None, None, [pointer], true) => RuleText::Pointer(pointer.clone()),
            _ => RuleText::Selector(Selector {
                kind: rule.kind,
                name: rule.name,
                namespace: rule.namespace,
                json_pointers: (!rule.json_pointers.is_empty()
                    || rule.jq_path_expressions.is_empty())
                .then_some(rule.json_pointers),
                jq_path_expressions: rule.jq_path_expressions,
            }),
        }
    }
}

/// The fields a rule may have, as written.
const FIELDS: [&str; 5] = [
    "kind",
    "name",
    "namespace",
    "jsonPointers",
    "jqPathExpressions",
];

/// Fields of Argo CD's `ignoreDifferences` that the playground does not read.
const ARGO_CD_ONLY: [&str; 1] = ["group"];

const WHAT_A_RULE_IS: &str =
    "a rule is a JSON pointer such as `/status`, or an object with `kind`, `name`, `namespace`, and `jsonPointers` or `jqPathExpressions`";

/// The jq paths the playground reads, for messages.
const JQ_PATHS: &str =
    "`.a.b`, `.a[]` (every item), `.a[0]` (one item), `.[\"a.b\"]` or `.\"a.b\"` (a quoted key)";

/// A wrong rule in a list of them: which one (from 0), when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError {
    pub rule: Option<usize>,
    pub message: String,
}

/// Ignore rules from a JSON value: a list of rules.
pub fn rules_from_value(value: &Value) -> Result<Vec<IgnoreRule>, RulesError> {
    let Value::Array(items) = value else {
        return Err(RulesError {
            rule: None,
            message: not_a_list(describe(value)),
        });
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            IgnoreRule::from_value(item).map_err(|message| RulesError {
                rule: Some(index),
                message,
            })
        })
        .collect()
}

/// Ignore rules written as YAML or JSON text, as in the Options panel; a
/// wrong rule is named by its number and line.
pub fn rules_from_text(text: &str) -> Result<Vec<IgnoreRule>, String> {
    const SOURCE: &str = "ignore rules";
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let value = parse_one(SOURCE, text).map_err(|error| error.to_string())?;
    rules_from_value(&value).map_err(|error| match error.rule {
        None => error.message,
        Some(index) => {
            let line = item_lines(text)
                .get(index)
                .map(|line| format!(" (line {line})"))
                .unwrap_or_default();
            format!("{SOURCE}, rule {}{line}: {}", index + 1, error.message)
        }
    })
}

fn not_a_list(found: &str) -> String {
    format!(
        "ignore rules are a list of rules (JSON pointers, or objects with `jsonPointers`); found {found}"
    )
}

impl IgnoreRule {
    /// A rule that ignores `pointer` in every object: the playground's
    /// shorthand, where a `*` segment matches any one segment.
    pub fn everywhere(pointer: &str) -> Result<Self, String> {
        Ok(IgnoreRule {
            kind: None,
            name: None,
            namespace: None,
            json_pointers: vec![pointer.to_string()],
            jq_path_expressions: Vec::new(),
            patterns: vec![Pattern::parse(pointer)?],
        })
    }

    /// One rule from a JSON value, as a scenario's `options.ignore` holds it.
    pub fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::String(pointer) => IgnoreRule::everywhere(pointer),
            Value::Object(fields) => IgnoreRule::from_fields(fields),
            other => Err(format!("{WHAT_A_RULE_IS}; found {}", describe(other))),
        }
    }

    /// A rule in the shape of Argo CD's `ignoreDifferences` entries, read as
    /// Argo CD reads them (argo-cd util/argo/normalizers/diff_normalizer.go,
    /// `NewIgnoreNormalizer`): each of `jsonPointers` is a JSON Patch
    /// `remove` of that literal path, each of `jqPathExpressions` is
    /// `del(<path>)`.
    fn from_fields(fields: &Map<String, Value>) -> Result<Self, String> {
        if let Some(unknown) = fields
            .keys()
            .find(|field| !FIELDS.contains(&field.as_str()))
        {
            return Err(unknown_field(unknown));
        }
        let kind = text_field(fields, "kind")?;
        let name = text_field(fields, "name")?;
        let namespace = text_field(fields, "namespace")?;
        let json_pointers = texts(fields, "jsonPointers", "JSON pointer")?;
        let jq_path_expressions = texts(fields, "jqPathExpressions", "jq path")?;
        if json_pointers.is_none() && jq_path_expressions.is_none() {
            return Err("a rule needs `jsonPointers` (a list of JSON pointers) or `jqPathExpressions` (a list of jq paths)".into());
        }
        let (json_pointers, jq_path_expressions) = (
            json_pointers.unwrap_or_default(),
            jq_path_expressions.unwrap_or_default(),
        );
        let mut patterns = Vec::with_capacity(json_pointers.len() + jq_path_expressions.len());
        for (index, pointer) in json_pointers.iter().enumerate() {
            patterns.push(literal_pointer(index, pointer)?);
        }
        for (index, expression) in jq_path_expressions.iter().enumerate() {
            patterns.push(jq_path(expression).map_err(|why| {
                format!(
                    "`jqPathExpressions` item {} `{expression}`: {why}",
                    index + 1
                )
            })?);
        }
        Ok(IgnoreRule {
            kind,
            name,
            namespace,
            json_pointers,
            jq_path_expressions,
            patterns,
        })
    }
}

fn unknown_field(field: &str) -> String {
    let known = "a rule has `kind`, `name`, `namespace`, `jsonPointers` and `jqPathExpressions`";
    if field == "managedFieldsManagers" {
        format!(
            "`{field}` is Argo CD's (it ignores the fields those managers own), and the playground does not model managed fields; name the fields with `jsonPointers` or `jqPathExpressions`"
        )
    } else if ARGO_CD_ONLY.contains(&field) {
        format!("`{field}` is Argo CD's, and the playground does not read it; {known}")
    } else {
        format!("unknown field `{field}`; {known}")
    }
}

/// An optional text field; null is the same as absent.
fn text_field(fields: &Map<String, Value>, field: &str) -> Result<Option<String>, String> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(format!("`{field}` is text; found {}", describe(other))),
    }
}

/// An optional list of texts (`what` is one of them); null is the same as
/// absent.
fn texts(
    fields: &Map<String, Value>,
    field: &str,
    what: &str,
) -> Result<Option<Vec<String>>, String> {
    let items = match fields.get(field) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(format!(
                "`{field}` is a list of {what}s; found {}",
                describe(other)
            ))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            item.as_str().map(str::to_string).ok_or_else(|| {
                format!(
                    "`{field}` item {} is a {what} (text); found {}",
                    index + 1,
                    describe(item)
                )
            })
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// One of an Argo CD rule's `jsonPointers`: a literal path, in which `*` is
/// a field called `*` (Argo CD's JSON Patch `remove` then finds nothing and
/// the difference still shows), so a `*` is refused, with the jq path that
/// does what it was meant to.
fn literal_pointer(index: usize, pointer: &str) -> Result<Pattern, String> {
    let pattern = Pattern::parse(pointer)?;
    if pattern.segments().any(|segment| segment.is_none()) {
        let jq = Value::String(jq_of(&pattern)).to_string();
        return Err(format!(
            "`jsonPointers` item {} `{pointer}`: Argo CD reads a JSON pointer literally, so `*` names only a field called `*` and the difference still shows; to match every item write `jqPathExpressions: [{jq}]`",
            index + 1
        ));
    }
    Ok(pattern)
}

/// The jq path of a pattern: `/spec/containers/*/image` is
/// `.spec.containers[].image`.
fn jq_of(pattern: &Pattern) -> String {
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
fn jq_path(expression: &str) -> Result<Pattern, String> {
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

impl<'de> Deserialize<'de> for IgnoreRule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        IgnoreRule::from_value(&value).map_err(de::Error::custom)
    }
}

/// Reads `options.ignore`, a list of rules, so that each rule's error is
/// reported at the rule and anything else says what a list of rules is.
pub fn deserialize_rules<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<IgnoreRule>, D::Error> {
    deserializer.deserialize_any(RulesVisitor)
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = Vec<IgnoreRule>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a list of ignore rules")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut rules = Vec::with_capacity(items.size_hint().unwrap_or(0).min(1024));
        while let Some(rule) = items.next_element()? {
            rules.push(rule);
        }
        Ok(rules)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(de::Error::custom(not_a_list("an object")))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a string")))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a boolean")))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a number")))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a number")))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("a number")))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("null")))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(E::custom(not_a_list("null")))
    }
}

impl IgnoreRule {
    /// Whether the rule applies to the object at `key` (a name in the lesson's
    /// form; `object` gives a Kubernetes object's kind and namespace).
    pub fn selects(&self, key: &str, object: &Value) -> bool {
        let kind = object.get("kind").and_then(Value::as_str);
        let metadata = object.get("metadata");
        let name = metadata
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
            .unwrap_or(key);
        let namespace = metadata
            .and_then(|m| m.get("namespace"))
            .and_then(Value::as_str);
        let wanted = |filter: &Option<String>, actual: Option<&str>| {
            filter.as_deref().is_none_or(|want| Some(want) == actual)
        };
        wanted(&self.kind, kind)
            && wanted(&self.name, Some(name))
            && wanted(&self.namespace, namespace)
    }

    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }
}

/// The patterns of every rule that selects the object at `key`.
pub fn patterns_for<'a>(rules: &'a [IgnoreRule], key: &str, object: &Value) -> Vec<&'a Pattern> {
    rules
        .iter()
        .filter(|rule| rule.selects(key, object))
        .flat_map(|rule| rule.patterns())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(value: Value) -> Result<Vec<IgnoreRule>, String> {
        serde_json::from_value(value).map_err(|error| error.to_string())
    }

    #[test]
    fn reads_both_shapes_and_writes_them_back() {
        let text = json!(["/status", {"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]);
        let read = rules(text.clone()).unwrap();
        assert_eq!(read[1].kind.as_deref(), Some("Deployment"));
        assert_eq!(serde_json::to_value(&read).unwrap(), text);
    }

    #[test]
    fn a_bad_pointer_is_an_error() {
        assert!(rules(json!(["spec/replicas"])).is_err());
        assert!(
            rules(json!([{"kind": "Deployment"}])).is_err(),
            "jsonPointers is required"
        );
    }

    #[test]
    fn selects_by_kind_name_and_namespace() {
        let rule = &rules(json!([{"kind": "Deployment", "namespace": "shop", "jsonPointers": ["/spec/replicas"]}])).unwrap()[0];
        let web = json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}});
        let other = json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "ops"}});
        assert!(rule.selects("Deployment/shop/web", &web));
        assert!(!rule.selects("Deployment/ops/web", &other));
        assert!(
            !rule.selects("web", &json!({"replicas": 2})),
            "a lesson object has no kind"
        );
    }

    fn pattern(pointer: &str) -> Pattern {
        Pattern::parse(pointer).unwrap()
    }

    fn error(rule: Value) -> String {
        IgnoreRule::from_value(&rule).unwrap_err()
    }

    #[test]
    fn argo_cd_json_pointers_are_literal_so_a_star_is_refused_with_its_jq_path() {
        assert_eq!(
            error(json!({"kind": "Deployment", "jsonPointers": ["/spec/replicas", "/spec/template/spec/containers/*/image"]})),
            "`jsonPointers` item 2 `/spec/template/spec/containers/*/image`: Argo CD reads a JSON pointer literally, \
             so `*` names only a field called `*` and the difference still shows; \
             to match every item write `jqPathExpressions: [\".spec.template.spec.containers[].image\"]`"
        );
        let suggested = |pointer: &str| {
            let message = error(json!({"jsonPointers": [pointer]}));
            let quoted = message.split("jqPathExpressions: [").nth(1).unwrap();
            serde_json::from_str::<String>(quoted.strip_suffix("]`").unwrap()).unwrap()
        };
        assert_eq!(suggested("/*"), ".[]");
        assert_eq!(
            suggested("/metadata/annotations/*"),
            ".metadata.annotations[]"
        );
        assert_eq!(suggested("/spec/*/0/if"), ".spec[][0].\"if\"");
        assert_eq!(
            suggested("/metadata/labels/app.kubernetes.io~1name/*/007"),
            ".metadata.labels.\"app.kubernetes.io/name\"[].\"007\""
        );
        assert!(
            rules(json!([{"kind": "Deployment", "jsonPointers": ["/spec/containers/0/*x"]}]))
                .is_ok(),
            "only a whole `*` segment is a wildcard in the shorthand, so only it is refused"
        );
    }

    #[test]
    fn the_shorthand_keeps_its_star() {
        let rule = IgnoreRule::everywhere("/spec/template/spec/containers/*/image").unwrap();
        assert_eq!(
            rule.patterns(),
            [pattern("/spec/template/spec/containers/*/image")]
        );
        assert_eq!(
            rules(json!(["/metadata/labels/*"])).unwrap()[0].patterns(),
            [pattern("/metadata/labels/*")]
        );
    }

    #[test]
    fn jq_paths_read_fields_items_indices_and_quoted_keys() {
        for (jq, pointer) in [
            (".spec.replicas", "/spec/replicas"),
            (
                ".spec.template.spec.containers[].image",
                "/spec/template/spec/containers/*/image",
            ),
            (".spec.containers[0].image", "/spec/containers/0/image"),
            (".spec.containers.[12]", "/spec/containers/12"),
            (".[]", "/*"),
            (".[0]", "/0"),
            (
                ".metadata.annotations[\"example.com/owner\"]",
                "/metadata/annotations/example.com~1owner",
            ),
            (
                ".metadata.labels.[\"app.kubernetes.io/name\"]",
                "/metadata/labels/app.kubernetes.io~1name",
            ),
            (".metadata.\"a.b~c\"", "/metadata/a.b~0c"),
            (".[\"key.with.dots\"]", "/key.with.dots"),
            (".\"quoted\".x_1", "/quoted/x_1"),
            (".a[ \"\\u00e9\\\"\" ]", "/a/\u{e9}\""),
            (" .spec .containers [ ] .image ", "/spec/containers/*/image"),
            (".if.end", "/if/end"),
        ] {
            let read = rules(json!([{"kind": "Deployment", "jqPathExpressions": [jq]}]));
            assert_eq!(read.unwrap()[0].patterns(), [pattern(pointer)], "{jq}");
        }
    }

    #[test]
    fn jq_paths_beyond_the_subset_are_refused_by_name() {
        let supported = "the playground reads jq paths only: `.a.b`, `.a[]` (every item), `.a[0]` (one item), \
                         `.[\"a.b\"]` or `.\"a.b\"` (a quoted key); not pipes, `select()`, functions or `..`";
        for (jq, rest) in [
            (
                ".spec.template.spec.initContainers[] | select(.name == \"istio-init\")",
                "`| select(.name == \"istio…` is not read",
            ),
            ("..|.image?", "`.|.image?` is not read"),
            ("del(.spec)", "`del(.spec)` is not read"),
            ("spec.replicas", "`spec.replicas` is not read"),
            (".spec.containers[-1]", "`[-1]` is not read"),
            (".spec.containers[1:2]", "`[1:2]` is not read"),
            (".spec.containers[].image?", "`?` is not read"),
            (".metadata.labels.app-name", "`-name` is not read"),
            (".spec.", "the path ends too soon"),
            (".a[\"\\(.b)\"]", "`\"\\(.b)\"]` is not read"),
        ] {
            let message = error(json!({"jqPathExpressions": [".status", jq]}));
            assert_eq!(
                message,
                format!("`jqPathExpressions` item 2 `{jq}`: {supported} ({rest})")
            );
        }
        assert!(error(json!({"jqPathExpressions": ["."]})).contains("`.` is the whole object"));
        assert!(error(json!({"jqPathExpressions": [".a[\"b]"]}))
            .ends_with("a quoted key is not closed"));
        assert!(error(json!({"jqPathExpressions": [".a[\"*\"]"]}))
            .contains("cannot name a field called `*`"));
        assert_eq!(
            error(json!({"jqPathExpressions": ".spec"})),
            "`jqPathExpressions` is a list of jq paths; found a string"
        );
        assert_eq!(
            error(json!({"jqPathExpressions": [1]})),
            "`jqPathExpressions` item 1 is a jq path (text); found a number"
        );
    }

    #[test]
    fn a_rule_needs_json_pointers_or_jq_paths() {
        assert_eq!(
            error(json!({"kind": "Deployment"})),
            "a rule needs `jsonPointers` (a list of JSON pointers) or `jqPathExpressions` (a list of jq paths)"
        );
        let both = &rules(json!([{"kind": "Deployment", "jsonPointers": ["/spec/replicas"], "jqPathExpressions": [".spec.containers[].image"]}])).unwrap()[0];
        assert_eq!(
            both.patterns(),
            [
                pattern("/spec/replicas"),
                pattern("/spec/containers/*/image")
            ]
        );
    }

    #[test]
    fn managed_fields_managers_are_refused_as_not_modelled() {
        assert_eq!(
            error(json!({"kind": "Deployment", "managedFieldsManagers": ["kube-controller-manager"]})),
            "`managedFieldsManagers` is Argo CD's (it ignores the fields those managers own), and the playground \
             does not model managed fields; name the fields with `jsonPointers` or `jqPathExpressions`"
        );
    }

    #[test]
    fn jq_rules_write_back_as_they_were_read() {
        for text in [
            json!([{"kind": "Deployment", "jqPathExpressions": [".spec.containers[].image"]}]),
            json!([{"jqPathExpressions": [".status"]}]),
            json!([{"name": "web", "jsonPointers": ["/spec/replicas"], "jqPathExpressions": [".spec.containers[0].image"]}]),
            json!([{"kind": "Deployment", "jsonPointers": []}]),
        ] {
            let read = rules(text.clone()).unwrap();
            assert_eq!(serde_json::to_value(&read).unwrap(), text);
        }
    }

    #[test]
    fn every_pointer_pattern_reads_back_from_the_jq_path_suggested_for_it() {
        use proptest::prelude::*;
        let segment = prop_oneof![
            Just(None),
            "[a-z0-9_.~/\"\\\\ (|*-]{0,5}"
                .prop_filter("a literal `*` is not a pattern", |s| s != "*")
                .prop_map(Some),
        ];
        let mut runner = proptest::test_runner::TestRunner::default();
        runner
            .run(&prop::collection::vec(segment, 1..5), |segments| {
                let pointer: String = segments
                    .iter()
                    .map(|segment| format!("/{}", segment.as_deref().map_or("*".into(), escape)))
                    .collect();
                let pattern = pattern(&pointer);
                let jq = jq_of(&pattern);
                prop_assert_eq!(jq_path(&jq), Ok(pattern), "{} from {}", jq, pointer);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn a_name_selects_a_lesson_object_by_key() {
        let rule = &rules(json!([{"name": "web", "jsonPointers": ["/replicas"]}])).unwrap()[0];
        assert!(rule.selects("web", &json!({"replicas": 2})));
        assert!(!rule.selects("api", &json!({"replicas": 2})));
    }
}

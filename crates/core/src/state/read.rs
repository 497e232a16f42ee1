//! Reading a state: from JSON or YAML text, or from a JSON value, in one of
//! its three forms (`Form`), every object keyed and checked. A JSON text may
//! be read where it lies (`InTextDocument`, with the `tapes` feature), each
//! object kept there and built only where something asks for it as a value;
//! YAML, and JSON in a build without that feature, is read into values. Both
//! give the same state and the same errors (`tests/reading_tapes.rs`).

use crate::error::InputError;
use crate::pointer::escape;
use crate::state::namespace::namespace_of;
use crate::state::{hook_annotations, Form, Key, Object, State};
use crate::text::edit::SharedText;
use crate::text::{document, yaml};
use crate::value::in_text::InTextDocument;
use crate::value::{Kind, ValueRef};
use serde_json::Value;
use std::collections::btree_map::{BTreeMap, Entry};
use std::sync::Arc;

impl State {
    /// Reads a state from JSON or YAML text; `source` names it in errors.
    /// Several YAML documents (`---`) are a list of Kubernetes objects. Text
    /// with no document at all is an empty state in the lesson's form.
    /// Nothing read before is looked at; `Workspace::read` remembers reads.
    pub fn read(source: &str, text: &str) -> Result<Self, InputError> {
        if InTextDocument::reads(text) {
            return State::read_shared(source, &SharedText::from(text));
        }
        State::read_documents(source, text)
    }

    /// What `read` gives, for a text kept shared: a document read where it
    /// lies holds it without copying it.
    pub fn read_shared(source: &str, text: &SharedText) -> Result<Self, InputError> {
        match InTextDocument::read(source, text) {
            Some(Ok(document)) => State::from_in_text(source, &document),
            Some(Err(json_error)) => State::read_as_yaml_after_json(source, text, json_error),
            None => State::read_documents(source, text),
        }
    }

    fn read_documents(source: &str, text: &str) -> Result<Self, InputError> {
        if text.trim().is_empty() {
            return Ok(State::empty(Form::Named));
        }
        State::from_documents(source, document::parse_documents(source, text)?)
    }

    fn from_documents(source: &str, mut documents: Vec<Value>) -> Result<Self, InputError> {
        match documents.len() {
            0 => Ok(State::empty(Form::Named)),
            1 => State::from_value(source, documents.remove(0)),
            _ => State::from_items(source, Within::Stream, built(documents), Form::List),
        }
    }

    /// A text that looks like JSON but does not read as JSON, read as YAML
    /// as `document::parse_documents` reads it, with JSON's error if that
    /// fails too.
    fn read_as_yaml_after_json(source: &str, text: &str, json_error: InputError) -> Result<Self, InputError> {
        match yaml::parse_documents(source, text) {
            Ok(documents) => State::from_documents(source, documents),
            Err(_) => Err(json_error),
        }
    }

    /// Reads a state from a JSON value; `source` names it in errors.
    pub fn from_value(source: &str, value: Value) -> Result<Self, InputError> {
        let shape = shape_of(source, ValueRef::Built(&value))?;
        match (shape, value) {
            (Shape::List, Value::Array(items)) => {
                State::from_items(source, Within::List(""), built(items), Form::List)
            }
            (Shape::KubernetesList, Value::Object(mut envelope)) => {
                let items = match envelope.shift_remove("items") {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                };
                State::from_items(
                    source,
                    Within::List("/items"),
                    built(items),
                    Form::KubernetesList { envelope },
                )
            }
            (Shape::Single, value) => {
                State::from_items(source, Within::Single, vec![Object::Built(value)], Form::List)
            }
            (_, Value::Object(fields)) => State::from_named(
                source,
                fields.into_iter().map(|(name, value)| (name, Object::Built(value))).collect(),
            ),
            (_, other) => Err(not_a_state(source, ValueRef::Built(&other))),
        }
    }

    /// The state of a JSON document read where it lies, its objects kept there.
    fn from_in_text(source: &str, document: &InTextDocument) -> Result<Self, InputError> {
        let root = document.root();
        let taped = |value: ValueRef| document.hold(value).map_or_else(|| Object::Built(value.to_value()), Object::InText);
        match shape_of(source, root)? {
            Shape::List => State::from_items(
                source,
                Within::List(""),
                root.items().map(taped).collect(),
                Form::List,
            ),
            Shape::KubernetesList => {
                let envelope = root
                    .fields()
                    .filter(|(name, _)| *name != "items")
                    .map(|(name, value)| (name.to_string(), value.to_value()))
                    .collect();
                let items = root.get("items").map(|items| items.items());
                State::from_items(
                    source,
                    Within::List("/items"),
                    items.into_iter().flatten().map(taped).collect(),
                    Form::KubernetesList { envelope },
                )
            }
            Shape::Single => State::from_items(source, Within::Single, vec![taped(root)], Form::List),
            Shape::Named => State::from_named(
                source,
                root.fields().map(|(name, value)| (name.to_string(), taped(value))).collect(),
            ),
        }
    }

    fn from_named(source: &str, fields: Vec<(String, Object)>) -> Result<Self, InputError> {
        let mut objects = BTreeMap::new();
        for (name, object) in fields {
            if !object.view().is_object() {
                return Err(InputError::shape(
                    source,
                    format!("/{}", escape(&name)),
                    format!("`{name}` should be an object, found {}", describe(object.view())),
                ));
            }
            objects.insert(Key::from(name), Arc::new(object));
        }
        Ok(State::of(Form::Named, objects))
    }

    fn from_items(
        source: &str,
        within: Within,
        items: Vec<Object>,
        form: Form,
    ) -> Result<Self, InputError> {
        let mut objects = BTreeMap::new();
        let mut keys: Vec<Key> = Vec::with_capacity(items.len());
        for (index, item) in items.into_iter().enumerate() {
            let key = Key::from(
                kubernetes_key(item.view())
                    .map_err(|problem| within.shape_error(source, index, problem))?,
            );
            let place = match objects.entry(key) {
                Entry::Vacant(place) => place,
                Entry::Occupied(taken) => {
                    let key = taken.key();
                    let first = keys.iter().position(|earlier| earlier == key).unwrap_or_default();
                    let (first, second) = within.numbers(first, index);
                    return Err(InputError::duplicate_key(
                        source,
                        key,
                        format!("two objects have the key {key} ({first} and {second})"),
                    ));
                }
            };
            keys.push(Key::clone(place.key()));
            place.insert(Arc::new(item));
        }
        Ok(State::of(form, objects))
    }
}

/// Values as objects of a state.
fn built(values: Vec<Value>) -> Vec<Object> {
    values.into_iter().map(Object::Built).collect()
}

/// Which of its forms a state's document is in.
pub(super) enum Shape {
    Named,
    List,
    KubernetesList,
    /// One Kubernetes object written alone.
    Single,
}

pub(super) fn shape_of(source: &str, document: ValueRef) -> Result<Shape, InputError> {
    let text = |name: &str| document.get(name).is_some_and(|value| value.kind() == Kind::String);
    match document.kind() {
        Kind::Array => Ok(Shape::List),
        Kind::Object if is_kubernetes_list(document) => Ok(Shape::KubernetesList),
        // A single Kubernetes object has a text `kind`, which an object of the
        // lesson's form (whose entries are all objects) cannot have.
        Kind::Object if text("kind") => Ok(Shape::Single),
        Kind::Object if text("apiVersion") => Err(InputError::shape(
            source,
            "",
            "a Kubernetes object needs `kind` (this one has `apiVersion` but no `kind`)",
        )),
        Kind::Object => Ok(Shape::Named),
        _ => Err(not_a_state(source, document)),
    }
}

fn not_a_state(source: &str, document: ValueRef) -> InputError {
    InputError::shape(
        source,
        "",
        format!(
            "a state is an object of named objects, a list of Kubernetes objects, \
             or a Kubernetes List; found {}",
            describe(document)
        ),
    )
}

fn is_kubernetes_list(fields: ValueRef) -> bool {
    let kind = fields.get("kind").and_then(ValueRef::as_str).unwrap_or("");
    kind.ends_with("List") && fields.get("items").is_some_and(ValueRef::is_array)
}

/// Where the Kubernetes objects of a state sit: in a JSON list (at a
/// pointer), or as the documents of a YAML stream.
#[derive(Clone, Copy)]
enum Within<'a> {
    List(&'a str),
    Stream,
    /// One object written alone, not in a list.
    Single,
}

impl Within<'_> {
    fn shape_error(self, source: &str, index: usize, problem: KeyProblem) -> InputError {
        match self {
            Within::List(base) => InputError::shape(
                source,
                format!("{base}/{index}{}", problem.pointer),
                problem.message,
            ),
            Within::Stream => InputError::shape(
                source,
                problem.pointer,
                format!("document {}: {}", index + 1, problem.message),
            ),
            Within::Single => InputError::shape(source, problem.pointer, problem.message),
        }
    }

    /// How a person counts two positions: items from 0, documents from 1.
    fn numbers(self, first: usize, second: usize) -> (String, String) {
        match self {
            Within::List(_) | Within::Single => (format!("items {first}"), second.to_string()),
            Within::Stream => (format!("documents {}", first + 1), (second + 1).to_string()),
        }
    }
}

struct KeyProblem {
    pointer: &'static str,
    message: String,
}

/// The key of a Kubernetes object, or none when it is not one.
pub fn key_of<'a>(object: impl Into<ValueRef<'a>>) -> Option<String> {
    kubernetes_key(object.into()).ok()
}

/// The key of a Kubernetes object: `Kind/namespace/name` with the namespace
/// it lands in (`namespace_of`: the destination namespace when it names none,
/// as Argo CD's `NormalizeTargetObjects` sets it before `GetResourceKey`), or
/// `Kind/name` for a cluster-scoped one.
fn kubernetes_key(object: ValueRef) -> Result<String, KeyProblem> {
    if !object.is_object() {
        return Err(KeyProblem {
            pointer: "",
            message: format!(
                "a Kubernetes object should be an object, found {}",
                describe(object)
            ),
        });
    }
    let kind = required_string(object.get("kind"), "", "kind")?;
    let metadata = match object.get("metadata") {
        Some(metadata) if metadata.is_object() => metadata,
        Some(other) => {
            return Err(KeyProblem {
                pointer: "/metadata",
                message: format!("`metadata` should be an object, found {}", describe(other)),
            })
        }
        None => {
            return Err(KeyProblem {
                pointer: "",
                message: format!("this {kind} has no `metadata`, so it has no name"),
            })
        }
    };
    let written = metadata.get("name");
    let name = match (written, generated_name(object, kind)) {
        (None, Some(generated)) => generated?,
        (Some(name), Some(generated)) if name.is_null() || name.as_str() == Some("") => generated?,
        (name, _) => required_string(name, "/metadata", "name")?,
    };
    if let Some(other) = metadata
        .get("namespace")
        .filter(|namespace| !matches!(namespace.kind(), Kind::String | Kind::Null))
    {
        return Err(KeyProblem {
            pointer: "/metadata/namespace",
            message: format!(
                "`metadata.namespace` should be a string, found {}",
                describe(other)
            ),
        });
    }
    match namespace_of(object) {
        None => Ok(format!("{kind}/{name}")),
        Some(namespace) => Ok(format!("{kind}/{namespace}/{name}")),
    }
}

/// What names a hook written with `metadata.generateName` and no name: its
/// generateName, as Argo CD keys it until a sync names it
/// (`NormalizeTargetObjects`; gitops-engine's `getSyncTasks` makes the
/// name at run time). Any other object needs a name: kubectl's apply, and
/// so Argo CD's sync, refuses one with only a generateName ("cannot use
/// generate name with apply").
fn generated_name<'a>(object: ValueRef<'a>, kind: &str) -> Option<Result<&'a str, KeyProblem>> {
    let prefix = hook_annotations::generate_name(object)?;
    if hook_annotations::is_hook(object) {
        return Some(Ok(prefix));
    }
    Some(Err(KeyProblem {
        pointer: "/metadata",
        message: format!(
            "this {kind} has `metadata.generateName` ({prefix}) but no `metadata.name`: only \
             a hook (annotated argocd.argoproj.io/hook or helm.sh/hook) may, for Argo CD names it when a sync \
             runs it; kubectl's apply, and so Argo CD's sync, refuses any other object without \
             a name (\"from {prefix}: cannot use generate name with apply\"). Give it \
             `metadata.name`"
        ),
    }))
}

fn required_string<'a>(
    value: Option<ValueRef<'a>>,
    parent: &'static str,
    field: &str,
) -> Result<&'a str, KeyProblem> {
    if let Some(text) = value.and_then(ValueRef::as_str).filter(|text| !text.is_empty()) {
        return Ok(text);
    }
    let (pointer, dotted) = match parent {
        "" => ("", field.to_string()),
        _ => (parent, format!("metadata.{field}")),
    };
    match value.map(|value| (value, value.as_str())) {
        Some((_, Some(_))) => Err(KeyProblem {
            pointer,
            message: format!("`{dotted}` is empty"),
        }),
        Some((other, None)) => Err(KeyProblem {
            pointer,
            message: format!("`{dotted}` should be a string, found {}", describe(other)),
        }),
        None => Err(KeyProblem {
            pointer,
            message: format!("a Kubernetes object needs `{dotted}`"),
        }),
    }
}

/// A JSON value's type, for messages: "a number", "an array", ...
pub fn describe<'a>(value: impl Into<ValueRef<'a>>) -> &'static str {
    match value.into().kind() {
        Kind::Null => "null",
        Kind::Bool => "a boolean",
        Kind::Number => "a number",
        Kind::String => "a string",
        Kind::Array => "an array",
        Kind::Object => "an object",
    }
}

//! A state: the objects of an environment, by key. It is read from one of
//! three forms and written back in the form it was read from.

pub mod hooks;
pub mod kinds;
pub mod meta;
pub mod namespace;
pub mod object;
pub mod pairs;
pub mod places;
pub mod protection;
mod recent_reads;
pub mod render;
mod reread;

pub use recent_reads::{free_retired_reads, retired_reads_waiting};

use crate::error::InputError;
use crate::pointer::escape;
use crate::state::namespace::namespace_of;
pub use crate::state::object::Object;
use crate::text::document;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Whether a desired and an actual state can be compared, since a sync
/// writes desired objects into the actual state: both in the lesson's form,
/// or both of Kubernetes objects (an empty state goes with either). Else
/// why not, naming each state as `desired_name` and `actual_name` do.
pub fn forms_agree(
    desired: &State,
    desired_name: &str,
    actual: &State,
    actual_name: &str,
) -> Result<(), String> {
    let named = |state: &State| matches!(state.form(), Form::Named);
    if desired.is_empty() || actual.is_empty() || named(desired) == named(actual) {
        return Ok(());
    }
    let form_name = |state: &State| {
        if named(state) {
            "named objects (the lesson's form)"
        } else {
            "Kubernetes objects"
        }
    };
    Err(format!(
        "{desired_name} holds {} and {actual_name} holds {}; a sync writes the desired objects \
         into the actual state, so write both in one form: both as named objects, or both as \
         Kubernetes objects (with apiVersion, kind and metadata)",
        form_name(desired),
        form_name(actual)
    ))
}

/// How a state was written, so that it can be written back the same way.
#[derive(Debug, Clone, PartialEq)]
pub enum Form {
    /// The lesson's form: `{"web": {...}, "api": {...}}`, keyed by name.
    Named,
    /// A JSON array of Kubernetes objects (or a single object).
    List,
    /// A Kubernetes `List` (`{"kind": "List", "items": [...]}`); the fields
    /// other than `items` are kept as they were.
    KubernetesList { envelope: Map<String, Value> },
}

/// The objects of one environment, ordered by key. Copies share their
/// objects, and a changed copy shares the objects it did not change, so a
/// copy costs nothing and an object that did not change is the same object
/// (which lets the core skip work it did a moment ago).
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    form: Form,
    objects: Arc<BTreeMap<Key, Arc<Object>>>,
}

/// An object's key, shared: a changed copy of a state and a report about it
/// hold the keys without copying them.
pub type Key = Arc<str>;

impl State {
    pub fn empty(form: Form) -> Self {
        State {
            form,
            objects: Arc::default(),
        }
    }

    pub fn new(form: Form, objects: BTreeMap<String, Value>) -> Self {
        State {
            form,
            objects: Arc::new(crate::collect::map_of(
                objects
                    .into_iter()
                    .map(|(key, object)| (Key::from(key), Arc::new(Object::Built(object)))),
            )),
        }
    }

    /// Reads a state from JSON or YAML text; `source` names it in errors.
    /// Several YAML documents (`---`) are a list of Kubernetes objects. Text
    /// with no document at all is an empty state in the lesson's form.
    /// Nothing read before is looked at; `read_cached` remembers reads.
    pub fn read_afresh(source: &str, text: &str) -> Result<Self, InputError> {
        if text.trim().is_empty() {
            return Ok(State::empty(Form::Named));
        }
        let mut documents = document::parse_documents(source, text)?;
        match documents.len() {
            0 => Ok(State::empty(Form::Named)),
            1 => State::from_value(source, documents.remove(0)),
            _ => State::from_items(source, Within::Stream, documents, Form::List),
        }
    }

    /// Reads a state from a JSON value; `source` names it in errors.
    pub fn from_value(source: &str, value: Value) -> Result<Self, InputError> {
        match value {
            Value::Array(items) => State::from_items(source, Within::List(""), items, Form::List),
            Value::Object(fields) if is_kubernetes_list(&fields) => {
                let mut envelope = fields;
                let Some(Value::Array(items)) = envelope.remove("items") else {
                    unreachable!("is_kubernetes_list checked that `items` is an array")
                };
                State::from_items(
                    source,
                    Within::List("/items"),
                    items,
                    Form::KubernetesList { envelope },
                )
            }
            Value::Object(fields) if is_kubernetes_object(&fields) => State::from_items(
                source,
                Within::Single,
                vec![Value::Object(fields)],
                Form::List,
            ),
            Value::Object(fields) if fields.get("apiVersion").is_some_and(Value::is_string) => {
                Err(InputError::shape(
                    source,
                    "",
                    "a Kubernetes object needs `kind` (this one has `apiVersion` but no `kind`)",
                ))
            }
            Value::Object(fields) => State::from_named(source, fields),
            other => Err(InputError::shape(
                source,
                "",
                format!(
                    "a state is an object of named objects, a list of Kubernetes objects, \
                     or a Kubernetes List; found {}",
                    describe(&other)
                ),
            )),
        }
    }

    fn from_named(source: &str, fields: Map<String, Value>) -> Result<Self, InputError> {
        let mut objects = BTreeMap::new();
        for (name, value) in fields {
            if !value.is_object() {
                return Err(InputError::shape(
                    source,
                    format!("/{}", escape(&name)),
                    format!("`{name}` should be an object, found {}", describe(&value)),
                ));
            }
            objects.insert(name, value);
        }
        Ok(State::new(Form::Named, objects))
    }

    fn from_items(
        source: &str,
        within: Within,
        items: Vec<Value>,
        form: Form,
    ) -> Result<Self, InputError> {
        let mut objects = BTreeMap::new();
        let mut positions = BTreeMap::new();
        for (index, item) in items.into_iter().enumerate() {
            let key = kubernetes_key(&item)
                .map_err(|problem| within.shape_error(source, index, problem))?;
            if let Some(first) = positions.insert(key.clone(), index) {
                let (first, second) = within.numbers(first, index);
                return Err(InputError::duplicate_key(
                    source,
                    &key,
                    format!("two objects have the key {key} ({first} and {second})"),
                ));
            }
            objects.insert(key, item);
        }
        Ok(State::new(form, objects))
    }

    pub fn form(&self) -> &Form {
        &self.form
    }

    pub fn objects(&self) -> &BTreeMap<Key, Arc<Object>> {
        &self.objects
    }

    /// Whether both hold the same objects, whatever their forms; a copy is
    /// known to without looking.
    pub fn same_objects(&self, other: &State) -> bool {
        Arc::ptr_eq(&self.objects, &other.objects) || self.objects == other.objects
    }

    /// The object at `key` as a value (built, if it was read into a tape).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.objects.get(key).map(|object| object.value())
    }

    /// The object at `key`, as it is kept.
    pub fn object(&self, key: &str) -> Option<&Arc<Object>> {
        self.objects.get(key)
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    pub fn insert(&mut self, key: impl Into<Key>, object: impl Into<Object>) {
        Arc::make_mut(&mut self.objects).insert(key.into(), Arc::new(object.into()));
    }

    /// Puts `object` at `key`, shared with whoever else holds it.
    pub fn insert_shared(&mut self, key: impl Into<Key>, object: Arc<Object>) {
        Arc::make_mut(&mut self.objects).insert(key.into(), object);
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        if !self.objects.contains_key(key) {
            return None;
        }
        Arc::make_mut(&mut self.objects)
            .remove(key)
            .map(|object| Arc::unwrap_or_clone(object).into_value())
    }

    fn values(&self) -> Vec<Value> {
        self.objects
            .values()
            .map(|object| object.value().clone())
            .collect()
    }

    /// Puts `object` in place of the object at `old_key`, under `key`; the
    /// other objects stay shared with the copies of this state.
    pub(crate) fn replace(&mut self, old_key: &str, key: String, object: Value) {
        let objects = Arc::make_mut(&mut self.objects);
        objects.remove(old_key);
        objects.insert(key.into(), Arc::new(Object::Built(object)));
    }

    /// The state as JSON, in the form it was read from, objects in key order.
    pub fn to_value(&self) -> Value {
        match &self.form {
            Form::Named => Value::Object(
                self.objects
                    .iter()
                    .map(|(key, object)| (key.to_string(), object.value().clone()))
                    .collect(),
            ),
            Form::List => Value::Array(self.values()),
            Form::KubernetesList { envelope } => {
                let mut list = envelope.clone();
                list.insert("items".into(), Value::Array(self.values()));
                Value::Object(list)
            }
        }
    }
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

fn is_kubernetes_list(fields: &Map<String, Value>) -> bool {
    let kind = fields.get("kind").and_then(Value::as_str).unwrap_or("");
    kind.ends_with("List") && fields.get("items").is_some_and(Value::is_array)
}

/// A single Kubernetes object: it has a text `kind`, which an object of the
/// lesson's form (whose entries are all objects) cannot have.
fn is_kubernetes_object(fields: &Map<String, Value>) -> bool {
    fields.get("kind").is_some_and(Value::is_string)
}

struct KeyProblem {
    pointer: &'static str,
    message: String,
}

/// The key of a Kubernetes object, or none when it is not one.
pub fn key_of(object: &Value) -> Option<String> {
    kubernetes_key(object).ok()
}

/// The key of a Kubernetes object: `Kind/namespace/name` with the namespace
/// it lands in (`namespace_of`: the destination namespace when it names none,
/// as Argo CD's `NormalizeTargetObjects` sets it before `GetResourceKey`), or
/// `Kind/name` for a cluster-scoped one.
fn kubernetes_key(object: &Value) -> Result<String, KeyProblem> {
    let Value::Object(fields) = object else {
        return Err(KeyProblem {
            pointer: "",
            message: format!(
                "a Kubernetes object should be an object, found {}",
                describe(object)
            ),
        });
    };
    let kind = required_string(fields.get("kind"), "", "kind")?;
    let metadata = match fields.get("metadata") {
        Some(Value::Object(metadata)) => metadata,
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
    let name = match (metadata.get("name"), generated_name(object, kind)) {
        (None | Some(Value::Null), Some(generated)) => generated?,
        (Some(Value::String(name)), Some(generated)) if name.is_empty() => generated?,
        (name, _) => required_string(name, "/metadata", "name")?,
    };
    if let Some(other) = metadata
        .get("namespace")
        .filter(|namespace| !namespace.is_string() && !namespace.is_null())
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
fn generated_name<'a>(object: &'a Value, kind: &str) -> Option<Result<&'a str, KeyProblem>> {
    let prefix = hooks::generate_name(object)?;
    if hooks::is_hook(object) {
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
    value: Option<&'a Value>,
    parent: &'static str,
    field: &str,
) -> Result<&'a str, KeyProblem> {
    let (pointer, dotted) = match parent {
        "" => ("", field.to_string()),
        _ => (parent, format!("metadata.{field}")),
    };
    match value {
        Some(Value::String(text)) if !text.is_empty() => Ok(text),
        Some(Value::String(_)) => Err(KeyProblem {
            pointer,
            message: format!("`{dotted}` is empty"),
        }),
        Some(other) => Err(KeyProblem {
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
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

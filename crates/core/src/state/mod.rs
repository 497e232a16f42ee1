//! A state: the objects of an environment, by key. It is read from one of
//! three forms and written back in the form it was read from.

pub(crate) mod file_reads;
pub mod defaults;
pub mod string_maps;
pub mod hook_annotations;
pub mod kinds;
pub mod meta;
pub mod namespace;
pub mod object;
pub mod pairs;
pub mod places;
pub mod protection;
mod read;
pub(crate) mod recent_reads;
pub mod render;
mod reread;

pub use read::{describe, key_of};
pub use recent_reads::SHORTEST_KEPT;

pub use crate::state::object::Object;
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

    fn of(form: Form, objects: BTreeMap<Key, Arc<Object>>) -> Self {
        State {
            form,
            objects: Arc::new(objects),
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

    /// Whether both hold the very same objects as one map: a copy, unchanged
    /// since, known without looking at an object.
    pub(crate) fn shares_objects(&self, other: &State) -> bool {
        Arc::ptr_eq(&self.objects, &other.objects)
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
            .map(|object| object.to_value())
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
                    .map(|(key, object)| (key.to_string(), object.to_value()))
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


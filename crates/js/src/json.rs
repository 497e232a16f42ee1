//! A JavaScript value read as JSON, for the API module and the page alike:
//! one conversion, one wording of what it cannot read.

use gitops_core::error::InputError;
use gitops_core::pointer;
use gitops_core::text::json::{MAX_DEPTH, MAX_DOCUMENT_BYTES};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess};
use serde_json::{Map, Number, Value};
use std::cell::{Cell, RefCell};
use std::fmt;
use wasm_bindgen::{JsCast, JsValue};

/// Reads a JavaScript value as JSON: null (or undefined), booleans, finite
/// numbers and BigInts within 64 bits, strings (a lone surrogate reads as
/// U+FFFD, as in a text),
/// arrays and plain objects. Nesting is capped at `MAX_DEPTH` and the size
/// at `MAX_DOCUMENT_BYTES` of JSON text, so a cyclic or huge object is an
/// error, not a stack overflow. What JSON cannot carry (a cycle, a function,
/// a symbol, NaN, a larger BigInt) is a shape error at its pointer that says what.
pub fn json_of(source: &str, value: JsValue) -> Result<Value, InputError> {
    let reading = Reading {
        budget: Cell::new(MAX_DOCUMENT_BYTES),
        too_large: Cell::new(false),
        failed_inside: RefCell::new(Vec::new()),
    };
    let result = JsonSeed {
        depth: 0,
        reading: &reading,
    }
    .deserialize(serde_wasm_bindgen::Deserializer::from(value.clone()));
    result.map_err(|error| {
        if reading.too_large.get() {
            return InputError::too_large(source, plain_message(&error.to_string()));
        }
        // Only once reading failed: a walk that says what JSON cannot carry.
        match Walk::default().find(&value) {
            Some((pointer, problem)) => InputError::shape(source, pointer, problem),
            None => InputError::shape(
                source,
                reading.failed_at(),
                plain_message(&error.to_string()),
            ),
        }
    })
}

/// A `serde-wasm-bindgen` error's message without its JavaScript dressing:
/// `Error: invalid type: JsValue(Function(run)), ...` reads
/// `invalid type: a function, ...`.
fn plain_message(message: &str) -> String {
    let message = message.strip_prefix("Error: ").unwrap_or(message);
    let Some(rest) = message.strip_prefix("invalid type: JsValue(") else {
        return message.to_string();
    };
    let what = [("Function", "a function"), ("Symbol", "a symbol")]
        .into_iter()
        .find(|(name, _)| rest.starts_with(name))
        .map_or("a value JSON cannot hold", |(_, what)| what);
    match message.split_once(", expected ") {
        Some((_, expected)) => format!("invalid type: {what}, expected {expected}"),
        None => format!("invalid type: {what}"),
    }
}

struct Reading {
    /// About how many bytes of JSON text are left before the value is too large.
    budget: Cell<usize>,
    too_large: Cell<bool>,
    /// The keys and indices of the value that failed, innermost first: each
    /// array and object adds its own as the failure leaves it.
    failed_inside: RefCell<Vec<String>>,
}

impl Reading {
    fn failed_inside<E>(&self, key: String, error: E) -> E {
        self.failed_inside.borrow_mut().push(key);
        error
    }

    fn failed_at(&self) -> String {
        let mut keys = self.failed_inside.borrow().clone();
        keys.reverse();
        pointer_of(&keys)
    }

    fn charge<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        match self.budget.get().checked_sub(bytes) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => {
                self.too_large.set(true);
                Err(E::custom(format!(
                    "the value is larger than the playground reads: more than {} MB as JSON",
                    MAX_DOCUMENT_BYTES / (1024 * 1024)
                )))
            }
        }
    }
}

#[derive(Clone, Copy)]
struct JsonSeed<'r> {
    /// How many arrays and objects enclose the value.
    depth: usize,
    reading: &'r Reading,
}

impl JsonSeed<'_> {
    fn enter<E: de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format!(
                "the value is nested too deeply (more than {MAX_DEPTH} levels); \
                 does an object contain itself?"
            )));
        }
        self.reading.charge(2)?;
        Ok(JsonSeed {
            depth: self.depth + 1,
            reading: self.reading,
        })
    }
}

impl<'de> DeserializeSeed<'de> for JsonSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> de::Visitor<'de> for JsonSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value (null, a boolean, a number, a string, an array or an object)")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.reading.charge(4)?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        self.reading.charge(5)?;
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        self.reading.charge(8)?;
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        self.reading.charge(8)?;
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        self.reading.charge(8)?;
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("{value} is not a JSON number")))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
        self.visit_string(value.to_string())
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Value, E> {
        self.reading.charge(value.len() + 2)?;
        Ok(Value::String(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.enter()?;
        let mut items = Vec::new();
        loop {
            let next = seq.next_element_seed(inner);
            let Some(item) =
                next.map_err(|error| self.reading.failed_inside(items.len().to_string(), error))?
            else {
                break;
            };
            self.reading.charge(1)?;
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.enter()?;
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            self.reading.charge(key.len() + 4)?;
            let value = map
                .next_value_seed(inner)
                .map_err(|error| self.reading.failed_inside(key.clone(), error))?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

/// A walk through a value as JSON would write it, to find what it cannot
/// carry: the keys down to where it is, and the objects that hold it (a
/// cycle is one of them again).
#[derive(Default)]
struct Walk {
    path: Vec<String>,
    holders: Vec<JsValue>,
}

impl Walk {
    /// The pointer and the problem of the first value JSON cannot carry.
    fn find(&mut self, value: &JsValue) -> Option<(String, String)> {
        // A BigInt within 64 bits reads as its number; a larger one cannot.
        if value.is_bigint()
            && i64::try_from(value.clone()).is_err()
            && u64::try_from(value.clone()).is_err()
        {
            let digits = js_sys::BigInt::unchecked_from_js_ref(value)
                .to_string(10)
                .map(String::from)
                .unwrap_or_default();
            return Some((
                self.pointer(),
                format!("a BigInt ({digits}n) is outside the 64-bit integers the playground reads"),
            ));
        }
        if !value.is_object() || value.is_function() {
            return None;
        }
        if let Some(at) = self
            .holders
            .iter()
            .position(|holder| js_sys::Object::is(holder, value))
        {
            let held_by = match at {
                0 => "the top level".to_string(),
                _ => pointer_of(&self.path[..at]),
            };
            return Some((
                self.pointer(),
                format!("this refers back to {held_by}: a cycle, which JSON cannot write"),
            ));
        }
        if self.holders.len() >= MAX_DEPTH {
            return Some((
                self.pointer(),
                format!("the value is nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        let entries: Vec<(String, JsValue)> = if js_sys::Array::is_array(value) {
            js_sys::Array::unchecked_from_js_ref(value)
                .iter()
                .enumerate()
                .map(|(index, item)| (index.to_string(), item))
                .collect()
        } else {
            js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>())
                .iter()
                .filter_map(|key| {
                    let item = js_sys::Reflect::get(value, &key).ok()?;
                    Some((key.as_string()?, item))
                })
                .collect()
        };
        self.holders.push(value.clone());
        for (key, item) in entries {
            self.path.push(key);
            let found = self.find(&item);
            self.path.pop();
            if found.is_some() {
                return found;
            }
        }
        self.holders.pop();
        None
    }

    fn pointer(&self) -> String {
        pointer_of(&self.path)
    }
}

/// The JSON pointer (RFC 6901) of the value under `keys`.
fn pointer_of(keys: &[String]) -> String {
    keys.iter()
        .map(|key| format!("/{}", pointer::escape(key)))
        .collect()
}

//! A JavaScript value read as JSON, for the API module and the page alike:
//! one conversion, one wording of what it cannot read.

use gitops_core::error::InputError;
use gitops_core::pointer;
use gitops_core::text::json::{MAX_DEPTH, MAX_DOCUMENT_BYTES};
use js_sys::{Array, Object};
use serde_json::{Map, Number, Value};
use wasm_bindgen::{JsCast, JsValue};

/// Reads a JavaScript value as JSON: null (or undefined), booleans, finite
/// numbers, strings (a lone surrogate reads as U+FFFD, as in a text), arrays
/// and plain objects. Nesting is capped at `MAX_DEPTH` and the size at
/// `MAX_DOCUMENT_BYTES` of JSON text, so a cyclic or huge object is an error,
/// not a stack overflow. What JSON cannot carry as it is (a cycle, a function,
/// a symbol, NaN, a BigInt, a Date or another object of a class) is a shape
/// error at its pointer that says what, as `JSON.stringify` throws on a
/// BigInt rather than guess.
pub fn json_of(source: &str, value: JsValue) -> Result<Value, InputError> {
    let mut reading = Reading {
        budget: MAX_DOCUMENT_BYTES,
    };
    reading.value(&value, 0).map_err(|failure| {
        let mut keys = failure.inside;
        keys.reverse();
        match failure.problem {
            Problem::TooLarge => InputError::too_large(
                source,
                format!(
                    "the value is larger than the playground reads: more than {} MB as JSON",
                    MAX_DOCUMENT_BYTES / (1024 * 1024)
                ),
            ),
            // Only once reading failed: a walk that tells a cycle from depth.
            Problem::TooDeep => match Walk::default().find(&value) {
                Some((pointer, problem)) => InputError::shape(source, pointer, problem),
                None => InputError::shape(source, pointer_of(&keys), too_deep()),
            },
            Problem::Cannot(problem) => InputError::shape(source, pointer_of(&keys), problem),
        }
    })
}

struct Reading {
    /// About how many bytes of JSON text are left before the value is too large.
    budget: usize,
}

enum Problem {
    TooLarge,
    TooDeep,
    Cannot(String),
}

struct Failure {
    problem: Problem,
    /// The keys and indices of the value that failed, innermost first: each
    /// array and object adds its own as the failure leaves it.
    inside: Vec<String>,
}

impl Failure {
    fn of(problem: Problem) -> Self {
        Failure {
            problem,
            inside: Vec::new(),
        }
    }

    fn cannot(problem: String) -> Self {
        Failure::of(Problem::Cannot(problem))
    }

    fn inside(mut self, key: String) -> Self {
        self.inside.push(key);
        self
    }
}

impl Reading {
    fn charge(&mut self, bytes: usize) -> Result<(), Failure> {
        self.budget = self
            .budget
            .checked_sub(bytes)
            .ok_or(Failure::of(Problem::TooLarge))?;
        Ok(())
    }

    fn value(&mut self, value: &JsValue, depth: usize) -> Result<Value, Failure> {
        if value.is_null() || value.is_undefined() {
            self.charge(4)?;
            return Ok(Value::Null);
        }
        if let Some(boolean) = value.as_bool() {
            self.charge(5)?;
            return Ok(Value::Bool(boolean));
        }
        if let Some(number) = value.as_f64() {
            self.charge(8)?;
            return number_of(number).map(Value::Number);
        }
        if let Some(text) = value.as_string() {
            self.charge(text.len() + 2)?;
            return Ok(Value::String(text));
        }
        if !value.is_object() {
            return Err(Failure::cannot(not_json(value)));
        }
        if depth >= MAX_DEPTH {
            return Err(Failure::of(Problem::TooDeep));
        }
        self.charge(2)?;
        if Array::is_array(value) {
            let items = Array::unchecked_from_js_ref(value);
            let mut values = Vec::with_capacity(items.length() as usize);
            for (index, item) in items.iter().enumerate() {
                self.charge(1)?;
                values.push(
                    self.value(&item, depth + 1)
                        .map_err(|failure| failure.inside(index.to_string()))?,
                );
            }
            return Ok(Value::Array(values));
        }
        let object = value.unchecked_ref::<Object>();
        if let Some(class) = class_of(object) {
            return Err(Failure::cannot(not_plain(&class)));
        }
        let mut fields = Map::new();
        for key in Object::keys(object).iter() {
            let Some(name) = key.as_string() else {
                continue;
            };
            self.charge(name.len() + 4)?;
            let item = js_sys::Reflect::get(value, &key).map_err(|_| {
                Failure::cannot("reading this property threw".into()).inside(name.clone())
            })?;
            let field = self
                .value(&item, depth + 1)
                .map_err(|failure| failure.inside(name.clone()))?;
            fields.insert(name, field);
        }
        Ok(Value::Object(fields))
    }
}

/// A finite number as JSON holds it: an integer JavaScript counts exactly as
/// an integer, any other as a float.
fn number_of(number: f64) -> Result<Number, Failure> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if number.fract() == 0.0 && number.abs() <= SAFE {
        return Ok(Number::from(number as i64));
    }
    Number::from_f64(number)
        .ok_or_else(|| Failure::cannot(format!("{number} is not a JSON number")))
}

/// The class of an object that is not plain (its prototype is neither null
/// nor an `Object.prototype`, of this realm or another).
fn class_of(object: &Object) -> Option<String> {
    let prototype = Object::get_prototype_of(object);
    if prototype.is_null() || Object::get_prototype_of(&prototype).is_null() {
        return None;
    }
    let name = String::from(object.constructor().name());
    Some(if name.is_empty() {
        "an anonymous class".into()
    } else {
        name
    })
}

fn not_plain(class: &str) -> String {
    match class {
        "Date" => "a Date, which JSON would write as its text: pass `date.toISOString()`".into(),
        "Map" => "a Map, which JSON would write as `{}`: pass `Object.fromEntries(map)`".into(),
        "Set" => "a Set, which JSON would write as `{}`: pass `[...set]`".into(),
        _ => format!(
            "an object of class {class}, not a plain object: JSON would drop what the class holds"
        ),
    }
}

/// What a value that is neither JSON nor an object is.
fn not_json(value: &JsValue) -> String {
    if value.is_bigint() {
        let digits = js_sys::BigInt::unchecked_from_js_ref(value)
            .to_string(10)
            .map(String::from)
            .unwrap_or_default();
        return format!(
            "a BigInt ({digits}n), which JSON cannot write: pass it as a number or a string"
        );
    }
    if value.is_function() {
        return "a function, which JSON cannot write".into();
    }
    if value.is_symbol() {
        return "a symbol, which JSON cannot write".into();
    }
    "a value JSON cannot hold".into()
}

fn too_deep() -> String {
    format!("the value is nested too deeply (more than {MAX_DEPTH} levels)")
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
            return Some((self.pointer(), too_deep()));
        }
        let entries: Vec<(String, JsValue)> = if Array::is_array(value) {
            Array::unchecked_from_js_ref(value)
                .iter()
                .enumerate()
                .map(|(index, item)| (index.to_string(), item))
                .collect()
        } else {
            Object::keys(value.unchecked_ref::<Object>())
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

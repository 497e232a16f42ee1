//! A typed value (a scenario, the core's options) read from a JSON value, with
//! the pointer of what does not fit: `/script/2/do: unknown variant …`.
//!
//! It reads the JSON value the way `serde_json::from_value` does, and keeps
//! the pointer as it goes down. `serde_path_to_error` would say the same by
//! wrapping that reader, but its wrapper doubles the code of every type read
//! through it (88 KB of the page's module); this reader made the module
//! 9.4 KB gzipped smaller. `serde_path_to_error` is its oracle in the tests.
//!
//! One thing it refuses that `serde_json` reads: a struct written as an array
//! (whose items `serde_json` takes as the fields in order). Nobody writes a
//! scenario's objects so, and refusing it leaves every struct's reader of
//! arrays out of the page's module (6.5 KB gzipped).

use crate::error::InputError;
use crate::pointer;
use serde::de::value::StrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde_json::{Map, Number, Value};
use std::fmt;

/// `value` read as a `T`; what does not fit is a shape error of `source` at its pointer.
pub fn typed<T: DeserializeOwned>(source: &str, value: Value) -> Result<T, InputError> {
    read(value)
        .map_err(|mismatch| InputError::shape(source, mismatch.pointer(), mismatch.message()))
}

/// A JSON `text` read as a `T`, as `serde_json::from_str` reads it but by way of a
/// value: one reader of each type serves every text and value, where
/// `serde_json::from_str` compiles one more for each type it reads. What does not fit
/// says where, as `/sessions/a: invalid type: ...`.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let value: Value = serde_json::from_str(text).map_err(|error| error.to_string())?;
    read(value).map_err(|mismatch| match mismatch.pointer() {
        "" => mismatch.message().to_string(),
        pointer => format!("{pointer}: {}", mismatch.message()),
    })
}

/// `value` read as a `T`, or where and why it does not fit.
pub fn read<T: DeserializeOwned>(value: Value) -> Result<T, Mismatch> {
    T::deserialize(Located {
        value,
        at: &Place::Root,
    })
    .map_err(|mismatch| mismatch.at(&Place::Root))
}

/// Why a value does not fit its type, and where: the pointer of the deepest
/// value that did not (a struct's for a field it lacks). Boxed, as
/// `serde_json`'s error is, so that every reader's result stays small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch(Box<Found>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    pointer: Option<String>,
    message: String,
}

impl Mismatch {
    pub fn pointer(&self) -> &str {
        self.0.pointer.as_deref().unwrap_or_default()
    }

    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The mismatch, placed at `place` unless a deeper value already placed it.
    #[inline(never)]
    fn at(mut self, place: &Place) -> Mismatch {
        if self.0.pointer.is_none() {
            self.0.pointer = Some(place.pointer());
        }
        self
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Mismatch {}

impl de::Error for Mismatch {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Mismatch(Box::new(Found {
            pointer: None,
            message: message.to_string(),
        }))
    }

    // Worded as `serde_json` words them: `null`, not `unit value`.
    fn invalid_type(unexpected: Unexpected, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!(
            "invalid type: {}, expected {expected}",
            Json(unexpected)
        ))
    }

    fn invalid_value(unexpected: Unexpected, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Json(unexpected)
        ))
    }
}

/// An unexpected value named as JSON names it.
struct Json<'a>(Unexpected<'a>);

impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Float(float) => match Number::from_f64(float) {
                Some(number) => write!(f, "floating point `{number}`"),
                None => f.write_str("floating point"),
            },
            other => other.fmt(f),
        }
    }
}

/// Where a value is, built on the way down and written out only for a mismatch.
enum Place<'a> {
    Root,
    Key(&'a Place<'a>, &'a str),
    Index(&'a Place<'a>, usize),
}

impl Place<'_> {
    fn pointer(&self) -> String {
        match self {
            Place::Root => String::new(),
            Place::Key(parent, key) => format!("{}/{}", parent.pointer(), pointer::escape(key)),
            Place::Index(parent, index) => format!("{}/{index}", parent.pointer()),
        }
    }
}

/// A JSON value and its place.
struct Located<'a> {
    value: Value,
    at: &'a Place<'a>,
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(flag) => Unexpected::Bool(*flag),
        Value::Number(number) => match number_of(number) {
            JsonNumber::Unsigned(unsigned) => Unexpected::Unsigned(unsigned),
            JsonNumber::Signed(signed) => Unexpected::Signed(signed),
            JsonNumber::Float(float) => Unexpected::Float(float),
        },
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// A JSON number as `serde_json` hands it to a visitor: unsigned if it can be,
/// else signed, else a float.
enum JsonNumber {
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

fn number_of(number: &Number) -> JsonNumber {
    match (number.as_u64(), number.as_i64()) {
        (Some(unsigned), _) => JsonNumber::Unsigned(unsigned),
        (None, Some(signed)) => JsonNumber::Signed(signed),
        _ => JsonNumber::Float(number.as_f64().unwrap_or(f64::NAN)),
    }
}

fn visit_number<'de, V: Visitor<'de>>(number: &Number, visitor: V) -> Result<V::Value, Mismatch> {
    match number_of(number) {
        JsonNumber::Unsigned(unsigned) => visitor.visit_u64(unsigned),
        JsonNumber::Signed(signed) => visitor.visit_i64(signed),
        JsonNumber::Float(float) => visitor.visit_f64(float),
    }
}

fn visit_array<'de, V: Visitor<'de>>(
    items: Vec<Value>,
    at: &Place,
    visitor: V,
) -> Result<V::Value, Mismatch> {
    let length = items.len();
    let mut items = Items {
        items: items.into_iter(),
        index: 0,
        at,
    };
    let read = visitor.visit_seq(&mut items)?;
    match items.items.len() {
        0 => Ok(read),
        _ => Err(de::Error::invalid_length(
            length,
            &"fewer elements in array",
        )),
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    entries: Map<String, Value>,
    at: &Place,
    visitor: V,
) -> Result<V::Value, Mismatch> {
    let length = entries.len();
    let mut entries = Entries {
        entries: entries.into_iter(),
        pending: None,
        at,
    };
    let read = visitor.visit_map(&mut entries)?;
    match entries.entries.len() {
        0 => Ok(read),
        _ => Err(de::Error::invalid_length(length, &"fewer elements in map")),
    }
}

/// The methods that read one kind of value. What they do not fit is placed
/// by whoever read the value (the array, object or variant that holds it, or
/// `read` for the whole), at the value's place.
macro_rules! read_as {
    ($($method:ident => $read:ident,)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
                self.$read(visitor)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Located<'_> {
    type Error = Mismatch;

    read_as! {
        deserialize_any => any,
        deserialize_bool => boolean,
        deserialize_i8 => number, deserialize_i16 => number, deserialize_i32 => number,
        deserialize_i64 => number, deserialize_i128 => number,
        deserialize_u8 => number, deserialize_u16 => number, deserialize_u32 => number,
        deserialize_u64 => number, deserialize_u128 => number,
        deserialize_f32 => number, deserialize_f64 => number,
        deserialize_char => text, deserialize_str => text, deserialize_string => text,
        deserialize_identifier => text,
        deserialize_bytes => bytes, deserialize_byte_buf => bytes,
        deserialize_option => option,
        deserialize_unit => unit,
        deserialize_seq => array,
        deserialize_map => object,
        deserialize_ignored_any => ignored,
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _length: usize,
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _length: usize,
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        self.object(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        let (name, value) = variant_of(self.value)?;
        visitor.visit_enum(Variant {
            name,
            value,
            parent: self.at,
        })
    }
}

/// An enum's variant and what it holds: a string is a variant that holds
/// nothing, an object of one entry a variant and what it holds.
fn variant_of(value: Value) -> Result<(String, Option<Value>), Mismatch> {
    match value {
        Value::String(name) => Ok((name, None)),
        Value::Object(entries) => {
            let length = entries.len();
            match entries.into_iter().next() {
                Some((name, value)) if length == 1 => Ok((name, Some(value))),
                _ => Err(de::Error::invalid_value(
                    Unexpected::Map,
                    &"map with a single key",
                )),
            }
        }
        other => Err(de::Error::invalid_type(
            unexpected(&other),
            &"string or map",
        )),
    }
}

impl<'de> Located<'_> {
    fn invalid_type(&self, expected: &dyn de::Expected) -> Mismatch {
        de::Error::invalid_type(unexpected(&self.value), expected)
    }

    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(flag) => visitor.visit_bool(flag),
            Value::Number(number) => visit_number(&number, visitor),
            Value::String(text) => visitor.visit_string(text),
            Value::Array(items) => visit_array(items, self.at, visitor),
            Value::Object(entries) => visit_object(entries, self.at, visitor),
        }
    }

    fn number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match &self.value {
            Value::Number(number) => visit_number(number, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn boolean<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::Bool(flag) => visitor.visit_bool(flag),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn text<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::String(text) => visitor.visit_string(text),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::String(text) => visitor.visit_string(text),
            Value::Array(items) => visit_array(items, self.at, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn array<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::Array(items) => visit_array(items, self.at, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn object<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        match self.value {
            Value::Object(entries) => visit_object(entries, self.at, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn ignored<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Mismatch> {
        visitor.visit_unit()
    }
}

/// An array's items, each at its index.
struct Items<'a> {
    items: std::vec::IntoIter<Value>,
    index: usize,
    at: &'a Place<'a>,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = Mismatch;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Mismatch> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let at = Place::Index(self.at, self.index);
        self.index += 1;
        seed.deserialize(Located { value, at: &at })
            .map(Some)
            .map_err(|mismatch| mismatch.at(&at))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's entries, each value (and a key that does not fit) at its key.
struct Entries<'a> {
    entries: serde_json::map::IntoIter,
    pending: Option<(String, Value)>,
    at: &'a Place<'a>,
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = Mismatch;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Mismatch> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        let read = seed
            .deserialize(StrDeserializer::<Mismatch>::new(&key))
            .map_err(|mismatch| mismatch.at(&Place::Key(self.at, &key)));
        self.pending = Some((key, value));
        read.map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Mismatch> {
        let Some((key, value)) = self.pending.take() else {
            return Err(de::Error::custom("a value was read before its key"));
        };
        let at = Place::Key(self.at, &key);
        seed.deserialize(Located { value, at: &at })
            .map_err(|mismatch| mismatch.at(&at))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An enum's variant (a string, or an object's one key) and what it holds,
/// which is placed at the variant's name.
struct Variant<'a> {
    name: String,
    value: Option<Value>,
    parent: &'a Place<'a>,
}

impl<'de, 'a> EnumAccess<'de> for Variant<'a> {
    type Error = Mismatch;
    type Variant = Variant<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Variant<'a>), Mismatch> {
        let read = seed.deserialize(StrDeserializer::<Mismatch>::new(&self.name))?;
        Ok((read, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_> {
    type Error = Mismatch;

    fn unit_variant(self) -> Result<(), Mismatch> {
        let at = Place::Key(self.parent, &self.name);
        match self.value {
            None => Ok(()),
            Some(value) => de::Deserialize::deserialize(Located { value, at: &at })
                .map_err(|mismatch| mismatch.at(&at)),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Mismatch> {
        let at = Place::Key(self.parent, &self.name);
        let read = match self.value {
            Some(value) => seed.deserialize(Located { value, at: &at }),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        };
        read.map_err(|mismatch| mismatch.at(&at))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _length: usize,
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        let at = Place::Key(self.parent, &self.name);
        let read = match self.value {
            // As `serde_json`: an empty array is a variant that holds nothing.
            Some(Value::Array(items)) if items.is_empty() => visitor.visit_unit(),
            Some(Value::Array(items)) => visit_array(items, &at, visitor),
            Some(other) => Err(de::Error::invalid_type(
                unexpected(&other),
                &"tuple variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        };
        read.map_err(|mismatch| mismatch.at(&at))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Mismatch> {
        let at = Place::Key(self.parent, &self.name);
        let read = match self.value {
            Some(Value::Object(entries)) => visit_object(entries, &at, visitor),
            Some(other) => Err(de::Error::invalid_type(
                unexpected(&other),
                &"struct variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        };
        read.map_err(|mismatch| mismatch.at(&at))
    }
}

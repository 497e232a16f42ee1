//! The reader of a JSON value at its place: a `serde` deserializer that
//! hands a visitor the value, and places what does not fit.

use super::{Mismatch, Place};
use access::{Entries, Items, Variant};
use serde::de::{self, Unexpected, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON value and its place.
pub(super) struct Located<'a> {
    pub(super) value: Value,
    pub(super) at: &'a Place<'a>,
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

mod access;

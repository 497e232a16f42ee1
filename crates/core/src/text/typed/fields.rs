//! An object's fields read one at a time, each by `serde` as its type, for the
//! readers written out by hand where a derived one would cost too much of the
//! page's packed wasm: a derived reader writes the walk over a struct's fields
//! for each struct, these functions are written once (docs/benchmarks.md).
//! What does not fit is worded as `serde` words it, and names the field.

use super::{read, Mismatch};
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The object `deserializer` holds, its fields taken by `fields`: a reader
/// written by hand. What does not fit is placed where the object is.
pub fn read_object<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    fields: impl FnOnce(&mut Map<String, Value>) -> Result<T, Mismatch>,
) -> Result<T, D::Error> {
    let mut entries = Map::<String, Value>::deserialize(deserializer)?;
    fields(&mut entries).map_err(|mismatch| D::Error::custom(mismatch.message()))
}

/// The first entry that is none of `known`, refused as `deny_unknown_fields` refuses it.
pub fn only_known(entries: &Map<String, Value>, known: &'static [&'static str]) -> Result<(), Mismatch> {
    match entries.keys().find(|name| !known.contains(&name.as_str())) {
        Some(unknown) => Err(Mismatch::unknown_field(unknown, known)),
        None => Ok(()),
    }
}

/// The entry `name` read as a `T`, taken out of `entries`; none when it is
/// absent or null.
pub fn optional<T: DeserializeOwned>(entries: &mut Map<String, Value>, name: &str) -> Result<Option<T>, Mismatch> {
    match entries.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => read(value)
            .map(Some)
            .map_err(|mismatch| Mismatch::custom(format_args!("`{name}{}`: {}", mismatch.pointer(), mismatch.message()))),
    }
}

/// The entry `name`, which must be there.
pub fn required<T: DeserializeOwned>(entries: &mut Map<String, Value>, name: &'static str) -> Result<T, Mismatch> {
    optional(entries, name)?.ok_or_else(|| Mismatch::missing_field(name))
}

/// The entry `name` as it is written, null too, which must be there.
pub fn any_value(entries: &mut Map<String, Value>, name: &'static str) -> Result<Value, Mismatch> {
    entries.remove(name).ok_or_else(|| Mismatch::missing_field(name))
}

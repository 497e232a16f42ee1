//! An object's fields made ready to be looked up by name many times.

#[cfg(feature = "tapes")]
use crate::text::tape;
use crate::value::ValueRef;

impl<'a> ValueRef<'a> {
    /// An object's fields, ready to be looked up by name many times
    /// (`Indexed::get`).
    pub fn indexed(self) -> Indexed<'a> {
        match self {
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) if item.count().unwrap_or_default() > FIELDS_FOLLOWED => {
                let mut fields: Vec<(&'a str, ValueRef<'a>)> = self.fields().collect();
                crate::collect::sort_by_key(&mut fields, |(name, _)| *name);
                Indexed::Sorted(fields)
            }
            #[cfg(feature = "tapes")]
            ValueRef::Taped(item) => Indexed::Cursor(item.cursor()),
            _ => Indexed::Object(self),
        }
    }
}

/// A tape's objects with at most this many fields are looked up through a
/// cursor (`tape::Cursor`), larger ones through their fields sorted by name.
#[cfg(feature = "tapes")]
const FIELDS_FOLLOWED: usize = 32;

/// An object's fields to look up by name (`ValueRef::indexed`): a tape's
/// object through a cursor that follows the order of the lookups, or a large
/// one sorted by name once, instead of read through at each lookup.
pub enum Indexed<'a> {
    Object(ValueRef<'a>),
    #[cfg(feature = "tapes")]
    Cursor(tape::Cursor<'a>),
    #[cfg(feature = "tapes")]
    Sorted(Vec<(&'a str, ValueRef<'a>)>),
}

impl<'a> Indexed<'a> {
    pub fn get(&self, name: &str) -> Option<ValueRef<'a>> {
        match self {
            Indexed::Object(object) => object.get(name),
            #[cfg(feature = "tapes")]
            Indexed::Cursor(cursor) => cursor.get(name).map(ValueRef::Taped),
            #[cfg(feature = "tapes")]
            Indexed::Sorted(fields) => fields
                .binary_search_by(|(field, _)| (*field).cmp(name))
                .ok()
                .map(|at| fields[at].1),
        }
    }
}

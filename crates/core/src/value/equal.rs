//! Two values compared as JSON values are, however each is kept.

#[cfg(feature = "tapes")]
use crate::value::Kind;
use crate::value::ValueRef;

/// Equal as JSON values are (an object's fields in any order), whether
/// built or in a tape.
impl PartialEq for ValueRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (*self, *other) {
            (ValueRef::Built(one), ValueRef::Built(other)) => one == other,
            #[cfg(feature = "tapes")]
            (ValueRef::Taped(taped), ValueRef::Built(built))
            | (ValueRef::Built(built), ValueRef::Taped(taped)) => taped == *built,
            #[cfg(feature = "tapes")]
            (one, other) => match (one.kind(), other.kind()) {
                (Kind::Null, Kind::Null) => true,
                (Kind::Bool, Kind::Bool) => one.as_bool() == other.as_bool(),
                (Kind::Number, Kind::Number) => one.as_number() == other.as_number(),
                (Kind::String, Kind::String) => one.text() == other.text(),
                (Kind::Array, Kind::Array) => {
                    one.count() == other.count() && one.items().zip(other.items()).all(|(a, b)| a == b)
                }
                (Kind::Object, Kind::Object) => {
                    let other_fields = other.indexed();
                    one.count() == other.count()
                        && one.fields().all(|(name, value)| other_fields.get(name) == Some(value))
                }
                _ => false,
            },
        }
    }
}

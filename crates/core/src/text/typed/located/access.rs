//! What the reader hands a visitor to read what a value holds: an array's
//! items, an object's entries, an enum's variant, each at its place.

use super::{unexpected, visit_array, visit_object, Located};
use crate::text::typed::{Mismatch, Place};
use serde::de::value::StrDeserializer;
use serde::de::{
    self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::Value;

/// An array's items, each at its index.
pub(super) struct Items<'a> {
    pub(super) items: std::vec::IntoIter<Value>,
    pub(super) index: usize,
    pub(super) at: &'a Place<'a>,
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
pub(super) struct Entries<'a> {
    pub(super) entries: serde_json::map::IntoIter,
    pub(super) pending: Option<(String, Value)>,
    pub(super) at: &'a Place<'a>,
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
pub(super) struct Variant<'a> {
    pub(super) name: String,
    pub(super) value: Option<Value>,
    pub(super) parent: &'a Place<'a>,
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

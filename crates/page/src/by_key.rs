//! Values by a text key, as the page keeps the sessions saved in this
//! browser and the progress through the exercises: a list, as few as the
//! scenarios a person opened, where a map of each kind would bring the page
//! its own copy of the B-tree's code (1.5 KB of its packed wasm for the
//! sessions). Written and read as a JSON object.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

#[derive(Debug, Clone, PartialEq)]
pub struct ByKey<V>(Vec<(String, V)>);

impl<V> Default for ByKey<V> {
    fn default() -> Self {
        ByKey(Vec::new())
    }
}

impl<V> ByKey<V> {
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(kept, _)| kept == key).map(|(_, value)| value)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keeps `value` under `key`, in place of what was there.
    pub fn insert(&mut self, key: String, value: V) {
        self.remove(&key);
        self.0.push((key, value));
    }

    pub fn remove(&mut self, key: &str) {
        self.0.retain(|(kept, _)| kept != key);
    }

    /// The value under `key`, a default one kept there first if there is none.
    pub fn or_default(&mut self, key: String) -> &mut V
    where
        V: Default,
    {
        let at = match self.0.iter().position(|(kept, _)| *kept == key) {
            Some(at) => at,
            None => {
                self.0.push((key, V::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.0.iter().map(|(key, value)| (key, value))
    }
}

impl<V> FromIterator<(String, V)> for ByKey<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(values: I) -> Self {
        let mut kept = ByKey::default();
        for (key, value) in values {
            kept.insert(key, value);
        }
        kept
    }
}

impl<V: Serialize> Serialize for ByKey<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for ByKey<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = ByKey<V>;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<ByKey<V>, A::Error> {
                let mut kept = ByKey::default();
                while let Some((key, value)) = entries.next_entry::<String, V>()? {
                    kept.insert(key, value);
                }
                Ok(kept)
            }
        }
        deserializer.deserialize_map(Entries(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::ByKey;

    #[test]
    fn it_reads_and_writes_a_json_object_and_keeps_one_value_a_key() {
        let mut kept: ByKey<u32> = serde_json::from_str(r#"{"b": 2, "a": 1, "b": 3}"#).unwrap();
        assert_eq!(kept.get("b"), Some(&3), "a key given twice keeps its last value, as a map would");
        *kept.or_default("c".into()) += 5;
        kept.remove("a");
        assert_eq!(serde_json::to_string(&kept).unwrap(), r#"{"b":3,"c":5}"#);
        assert!(serde_json::from_str::<ByKey<u32>>("[1]").is_err(), "only an object reads");
    }
}

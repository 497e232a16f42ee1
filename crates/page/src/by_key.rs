//! Values by a text key, as the page keeps the sessions saved in this
//! browser: a list, as few as the scenarios a person opened, where a map of
//! their own would bring the page its own copy of the B-tree's code (1.5 KB
//! of its packed wasm).

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

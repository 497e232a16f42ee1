//! What a pure function of one object (or of a desired and a live object)
//! found for each object of the last large state it looked at. A text read
//! again after a small edit shares every object it did not change
//! (`reread`), so the next look at the same objects finds what was found a
//! moment ago, and a re-plan after a keystroke works on the edited object.
//!
//! An object is known by its `Arc`'s address. The memo holds a weak reference
//! to it: the object itself is freed with its state as usual, but its
//! allocation stays reserved while the finding is kept, so that address names
//! that object and no other. A pass keeps what it found or looked up, so the
//! memo holds one state's findings.

use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Weak};

/// States smaller than this are looked at afresh: a memo would cost more
/// than it saves, and the world simulation compares many small states.
pub const SMALLEST_REMEMBERED: usize = 128;

/// The objects a finding is about: a desired one, a live one, or both.
pub type Objects<'a> = [Option<&'a Arc<Value>>; 2];

pub struct Memo<C, T> {
    /// What the findings depend on besides the objects (options, a mode).
    condition: Option<C>,
    kept: BTreeMap<String, Finding<T>>,
    found: BTreeMap<String, Finding<T>>,
}

struct Finding<T> {
    objects: [Option<Weak<Value>>; 2],
    result: T,
}

impl<C: PartialEq, T: Clone> Memo<C, T> {
    pub const fn new() -> Self {
        Memo {
            condition: None,
            kept: BTreeMap::new(),
            found: BTreeMap::new(),
        }
    }

    /// Looks at a state of `objects` objects under `condition`: `look`
    /// gets a pass that remembers (unless the state is small), and what the
    /// pass found is what is kept afterwards.
    pub fn pass<R>(
        &mut self,
        condition: C,
        objects: usize,
        look: impl FnOnce(&mut Pass<C, T>) -> R,
    ) -> R {
        if objects < SMALLEST_REMEMBERED {
            return look(&mut Pass(None));
        }
        if self.condition.as_ref() != Some(&condition) {
            self.kept.clear();
            self.condition = Some(condition);
        }
        let result = look(&mut Pass(Some(self)));
        self.kept = std::mem::take(&mut self.found);
        result
    }
}

/// One look at a state, remembering or not.
pub struct Pass<'m, C, T>(Option<&'m mut Memo<C, T>>);

impl<C, T: Clone> Pass<'_, C, T> {
    /// What was found for these very objects under `key`, if anything.
    pub fn known(&mut self, key: &str, objects: Objects) -> Option<T> {
        let memo = self.0.as_mut()?;
        let (key, finding) = memo
            .kept
            .remove_entry(key)
            .filter(|(_, finding)| same_objects(&finding.objects, &objects))?;
        let result = finding.result.clone();
        memo.found.insert(key, finding);
        Some(result)
    }

    /// Remembers what was found for these objects under `key`.
    pub fn keep(&mut self, key: &str, objects: Objects, result: T) {
        if let Some(memo) = self.0.as_mut() {
            let objects = objects.map(|object| object.map(Arc::downgrade));
            memo.found
                .insert(key.to_string(), Finding { objects, result });
        }
    }

    /// What was found for these very objects under `key`, else `find()`.
    pub fn get_or(&mut self, key: &str, objects: Objects, find: impl FnOnce() -> T) -> T {
        if let Some(known) = self.known(key, objects) {
            return known;
        }
        let result = find();
        self.keep(key, objects, result.clone());
        result
    }
}

fn same_objects(kept: &[Option<Weak<Value>>; 2], objects: &Objects) -> bool {
    kept.iter().zip(objects).all(|pair| match pair {
        (Some(kept), Some(object)) => std::ptr::eq(kept.as_ptr(), Arc::as_ptr(object)),
        (None, None) => true,
        _ => false,
    })
}

//! What a pure function of one object (or of a desired and a live object)
//! found for each object of the last large state it looked at. A text read
//! again after a small edit shares every object it did not change
//! (`reread`), so the next look at the same objects finds what was found a
//! moment ago, and a re-plan after a keystroke works on the edited object.
//!
//! An object is known by its `Arc`'s address. The memo holds a weak reference
//! to it: the object itself is freed with its state as usual, but its
//! allocation stays reserved while the finding is kept, so that address names
//! that object and no other. A pass keeps what it found or looked up, and
//! the memo holds what the last few passes found.

use crate::state::Key;
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::sync::{Arc, Weak};

/// States smaller than this are looked at afresh: a memo would cost more
/// than it saves, and the world simulation compares many small states.
pub const SMALLEST_REMEMBERED: usize = 128;

/// The objects a finding is about: a desired one, a live one, or both.
pub type Objects<'a> = [Option<&'a Arc<Value>>; 2];

/// The addresses of a finding's objects (0 for none): while the finding holds
/// weak references to them, no other object can have these addresses.
type Addresses = [usize; 2];

pub struct Memo<C, T> {
    /// What the findings depend on besides the objects (options, a mode).
    condition: Option<C>,
    findings: Option<FxHashMap<Addresses, Finding<T>>>,
    /// The number of the pass under way: a finding not looked up or found in
    /// the last `PASSES_KEPT` passes is forgotten when it ends.
    pass: u64,
}

/// The page's look at what was typed and the world's looks at its own states
/// (after a commit, say) take turns: what each found stays for a few passes, so
/// that the keystroke after them finds its objects still known.
const PASSES_KEPT: u64 = 4;

struct Finding<T> {
    /// The key the finding was kept under, shared with the state: a look at the same
    /// state (or a copy that shares its keys) knows it by its address, without reading it.
    key: Key,
    /// Reserve the objects' allocations, so that their addresses stay theirs.
    _objects: [Option<Weak<Value>>; 2],
    result: T,
    pass: u64,
}

impl<C: PartialEq, T: Clone> Memo<C, T> {
    pub const fn new() -> Self {
        Memo {
            condition: None,
            findings: None,
            pass: 0,
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
            self.findings = None;
            self.condition = Some(condition);
        }
        self.pass += 1;
        let result = look(&mut Pass(Some(self)));
        let pass = self.pass;
        if let Some(findings) = &mut self.findings {
            findings.retain(|_, finding| finding.pass + PASSES_KEPT > pass);
        }
        result
    }
}

impl<C, T: Clone> Memo<C, T> {
    /// What the last passes found for these very objects under `key`, without a pass
    /// of its own: a look that follows a pass over the same state (a report's) and
    /// adds nothing to it.
    pub fn recall(&self, key: &str, objects: Objects) -> Option<T> {
        let finding = self.findings.as_ref()?.get(&addresses(&objects))?;
        same_key(&finding.key, key).then(|| finding.result.clone())
    }
}

/// One look at a state, remembering or not.
pub struct Pass<'m, C, T>(Option<&'m mut Memo<C, T>>);

impl<C, T: Clone> Pass<'_, C, T> {
    /// What was found for these very objects under `key`, if anything.
    pub fn known(&mut self, key: &str, objects: Objects) -> Option<T> {
        let memo = self.0.as_mut()?;
        let finding = memo.findings.as_mut()?.get_mut(&addresses(&objects))?;
        if !same_key(&finding.key, key) {
            return None;
        }
        finding.pass = memo.pass;
        Some(finding.result.clone())
    }

    /// Remembers what was found for these objects under `key`.
    pub fn keep(&mut self, key: &Key, objects: Objects, result: T) {
        if let Some(memo) = self.0.as_mut() {
            let finding = Finding {
                key: Key::clone(key),
                _objects: objects.map(|object| object.map(Arc::downgrade)),
                result,
                pass: memo.pass,
            };
            memo.findings
                .get_or_insert_with(FxHashMap::default)
                .insert(addresses(&objects), finding);
        }
    }

    /// What was found for these very objects under `key`, else `find()`.
    pub fn get_or(&mut self, key: &Key, objects: Objects, find: impl FnOnce() -> T) -> T {
        if let Some(known) = self.known(key, objects) {
            return known;
        }
        let result = find();
        self.keep(key, objects, result.clone());
        result
    }
}

/// Whether `key` is the key a finding was kept under: the same allocation, as it is
/// for a state that shares its keys with the one looked at before, or the same text.
fn same_key(kept: &Key, key: &str) -> bool {
    (std::ptr::eq(kept.as_ptr(), key.as_ptr()) && kept.len() == key.len()) || **kept == *key
}

fn addresses(objects: &Objects) -> Addresses {
    objects.map(|object| object.map_or(0, |object| Arc::as_ptr(object) as usize))
}

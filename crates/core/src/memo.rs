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

use crate::state::{Key, Object};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Weak};

/// States smaller than this are looked at afresh: a memo would cost more
/// than it saves, and the world simulation compares many small states.
pub const SMALLEST_REMEMBERED: usize = 128;

/// The objects a finding is about: a desired one, a live one, or both.
pub type Objects<'a> = [Option<&'a Arc<Object>>; 2];

/// The addresses of a finding's objects (0 for none): while the finding holds
/// weak references to them, no other object can have these addresses.
type Addresses = [usize; 2];

pub struct Memo<C, T> {
    /// Whether passes remember at all: a pure function's passes look afresh.
    remembering: bool,
    /// What the findings depend on besides the objects (options, a mode).
    condition: Option<C>,
    /// The findings, each in a slot it keeps while it is kept.
    slots: Vec<Option<Finding<T>>>,
    /// The slot of each finding, by its objects' addresses.
    slot_of: Option<FxHashMap<Addresses, usize>>,
    /// Slots whose findings were forgotten, to be used again.
    free: Vec<usize>,
    /// The slots the last pass looked at, in the order it looked. A pass over the
    /// same state (or a reread of it) looks at the same objects in the same order:
    /// the finding at its place here is the one it wants, read without hashing, one
    /// slot after the other.
    last_walk: Vec<usize>,
    /// The slots the pass under way has looked at so far.
    walk: Vec<usize>,
    /// The number of the pass under way: a finding not looked up or found in
    /// the last `PASSES_KEPT` passes is forgotten when it ends.
    pass: u64,
}

/// The page's look at what was typed and the world's looks at its own states
/// (after a commit, say) take turns: what each found stays for a few passes, so
/// that the keystroke after them finds its objects still known.
const PASSES_KEPT: u64 = 4;

struct Finding<T> {
    addresses: Addresses,
    /// The key the finding was kept under, shared with the state: a look at the same
    /// state (or a copy that shares its keys) knows it by its address, without reading it.
    key: Key,
    /// Reserve the objects' allocations, so that their addresses stay theirs.
    _objects: [Option<Weak<Object>>; 2],
    result: T,
    pass: u64,
}

impl<C: PartialEq, T: Clone> Memo<C, T> {
    /// A memo that remembers what its passes find.
    pub const fn new() -> Self {
        Memo::remembering(true)
    }

    /// A memo whose passes look at every object afresh and keep nothing: a
    /// pure function's.
    pub const fn off() -> Self {
        Memo::remembering(false)
    }

    const fn remembering(remembering: bool) -> Self {
        Memo {
            remembering,
            condition: None,
            slots: Vec::new(),
            slot_of: None,
            free: Vec::new(),
            last_walk: Vec::new(),
            walk: Vec::new(),
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
        if !self.remembering || objects < SMALLEST_REMEMBERED {
            return look(&mut Pass(None));
        }
        if self.condition.as_ref() != Some(&condition) {
            self.forget_all();
            self.condition = Some(condition);
        }
        self.pass += 1;
        self.walk.clear();
        let result = look(&mut Pass(Some(self)));
        std::mem::swap(&mut self.last_walk, &mut self.walk);
        self.forget_older_than(self.pass.saturating_sub(PASSES_KEPT - 1));
        result
    }

    fn forget_all(&mut self) {
        self.slots.clear();
        self.slot_of = None;
        self.free.clear();
        self.last_walk.clear();
    }

    /// Forgets the findings no pass from `pass` on looked up or found.
    fn forget_older_than(&mut self, pass: u64) {
        for (slot, entry) in self.slots.iter_mut().enumerate() {
            if entry.as_ref().is_some_and(|finding| finding.pass < pass) {
                if let (Some(finding), Some(slot_of)) = (entry.take(), self.slot_of.as_mut()) {
                    slot_of.remove(&finding.addresses);
                }
                self.free.push(slot);
            }
        }
    }
}

impl<C: PartialEq, T: Clone> Default for Memo<C, T> {
    fn default() -> Self {
        Memo::new()
    }
}

impl<C, T: Clone> Memo<C, T> {
    /// The slot of the finding for `addresses`: the one the last pass looked at at
    /// this point of its walk when it holds them, else the one hashing finds.
    fn slot_for(&self, addresses: &Addresses) -> Option<usize> {
        let hinted = self.last_walk.get(self.walk.len()).copied().filter(|&slot| {
            matches!(self.slots.get(slot), Some(Some(finding)) if finding.addresses == *addresses)
        });
        let hashed = || self.slot_of.as_ref()?.get(addresses).copied();
        debug_assert!(hinted.is_none() || hinted == hashed(), "a walk's slot that is not the finding's");
        hinted.or_else(hashed)
    }

    /// What the last passes found for these very objects under `key`, without a pass
    /// of its own: a look that follows a pass over the same state (a report's) and
    /// adds nothing to it.
    pub fn recall(&self, key: &str, objects: Objects) -> Option<T> {
        let slot = *self.slot_of.as_ref()?.get(&addresses(&objects))?;
        let finding = self.slots.get(slot)?.as_ref()?;
        same_key(&finding.key, key).then(|| finding.result.clone())
    }
}

/// One look at a state, remembering or not.
pub struct Pass<'m, C, T>(Option<&'m mut Memo<C, T>>);

impl<C, T: Clone> Pass<'_, C, T> {
    /// What was found for these very objects under `key`, else `find()`,
    /// remembered.
    pub fn get_or(&mut self, key: &Key, objects: Objects, find: impl FnOnce() -> T) -> T {
        let Some(memo) = self.0.as_mut() else {
            return find();
        };
        let addresses = addresses(&objects);
        let slot = memo.slot_for(&addresses);
        if let Some(slot) = slot {
            if let Some(Some(finding)) = memo.slots.get_mut(slot) {
                if same_key(&finding.key, key) {
                    finding.pass = memo.pass;
                    memo.walk.push(slot);
                    return finding.result.clone();
                }
            }
        }
        let result = find();
        let finding = Finding {
            addresses,
            key: Key::clone(key),
            _objects: objects.map(|object| object.map(Arc::downgrade)),
            result: result.clone(),
            pass: memo.pass,
        };
        // The same objects under another key take their slot over.
        let slot = slot.or_else(|| memo.free.pop()).unwrap_or(memo.slots.len());
        match memo.slots.get_mut(slot) {
            Some(entry) => *entry = Some(finding),
            None => memo.slots.push(Some(finding)),
        }
        memo.slot_of
            .get_or_insert_with(FxHashMap::default)
            .insert(addresses, slot);
        memo.walk.push(slot);
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    type Keyed = Vec<(Key, Arc<Object>)>;

    fn numbered(numbers: impl IntoIterator<Item = u64>) -> Keyed {
        numbers
            .into_iter()
            .map(|number| (Key::from(format!("k{number:04}")), Arc::new(Object::from(json!(number)))))
            .collect()
    }

    /// A pass over `objects` that finds each object's number, counting the objects it
    /// had to look at.
    fn look(memo: &mut Memo<(), u64>, objects: &Keyed, looked: &mut usize) -> Vec<u64> {
        memo.pass((), objects.len(), |pass| {
            objects
                .iter()
                .map(|(key, object)| {
                    pass.get_or(key, [Some(object), None], || {
                        *looked += 1;
                        object.value().as_u64().unwrap_or_default()
                    })
                })
                .collect()
        })
    }

    fn numbers(objects: &Keyed) -> Vec<u64> {
        objects.iter().map(|(_, object)| object.value().as_u64().unwrap_or_default()).collect()
    }

    #[test]
    fn a_pass_looks_only_at_objects_no_recent_pass_found() {
        let mut memo = Memo::new();
        let mut looked = 0;
        let objects = numbered(0..300);
        assert_eq!(look(&mut memo, &objects, &mut looked), numbers(&objects));
        assert_eq!(looked, 300);
        assert_eq!(look(&mut memo, &objects, &mut looked), numbers(&objects));
        assert_eq!(looked, 300, "the same objects again");

        // One object changed, one inserted early (every later object a place further
        // along the walk than the last pass found it), one removed.
        let mut edited = objects.clone();
        edited[200].1 = Arc::new(Object::from(json!(9_000)));
        edited.insert(5, (Key::from("k0004a"), Arc::new(Object::from(json!(9_001)))));
        edited.remove(100);
        assert_eq!(look(&mut memo, &edited, &mut looked), numbers(&edited));
        assert_eq!(looked, 302, "the changed and the inserted object");
        assert_eq!(look(&mut memo, &objects, &mut looked), numbers(&objects));
        assert_eq!(looked, 302, "the state before, found a pass ago");

        // The same objects under other keys are looked at again.
        let renamed: Keyed = objects
            .iter()
            .take(150)
            .map(|(key, object)| (Key::from(format!("{key}-renamed")), Arc::clone(object)))
            .collect();
        assert_eq!(look(&mut memo, &renamed, &mut looked), numbers(&renamed));
        assert_eq!(looked, 452);
    }

    #[test]
    fn what_no_pass_found_lately_is_forgotten() {
        let mut memo = Memo::new();
        let mut looked = 0;
        let first = numbered(0..200);
        let second = numbered(1_000..1_200);
        look(&mut memo, &first, &mut looked);
        for _ in 0..PASSES_KEPT {
            look(&mut memo, &second, &mut looked);
        }
        assert_eq!(looked, 400);
        assert_eq!(look(&mut memo, &first, &mut looked), numbers(&first));
        assert_eq!(looked, 600, "the first state was forgotten");
        assert_eq!(look(&mut memo, &second, &mut looked), numbers(&second));
        assert_eq!(looked, 600, "the second was found a pass ago");
    }
}

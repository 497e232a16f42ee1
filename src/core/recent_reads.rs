//! The last few large texts read as states, with what they read as. The
//! page reads one text several times over (a pane as it is typed, the same
//! text committed to Git, that commit as the parent of the next one);
//! reading is a pure function of the text (and of the source's name, which
//! only errors mention), so what was read a moment ago is the answer, and a
//! copy of a state costs nothing.

use super::error::InputError;
use super::state::State;
use std::cell::RefCell;
use std::collections::VecDeque;

/// Texts shorter than this read in well under a millisecond: not kept.
const SHORTEST_KEPT: usize = 32 * 1024;
/// Nor are texts so large that keeping a copy would weigh on memory.
const LONGEST_KEPT: usize = 8 * 1024 * 1024;
/// How many reads are kept, the most recently used first, and how many
/// bytes of text at most: a state takes several times the memory of its
/// text, and wasm memory, once grown, stays grown.
const KEPT: usize = 4;
const KEPT_BYTES: usize = 16 * 1024 * 1024;

struct Read {
    source: String,
    text: String,
    result: Result<State, InputError>,
}

thread_local! {
    static RECENT: RefCell<VecDeque<Read>> = const { RefCell::new(VecDeque::new()) };
}

/// What `text` read as when it was last read from `source`, else `read()`.
pub fn remembered(
    source: &str,
    text: &str,
    read: impl FnOnce() -> Result<State, InputError>,
) -> Result<State, InputError> {
    if !(SHORTEST_KEPT..=LONGEST_KEPT).contains(&text.len()) {
        return read();
    }
    let found = RECENT.with_borrow_mut(|recent| {
        let at = recent
            .iter()
            .position(|kept| kept.text == text && (kept.result.is_ok() || kept.source == source))?;
        let kept = recent.remove(at)?;
        let result = kept.result.clone();
        recent.push_front(kept);
        Some(result)
    });
    if let Some(result) = found {
        return result;
    }
    let result = read();
    RECENT.with_borrow_mut(|recent| {
        recent.push_front(Read {
            source: source.to_string(),
            text: text.to_string(),
            result: result.clone(),
        });
        while recent.len() > KEPT
            || recent.iter().map(|kept| kept.text.len()).sum::<usize>() > KEPT_BYTES
        {
            recent.pop_back();
        }
    });
    result
}

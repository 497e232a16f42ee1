//! The last few large texts read as states, with what they read as. The
//! page reads one text several times over (a pane as it is typed, the same
//! text committed to Git, that commit as the parent of the next one);
//! reading is a pure function of the text (and of the source's name, which
//! only errors mention), so what was read a moment ago is the answer, and a
//! copy of a state costs nothing. A text that is a kept one with a small
//! edit inside one object reads that object again and nothing else
//! (`reread`).

use crate::error::InputError;
use crate::state::reread::{common_prefix, reread, same_text, Spans};
use crate::state::State;
use std::cell::{OnceCell, RefCell};
use std::collections::VecDeque;

/// Texts shorter than this read in well under a millisecond: not kept.
const SHORTEST_KEPT: usize = 32 * 1024;
/// The largest document read is kept too.
const LONGEST_KEPT: usize = crate::text::json::MAX_DOCUMENT_BYTES;
/// How many reads are kept, the most recently used first, and how many
/// bytes of text at most: a state takes several times the memory of its
/// text, and wasm memory, once grown, stays grown. Enough for two large panes
/// (10,000 Deployments: 18 and 33 MB) with the text being typed, so that
/// what a keystroke edits is still here after the world took the last one:
/// below that, every keystroke reads the whole pane again.
const KEPT: usize = 6;
const KEPT_BYTES: usize = 160 * 1024 * 1024;

struct Read {
    source: String,
    text: String,
    result: Result<State, InputError>,
    /// Where the objects sit in `text`, once a re-read needed them.
    spans: OnceCell<Option<Spans>>,
}

thread_local! {
    static RECENT: RefCell<VecDeque<Read>> = const { RefCell::new(VecDeque::new()) };
    /// Reads pushed out of `RECENT`, freed by `free_retired_reads` when the
    /// caller is idle (a large state takes milliseconds to free, which an
    /// answer need not wait for), else once `KEPT` more wait.
    static RETIRED: RefCell<Vec<Read>> = const { RefCell::new(Vec::new()) };
}

/// Whether reads the core no longer keeps wait to be freed.
pub fn retired_reads_waiting() -> bool {
    RETIRED.with_borrow(|retired| !retired.is_empty())
}

/// Frees the reads the core no longer keeps.
pub fn free_retired_reads() {
    drop(RETIRED.take());
}

impl State {
    /// What `read_afresh` gives, from the cache of this thread's last few
    /// large reads: a text read a moment ago is not read again, and one
    /// with a small edit inside one object reads only that object again.
    pub fn read_cached(source: &str, text: &str) -> Result<State, InputError> {
        remembered(source, text, || State::read_afresh(source, text))
    }
}

/// What `text` read as when it was last read from `source`, else `read()`.
fn remembered(
    source: &str,
    text: &str,
    read: impl FnOnce() -> Result<State, InputError>,
) -> Result<State, InputError> {
    if !(SHORTEST_KEPT..=LONGEST_KEPT).contains(&text.len()) {
        return read();
    }
    let found = RECENT.with_borrow_mut(|recent| {
        let at = kept_at(recent, source, text)?;
        let kept = recent.remove(at)?;
        let result = kept.result.clone();
        recent.push_front(kept);
        Some(result)
    });
    if let Some(result) = found {
        return result;
    }
    let (result, spans) = match RECENT.with_borrow(|recent| edited_from(recent, source, text)) {
        Some((state, spans)) => (Ok(state), OnceCell::from(Some(spans))),
        None => (read(), OnceCell::new()),
    };
    let pushed_out = RECENT.with_borrow_mut(|recent| {
        recent.push_front(Read {
            source: source.to_string(),
            text: text.to_string(),
            result: result.clone(),
            spans,
        });
        let mut pushed_out = Vec::new();
        while recent.len() > KEPT
            || recent.iter().map(|kept| kept.text.len()).sum::<usize>() > KEPT_BYTES
        {
            pushed_out.extend(recent.pop_back());
        }
        pushed_out
    });
    retire(pushed_out);
    result
}

/// Keeps `reads` to be freed when the caller is idle; past `KEPT` waiting, the
/// oldest are freed now.
fn retire(reads: Vec<Read>) {
    RETIRED.with_borrow_mut(|retired| {
        retired.extend(reads);
        let over = retired.len().saturating_sub(KEPT);
        retired.drain(..over);
    });
}

/// Where `text` is among the kept reads (a read that failed counts for its own
/// source only). Only a kept text of the same length can be `text`; the first of
/// them is compared whole, and where it parts from `text`, any other that is `text`
/// has `text`'s byte: one byte rules out each of the others, instead of a compare
/// of megabytes.
fn kept_at(recent: &VecDeque<Read>, source: &str, text: &str) -> Option<usize> {
    let usable = |kept: &Read| kept.result.is_ok() || kept.source == source;
    let mut same_length = recent
        .iter()
        .enumerate()
        .filter(|(_, kept)| kept.text.len() == text.len());
    let (first_at, first) = same_length.next()?;
    let parts_at = common_prefix(first.text.as_bytes(), text.as_bytes());
    if parts_at == text.len() && usable(first) {
        return Some(first_at);
    }
    let byte = text.as_bytes().get(parts_at);
    same_length
        .find(|(_, kept)| {
            kept.text.as_bytes().get(parts_at) == byte
                && same_text(&kept.text, text)
                && usable(kept)
        })
        .map(|(at, _)| at)
}

/// `text` read again from a kept text it is a small edit of, if any.
fn edited_from(recent: &VecDeque<Read>, source: &str, text: &str) -> Option<(State, Spans)> {
    recent.iter().find_map(|kept| {
        let state = kept.result.as_ref().ok()?;
        reread(source, &kept.text, state, &kept.spans, text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn large_text(index: usize) -> String {
        let objects: Vec<String> = (0..2_000)
            .map(|object| format!("\"o{object}\": {{\"v\": {index}}}"))
            .collect();
        format!("{{{}}}", objects.join(", "))
    }

    fn read(text: &str) -> State {
        remembered("desired", text, || State::read_afresh("desired", text)).unwrap()
    }

    #[test]
    fn reads_pushed_out_wait_to_be_freed_until_freed_or_too_many_wait() {
        let texts: Vec<String> = (0..2 * KEPT + 1).map(large_text).collect();
        assert!(texts[0].len() >= SHORTEST_KEPT);
        free_retired_reads();
        let first = read(&texts[0]);
        let objects = first.objects().values().next().unwrap().clone();
        drop(first);
        for text in &texts[1..KEPT] {
            read(text);
        }
        assert!(!retired_reads_waiting(), "{KEPT} reads are kept");
        read(&texts[KEPT]);
        assert!(retired_reads_waiting());
        for text in &texts[KEPT + 1..2 * KEPT] {
            read(text);
        }
        assert_eq!(
            std::sync::Arc::strong_count(&objects),
            2,
            "the first read waits, unfreed"
        );
        read(&texts[2 * KEPT]);
        assert_eq!(
            std::sync::Arc::strong_count(&objects),
            1,
            "{KEPT} more wait: it is freed"
        );
        free_retired_reads();
        assert!(!retired_reads_waiting());
    }
}

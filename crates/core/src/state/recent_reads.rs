//! The last few large texts read as states, with what they read as: a
//! workspace's memory of its reads (`Workspace::read`). The page reads one
//! text several times over (a pane as it is typed, the same text committed
//! to Git, that commit as the parent of the next one); reading is a pure
//! function of the text (and of the source's name, which only errors
//! mention), so what was read a moment ago is the answer, and a copy of a
//! state costs nothing. A text that is a kept one with a small edit inside
//! one object reads that object again and nothing else (`reread`).

use crate::error::InputError;
use crate::state::reread::{ends_alike, reread, Reread, Spans};
use crate::state::{Key, State};
use crate::text::bytes::{common_ends, common_prefix, same_text};
use crate::text::edit::{Edit, SharedText};
use std::cell::OnceCell;
use std::collections::VecDeque;

/// Texts shorter than this read in well under a millisecond: not kept.
pub const SHORTEST_KEPT: usize = 32 * 1024;
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
    text: SharedText,
    result: Result<State, InputError>,
    /// Where the objects sit in `text`, once a re-read needed them.
    spans: OnceCell<Option<Spans>>,
}

/// The reads a workspace keeps, the most recently used first.
#[derive(Default)]
pub(crate) struct RecentReads {
    recent: VecDeque<Read>,
    /// What the last read that read a text again from another changed.
    last_reread: Option<Reread>,
    /// How many texts were read, whole or in part, rather than recalled.
    read: usize,
}

impl RecentReads {
    /// What `text` read as when it was last read from `source`, else what it
    /// reads as now (and it is kept). Where `edit` says which range of a kept
    /// text the keystroke replaced, the two texts are compared only near it.
    pub(crate) fn read(&mut self, source: &str, text: Text, edit: Option<&Edit>) -> Result<State, InputError> {
        if !(SHORTEST_KEPT..=LONGEST_KEPT).contains(&text.as_str().len()) {
            self.read += 1;
            return match text {
                Text::Borrowed(text) => State::read(source, text),
                Text::Shared(text) => State::read_shared(source, text),
            };
        }
        let recent = &mut self.recent;
        let edited_from = edit.and_then(|edit| edited_from(recent, edit, text.as_str()));
        if let Some(kept) = kept_at(recent, source, text, edited_from).and_then(|at| recent.remove(at)) {
            let result = kept.result.clone();
            recent.push_front(kept);
            return result;
        }
        self.read += 1;
        let kept = text.kept();
        let (result, spans) = match reread_of(recent, source, text.as_str(), edited_from) {
            Some((state, spans, reread)) => {
                self.last_reread = Some(reread);
                (Ok(state), OnceCell::from(Some(spans)))
            }
            None => (State::read_shared(source, &kept), OnceCell::new()),
        };
        recent.push_front(Read {
            source: source.to_string(),
            text: kept,
            result: result.clone(),
            spans,
        });
        while recent.len() > KEPT || recent.iter().map(|kept| kept.text.len()).sum::<usize>() > KEPT_BYTES {
            recent.pop_back();
        }
        result
    }

    /// The keys whose objects differ between `before` and `after`, in key order,
    /// when the last read that read a text again made `after` from `before`.
    pub(crate) fn keys_changed(&self, before: &State, after: &State) -> Option<&[Key]> {
        self.last_reread.as_ref()?.keys_changed(before, after)
    }

    /// How many texts were read, whole or in part, rather than recalled.
    pub(crate) fn texts_read(&self) -> usize {
        self.read
    }

    #[cfg(test)]
    fn newest(&self) -> Option<&SharedText> {
        self.recent.front().map(|read| &read.text)
    }
}

/// A text to read, and whether the caller shares it.
#[derive(Clone, Copy)]
pub(crate) enum Text<'a> {
    Borrowed(&'a str),
    Shared(&'a SharedText),
}

impl Text<'_> {
    fn as_str(&self) -> &str {
        match self {
            Text::Borrowed(text) => text,
            Text::Shared(text) => text,
        }
    }

    fn kept(&self) -> SharedText {
        match self {
            Text::Borrowed(text) => SharedText::from(*text),
            Text::Shared(text) => SharedText::clone(text),
        }
    }
}

/// A kept text that `text` was made from by an edit, and how many bytes the
/// two share at their start and then at their end.
#[derive(Clone, Copy)]
struct EditedFrom {
    at: usize,
    ends: (usize, usize),
}

/// The kept text that `edit` was made from, if it is kept, with where it and
/// `text` part (found near the edit).
fn edited_from(recent: &VecDeque<Read>, edit: &Edit, text: &str) -> Option<EditedFrom> {
    let at = recent
        .iter()
        .position(|kept| kept.text.same(&edit.before))?;
    let ends = edit.common_ends(text)?;
    debug_assert_eq!(ends, common_ends(edit.before.as_bytes(), text.as_bytes()));
    Some(EditedFrom { at, ends })
}

/// Where `text` is among the kept reads (a read that failed counts for its own
/// source only). The caller's own copy is found by its address. A text an edit
/// made is found only if it is the text it was made from: any other kept text
/// that is the same would take a compare of them whole, where reading the
/// edited object again takes microseconds. Otherwise only a kept text of the
/// same length can be `text`; the first of them is compared whole, and where
/// it parts from `text`, any other that is `text` has `text`'s byte: one byte
/// rules out each of the others, instead of a compare of megabytes.
fn kept_at(
    recent: &VecDeque<Read>,
    source: &str,
    text: Text,
    edited_from: Option<EditedFrom>,
) -> Option<usize> {
    let usable = |kept: &Read| kept.result.is_ok() || kept.source == source;
    if let Text::Shared(shared) = text {
        let same = recent
            .iter()
            .position(|kept| kept.text.same(shared) && usable(kept));
        if same.is_some() {
            return same;
        }
    }
    let text = text.as_str();
    if let Some(EditedFrom { at, ends: (same_start, _) }) = edited_from {
        let unchanged = recent[at].text.len() == text.len() && same_start == text.len();
        return (unchanged && usable(&recent[at])).then_some(at);
    }
    let same_length = |(_, kept): &(usize, &Read)| kept.text.len() == text.len();
    let (first_at, first) = recent.iter().enumerate().find(same_length)?;
    let parts_at = common_prefix(first.text.as_bytes(), text.as_bytes());
    if parts_at == text.len() && usable(first) {
        return Some(first_at);
    }
    let byte = text.as_bytes().get(parts_at);
    recent
        .iter()
        .enumerate()
        .filter(same_length)
        .find(|&(at, kept)| {
            at != first_at
                && kept.text.as_bytes().get(parts_at) == byte
                && same_text(&kept.text, text)
                && usable(kept)
        })
        .map(|(at, _)| at)
}

/// `text` read again from a kept text it is a small edit of, if any: first
/// the one it was edited from, where that is known.
fn reread_of(
    recent: &VecDeque<Read>,
    source: &str,
    text: &str,
    edited_from: Option<EditedFrom>,
) -> Option<(State, Spans, Reread)> {
    let from = |kept: &Read, ends| {
        let state = kept.result.as_ref().ok()?;
        reread(source, &kept.text, state, &kept.spans, text, ends)
    };
    edited_from
        .and_then(|EditedFrom { at, ends }| from(&recent[at], ends))
        .or_else(|| {
            recent
                .iter()
                .enumerate()
                .filter(|&(at, kept)| {
                    edited_from.is_none_or(|edited_from| edited_from.at != at) && ends_alike(&kept.text, text)
                })
                .find_map(|(_, kept)| from(kept, common_ends(kept.text.as_bytes(), text.as_bytes())))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::edit::TypedText;
    use crate::Workspace;

    fn large_text(index: usize) -> String {
        let objects: Vec<String> = (0..2_000)
            .map(|object| format!("\"o{object}\": {{\"v\": {index}}}"))
            .collect();
        format!("{{{}}}", objects.join(", "))
    }

    /// `before` with the first `old` after `near` replaced by `new`, as an editor hands it on.
    fn typed(before: &SharedText, near: &str, old: &str, new: &str) -> TypedText {
        let after_near = before.find(near).unwrap() + near.len();
        let start = after_near + before[after_near..].find(old).unwrap();
        let replaced = start..start + old.len();
        let text = format!("{}{new}{}", &before[..replaced.start], &before[replaced.end..]);
        TypedText { text: text.into(), edit: Some(Edit { before: before.clone(), replaced }) }
    }

    #[test]
    fn a_typed_text_reads_as_the_text_does_and_is_kept_as_the_editor_shares_it() {
        let mut workspace = Workspace::new();
        let before = SharedText::from(large_text(1));
        let first = workspace.read_typed("desired", &TypedText::whole(before.clone())).unwrap();
        assert_eq!(first, State::read("desired", &before).unwrap());
        assert!(workspace.reads.newest().is_some_and(|kept| kept.same(&before)), "kept, not copied");
        for (near, old, new, inside_one_object) in [
            ("\"o1000\": {\"v\": ", "1", "25", true),
            ("\"o1999\": {", "\"v\"", "\"w\"", true),
            ("\"o6\": {\"v\": ", "1", "1", true),
            ("\"o7\": {", "}", "}, \"o7b\": {}", false),
            ("\"o5\": {", ": 1", ": [1", false),
        ] {
            let typed = typed(&before, near, old, new);
            assert_eq!(
                workspace.read_typed("desired", &typed),
                State::read("desired", &typed.text),
                "{near} {old} → {new}"
            );
            if inside_one_object {
                let read = workspace.read_typed("desired", &typed).unwrap();
                let untouched = |state: &State| state.objects().get("o3").cloned();
                assert!(
                    std::sync::Arc::ptr_eq(&untouched(&read).unwrap(), &untouched(&first).unwrap()),
                    "only the edited object is read again"
                );
            }
            let again = TypedText::whole(typed.text.to_string().into());
            assert_eq!(workspace.read_typed("desired", &again), State::read("desired", &typed.text));
        }
    }

    #[test]
    fn a_read_pushed_out_is_freed_and_a_dropped_workspace_frees_every_read() {
        let texts: Vec<String> = (0..KEPT + 1).map(large_text).collect();
        assert!(texts[0].len() >= SHORTEST_KEPT);
        let mut workspace = Workspace::new();
        let objects_of = |state: State| state.objects().values().next().unwrap().clone();
        let first = objects_of(workspace.read("desired", &texts[0]).unwrap());
        let second = objects_of(workspace.read("desired", &texts[1]).unwrap());
        for text in &texts[2..KEPT] {
            workspace.read("desired", text).unwrap();
        }
        assert_eq!(std::sync::Arc::strong_count(&first), 2, "{KEPT} reads are kept");
        workspace.read("desired", &texts[KEPT]).unwrap();
        assert_eq!(std::sync::Arc::strong_count(&first), 1, "the oldest is pushed out and freed");
        assert_eq!(std::sync::Arc::strong_count(&second), 2);
        drop(workspace);
        assert_eq!(std::sync::Arc::strong_count(&second), 1, "freed with its workspace");
    }
}

//! A text as an editor hands it on: shared, not copied, and with the range of
//! the editor's last text that the keystroke replaced, when the editor knows
//! it. A reader that kept the last text then looks for where the two texts
//! part inside that range, instead of across megabytes of both.

use crate::text::bytes::{common_prefix, common_suffix};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A text that the page's parts and the core share instead of copying: a
/// pane's text is megabytes, and a keystroke hands it on to several of them.
/// Two are equal when their texts are (the same allocation, at once).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SharedText(Arc<String>);

impl SharedText {
    /// Whether the two are the same allocation, and so the same text.
    pub fn same(&self, other: &SharedText) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for SharedText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<String> for SharedText {
    fn from(text: String) -> SharedText {
        SharedText(Arc::new(text))
    }
}

impl From<Arc<String>> for SharedText {
    fn from(text: Arc<String>) -> SharedText {
        SharedText(text)
    }
}

impl From<SharedText> for Arc<String> {
    fn from(text: SharedText) -> Arc<String> {
        text.0
    }
}

impl From<&str> for SharedText {
    fn from(text: &str) -> SharedText {
        SharedText(Arc::new(text.to_string()))
    }
}

impl fmt::Display for SharedText {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self)
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(&**self, formatter)
    }
}

impl Serialize for SharedText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl<'de> Deserialize<'de> for SharedText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SharedText, D::Error> {
        String::deserialize(deserializer).map(SharedText::from)
    }
}

/// A text typed in an editor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TypedText {
    pub text: SharedText,
    /// How `text` was made from the editor's text before it, when known.
    pub edit: Option<Edit>,
}

/// `after` is `before` with the bytes `before[replaced]` replaced: the two
/// texts are the same bytes before the range and after it.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub before: SharedText,
    pub replaced: Range<usize>,
}

impl TypedText {
    /// A text with nothing known of how it was made.
    pub fn whole(text: SharedText) -> TypedText {
        TypedText { text, edit: None }
    }
}

impl<T: Into<SharedText>> From<T> for TypedText {
    fn from(text: T) -> TypedText {
        TypedText::whole(text.into())
    }
}

impl Edit {
    /// Whether the edit that made `after` took or wrote a line break, so that
    /// lines after it may stand elsewhere; true when `after` cannot be its text.
    /// The replaced range may be wider than what changed (an editor's block):
    /// only the bytes that differ within it count.
    pub fn moves_lines(&self, after: &str) -> bool {
        let Range { start, end } = self.replaced;
        let inserted_end = (self.before.len().checked_sub(end))
            .and_then(|kept_after| after.len().checked_sub(kept_after));
        let (Some(taken), Some(written)) = (
            self.before.as_bytes().get(start..end),
            inserted_end.and_then(|inserted_end| after.as_bytes().get(start..inserted_end)),
        ) else {
            return true;
        };
        let same_start = common_prefix(taken, written);
        let (taken, written) = (&taken[same_start..], &written[same_start..]);
        let same_end = common_suffix(taken, written);
        let changed = |bytes: &[u8]| bytes[..bytes.len() - same_end].contains(&b'\n');
        changed(taken) || changed(written)
    }

    /// How many bytes `before` and `after` share at their start, and then at
    /// their end, never counting a byte twice (as comparing them whole
    /// counts): found by looking only near the replaced range. None when
    /// `after` cannot be what this edit made of `before` (its length says so).
    pub fn common_ends(&self, after: &str) -> Option<(usize, usize)> {
        let (before, after) = (self.before.as_bytes(), after.as_bytes());
        let Range { start, end } = self.replaced;
        let kept_after = before.len().checked_sub(end)?;
        let inserted_end = after.len().checked_sub(kept_after)?;
        if start > end || start > inserted_end {
            return None;
        }
        let same_start = start + common_prefix(&before[start..], &after[start..]);
        let room = before.len().min(after.len()) - same_start;
        let same_end = if kept_after >= room {
            room
        } else {
            kept_after
                + common_suffix(
                    &before[before.len() - room..end],
                    &after[after.len() - room..inserted_end],
                )
        };
        Some((same_start, same_end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::bytes::common_ends;
    use proptest::prelude::*;

    #[test]
    fn an_edit_moves_lines_when_it_takes_or_writes_a_line_break() {
        let before = SharedText::from("a: 1\nb: 2\n");
        let edit = |start: usize, end: usize| Edit { before: before.clone(), replaced: start..end };
        assert!(!edit(3, 4).moves_lines("a: 7\nb: 2\n"), "a digit typed over");
        assert!(!edit(4, 4).moves_lines("a: 10\nb: 2\n"), "a digit typed in");
        assert!(edit(4, 4).moves_lines("a: 1\n\nb: 2\n"), "a line break typed");
        assert!(edit(4, 5).moves_lines("a: 1b: 2\n"), "a line break taken away");
        assert!(edit(3, 4).moves_lines("other"), "a text this edit cannot have made");
        assert!(!edit(0, 10).moves_lines("a: 1\nb: 5\n"), "a block replaced whole, a digit changed in it");
        assert!(edit(0, 10).moves_lines("a: 1\nb:\n 2\n"), "a block replaced whole, a line break typed in it");
    }

    proptest! {
        #[test]
        fn the_ends_found_near_the_edit_are_the_ends_of_the_whole_texts(
            before in "[ab{}\":,]{0,40}",
            cut in any::<prop::sample::Index>(),
            length in 0usize..6,
            inserted in "[ab{}\":,]{0,6}",
        ) {
            let start = cut.index(before.len() + 1);
            let end = (start + length).min(before.len());
            let after = format!("{}{}{}", &before[..start], inserted, &before[end..]);
            let edit = Edit { before: before.as_str().into(), replaced: start..end };
            prop_assert_eq!(
                edit.common_ends(&after),
                Some(common_ends(before.as_bytes(), after.as_bytes()))
            );
        }
    }

    #[test]
    // A backwards range is the point: an editor could hand one on.
    #[allow(clippy::reversed_empty_ranges)]
    fn an_edit_that_does_not_fit_the_text_finds_no_ends() {
        let edit = Edit { before: "abcdef".into(), replaced: 2..5 };
        assert_eq!(edit.common_ends("ab"), None, "shorter than what the edit kept");
        let backwards = Edit { before: "abcdef".into(), replaced: 4..2 };
        assert_eq!(backwards.common_ends("abcdef"), None);
    }
}

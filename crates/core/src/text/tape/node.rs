//! A tape's node: one value, or one field's name, in eight bytes.

/// One value, or one field's name: a kind (`Node::kind`) and two numbers
/// whose meaning the kind gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Node {
    /// A string's offset in the text, an index into `unescaped` or
    /// `numbers`, or the index of the node after an array or object.
    pub(super) at: u32,
    /// The kind in the top three bits; below, a string's length in bytes
    /// or how many items or fields an array or object holds.
    kind_and_size: u32,
}

const KIND_SHIFT: u32 = 29;
const SIZE_MASK: u32 = (1 << KIND_SHIFT) - 1;

pub(super) const NULL: u32 = 0;
pub(super) const FALSE: u32 = 1;
pub(super) const TRUE: u32 = 2;
pub(super) const NUMBER: u32 = 3;
pub(super) const STRING: u32 = 4;
pub(super) const ESCAPED: u32 = 5;
pub(super) const ARRAY: u32 = 6;
pub(super) const OBJECT: u32 = 7;

impl Node {
    pub(super) fn new(kind: u32, at: u32, size: u32) -> Node {
        Node {
            at,
            kind_and_size: kind << KIND_SHIFT | size,
        }
    }

    pub(super) fn kind(self) -> u32 {
        self.kind_and_size >> KIND_SHIFT
    }

    pub(super) fn size(self) -> u32 {
        self.kind_and_size & SIZE_MASK
    }
}

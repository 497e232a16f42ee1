//! The text a node of the editor shows, read as the browser shows it (the
//! documentation of `content` says how), and where a DOM position is in it.

use web_sys::Node;

pub(super) fn is_block(node: &Node) -> bool {
    node.node_type() == Node::ELEMENT_NODE && matches!(node.node_name().as_str(), "DIV" | "P")
}

/// A text read from the page, where the caret was in it (a byte offset), and whether
/// the node shows any line at all (an empty block shows none).
#[derive(Debug, Default, PartialEq)]
pub struct Read {
    pub text: String,
    pub caret: Option<usize>,
    pub shows_lines: bool,
}

/// Reads the text `node` shows as the editor's root or one of its blocks; `caret`
/// is a DOM position to find in it.
pub fn read_node(node: &Node, caret: Option<&(Node, u32)>) -> Read {
    let mut reader = Reader {
        caret,
        ..Reader::default()
    };
    reader.block(node);
    reader.end_run();
    Read {
        caret: reader.caret_at.map(|at| at.min(reader.out.len())),
        shows_lines: reader.separate,
        text: reader.out,
    }
}

/// Reads blocks and the runs of text between them (see the documentation of `content`).
#[derive(Default)]
struct Reader<'a> {
    out: String,
    /// Where the run of inline text being read starts in `out`, if one is open.
    run: Option<usize>,
    /// Whether something was read, so that the next line starts with a line break.
    separate: bool,
    caret: Option<&'a (Node, u32)>,
    caret_at: Option<usize>,
}

impl Reader<'_> {
    fn block(&mut self, node: &Node) {
        let children = node.child_nodes();
        for index in 0..children.length() {
            self.mark_caret(node, index);
            let Some(child) = children.item(index) else {
                continue;
            };
            match child.node_type() {
                Node::TEXT_NODE => {
                    let data = child.node_value().unwrap_or_default();
                    self.inline(&data);
                    if let Some((_, offset)) = self.caret.filter(|(caret, _)| caret == &child) {
                        let start = self.out.len() - data.len();
                        self.caret_at = Some(start + utf8_offset(&data, *offset));
                    }
                }
                Node::ELEMENT_NODE if child.node_name() == "BR" => self.inline("\n"),
                Node::ELEMENT_NODE if is_block(&child) => {
                    self.end_run();
                    self.block(&child);
                    self.end_run();
                }
                Node::ELEMENT_NODE => self.inline(&child.text_content().unwrap_or_default()),
                _ => {}
            }
        }
        self.mark_caret(node, children.length());
    }

    fn mark_caret(&mut self, node: &Node, index: u32) {
        if self
            .caret
            .is_some_and(|(caret, offset)| caret == node && *offset == index)
        {
            self.caret_at = Some(self.out.len() + usize::from(self.separate && self.run.is_none()));
        }
    }

    fn inline(&mut self, text: &str) {
        if self.run.is_none() {
            if text.is_empty() {
                return;
            }
            if self.separate {
                self.out.push('\n');
            }
            self.run = Some(self.out.len());
        }
        self.out.push_str(text);
    }

    /// A run ends at a block's edge; its final line break shows no line.
    fn end_run(&mut self) {
        if let Some(start) = self.run.take() {
            if self.out.len() > start && self.out.ends_with('\n') {
                self.out.pop();
            }
            self.separate = true;
        }
    }
}

/// The byte offset in `text` of the UTF-16 offset `units`.
pub fn utf8_offset(text: &str, units: u32) -> usize {
    let mut seen = 0u32;
    for (at, character) in text.char_indices() {
        if seen >= units {
            return at;
        }
        seen += character.len_utf16() as u32;
    }
    text.len()
}

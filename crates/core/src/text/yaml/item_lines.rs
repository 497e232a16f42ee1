//! Where each item of a YAML or JSON text's top-level list starts.

use saphyr_parser::{Event, Parser};

/// The line each item of the first document's top-level list starts on,
/// for messages about an item; fewer (or none) where the text stops reading
/// as YAML. JSON reads as YAML here, so this serves JSON text too.
pub fn item_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut depth = 0usize;
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else {
            break;
        };
        let starts_item = depth == 1;
        match event {
            Event::SequenceStart(..) if depth == 0 => depth = 1,
            Event::MappingStart(..) if depth == 0 => break,
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if starts_item {
                    lines.push(span.start.line());
                }
                depth += 1;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Event::Scalar(..) | Event::Alias(_) if starts_item => lines.push(span.start.line()),
            _ => {}
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_lines_are_where_each_item_of_the_top_list_starts() {
        assert_eq!(
            item_lines("- /status\n- kind: Deployment\n  name: web\n-\n  [/a]\n"),
            [1, 2, 5]
        );
        assert_eq!(item_lines("[\"/a\",\n {\"kind\": \"X\"}]"), [1, 2]);
        assert_eq!(
            item_lines("a: [1, 2]\n"),
            Vec::<usize>::new(),
            "a mapping has no items"
        );
        assert_eq!(
            item_lines("- /a\n- [\n"),
            [1, 2],
            "items before a syntax error still count"
        );
    }
}

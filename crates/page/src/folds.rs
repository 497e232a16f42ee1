//! Where an editor's lines sit on screen when some are folded away: a folded object
//! keeps its first line and hides the rest, so the lines below it move up. Rows are
//! the lines on screen, from 0.

use std::ops::Range;

/// The hidden lines of a text, as sorted ranges that neither overlap nor touch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Folds {
    hidden: Vec<Range<usize>>,
}

impl Folds {
    /// From ranges in any order; ranges that overlap or touch become one. (A text has
    /// a few folds, each put in its place as it comes: a sort, even `collect.rs`'s,
    /// costs the page more.)
    pub fn new(hidden: Vec<Range<usize>>) -> Folds {
        let mut sorted: Vec<Range<usize>> = Vec::with_capacity(hidden.len());
        for range in hidden.into_iter().filter(|range| !range.is_empty()) {
            sorted.insert(sorted.partition_point(|before| before.start <= range.start), range);
        }
        let mut joined: Vec<Range<usize>> = Vec::with_capacity(sorted.len());
        for range in sorted {
            match joined.last_mut() {
                Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
                _ => joined.push(range),
            }
        }
        Folds { hidden: joined }
    }

    pub fn hidden(&self) -> &[Range<usize>] {
        &self.hidden
    }

    /// The row `line` shows on: a hidden line shows on the row of the line above
    /// its fold.
    pub fn row(&self, line: usize) -> usize {
        let mut row = line;
        for range in &self.hidden {
            if range.start > line {
                break;
            }
            row -= line.min(range.end) - range.start + usize::from(line < range.end);
        }
        row
    }

    /// The rows a range of lines covers: at least one.
    pub fn rows_of(&self, lines: &Range<usize>) -> Range<usize> {
        let start = self.row(lines.start);
        start..self.row(lines.end.max(lines.start + 1) - 1).max(start) + 1
    }

    /// The line shown on `row`.
    pub fn line(&self, row: usize) -> usize {
        let mut line = row;
        for range in &self.hidden {
            if range.start > line {
                break;
            }
            line += range.len();
        }
        line
    }

    /// How many rows `lines` lines show on.
    pub fn rows(&self, lines: usize) -> usize {
        lines - self.hidden.iter().map(|range| range.end.min(lines) - range.start.min(lines)).sum::<usize>()
    }

    /// The hidden lines right below `line`, if it is a folded object's first line.
    pub fn folded_below(&self, line: usize) -> Option<&Range<usize>> {
        self.hidden.iter().find(|range| range.start == line + 1)
    }
}

/// The lines folding an object hides: all but its first.
pub fn hidden_by_folding(object: &Range<usize>) -> Range<usize> {
    object.start + 1..object.end
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lines_below_a_fold_move_up_by_what_it_hides() {
        let folds = Folds::new(vec![3..6, 10..12]);
        let rows: Vec<usize> = (0..14).map(|line| folds.row(line)).collect();
        assert_eq!(rows, [0, 1, 2, 2, 2, 2, 3, 4, 5, 6, 6, 6, 7, 8]);
        assert_eq!(folds.rows(14), 9);
        assert_eq!(folds.rows(4), 3);
        assert_eq!(folds.rows_of(&(4..11)), 2..7);
        assert_eq!(folds.rows_of(&(7..7)), 4..5);
        assert_eq!(folds.folded_below(2), Some(&(3..6)));
        assert_eq!(folds.folded_below(3), None);
    }

    #[test]
    fn ranges_that_touch_or_overlap_are_one_fold() {
        assert_eq!(Folds::new(vec![8..9, 2..4, 4..6, 5..7, 3..3]).hidden(), [2..7, 8..9]);
    }

    proptest! {
        #[test]
        fn each_row_shows_the_line_whose_row_it_is(
            hidden in proptest::collection::vec((0usize..60, 0usize..8), 0..6),
        ) {
            let folds = Folds::new(hidden.into_iter().map(|(start, len)| start + 1..start + 1 + len).collect());
            let lines = 80;
            let shown: Vec<usize> = (0..lines).filter(|line| !folds.hidden().iter().any(|range| range.contains(line))).collect();
            prop_assert_eq!(folds.rows(lines), shown.len());
            for (row, line) in shown.iter().enumerate() {
                prop_assert_eq!(folds.line(row), *line);
                prop_assert_eq!(folds.row(*line), row);
            }
        }
    }
}

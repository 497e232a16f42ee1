//! The layers that follow the text's scroll (the gutter, the backdrop, the
//! drift marks), and the painting of the colours of the blocks on screen, in
//! the frame that shows the text.

use super::content::Content;
use super::paint::Painter;
use super::WINDOW_STEP;
use gitops_page::folds::Folds;
use gitops_page::PaneMarks;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// The colours are painted on the rows on screen and a step of rows either side,
/// from a multiple of the step: scrolling within a step paints nothing again.
const COLOUR_STEP: usize = 50;

/// The colours' painter, and where it paints.
#[derive(Default)]
pub(super) struct Painting {
    pub(super) painter: Painter,
    /// The row at the top of the text's scroll, and how many rows the screen shows.
    first_row: usize,
    rows_shown: usize,
    /// The marks, whose ignored lines are greyed.
    pub(super) marks: Rc<PaneMarks>,
}

/// The elements that follow the text's scroll.
#[derive(Clone)]
pub(super) struct Layers {
    /// The rows the text shows on when this render made the layers, and its folds.
    pub(super) rows: usize,
    pub(super) folds: Folds,
    pub(super) area: NodeRef,
    pub(super) gutter: NodeRef,
    pub(super) rows_element: NodeRef,
    pub(super) columns: NodeRef,
    pub(super) drift: NodeRef,
    pub(super) window_start: UseStateHandle<usize>,
    pub(super) painting: Rc<RefCell<Painting>>,
    pub(super) content: Rc<RefCell<Option<Content>>>,
}

impl Layers {
    /// Moves the gutter and the backdrop to the text's scroll offset.
    pub(super) fn follow(&self) {
        let Some(area) = self.area.cast::<HtmlElement>() else {
            return;
        };
        let (x, y) = (area.scroll_left(), area.scroll_top());
        let row_height = f64::from(area.scroll_height()) / self.rows.max(1) as f64;
        if row_height > 0.0 {
            let first_visible = (f64::from(y) / row_height) as usize;
            self.window_start
                .set((first_visible / WINDOW_STEP).saturating_sub(1) * WINDOW_STEP);
            let rows_shown = (f64::from(area.client_height()) / row_height).ceil() as usize;
            let mut painting = self.painting.borrow_mut();
            (painting.first_row, painting.rows_shown) = (first_visible, rows_shown);
            drop(painting);
            self.paint();
        }
        let vertical = format!("transform: translateY({}px)", -y);
        place(&self.gutter, &vertical);
        place(&self.rows_element, &vertical);
        place(&self.drift, &vertical);
        place(
            &self.columns,
            &format!("transform: translate({}px, {}px)", -x, -y),
        );
    }

    /// Colours the lines near the screen now, before the frame is painted: a
    /// keystroke's colours come in the frame that shows its text, rather than in a
    /// second frame whose painting the page would pay for again.
    pub(super) fn paint(&self) {
        let mut painting = self.painting.borrow_mut();
        let rows = near_the_screen(painting.first_row, painting.rows_shown);
        let lines = self.folds.line(rows.start)..self.folds.line(rows.end);
        if let Some(content) = self.content.borrow().as_ref() {
            let marks = painting.marks.clone();
            painting
                .painter
                .paint(&content.blocks_over(lines), &marks.ignored);
        }
    }
}

/// The rows to colour when the screen shows `shown` rows from `first`: from the
/// multiple of the step above the step it is in, to the second multiple below
/// the last row shown.
fn near_the_screen(first: usize, shown: usize) -> std::ops::Range<usize> {
    let start = (first / COLOUR_STEP).saturating_sub(1) * COLOUR_STEP;
    let end = ((first + shown) / COLOUR_STEP + 2) * COLOUR_STEP;
    start..end
}

/// Sets an element's style, unless it is already that.
fn place(node: &NodeRef, style: &str) {
    if let Some(element) = node.cast::<Element>() {
        if element.get_attribute("style").as_deref() != Some(style) {
            let _ = element.set_attribute("style", style);
        }
    }
}

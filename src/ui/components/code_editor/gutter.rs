//! The line numbers beside the text: a window of rows around the scroll position, each
//! with its line's number, and an arrow that folds an object (or unfolds it) at its
//! first line.

use gitops_page::folds::Folds;
use gitops_page::PaneMarks;
use std::ops::Range;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GutterProps {
    /// The element that follows the text's scroll.
    pub numbers: NodeRef,
    /// The rows whose numbers are shown, from 0.
    pub window: Range<usize>,
    pub folds: Folds,
    /// The objects, which fold.
    pub marks: Rc<PaneMarks>,
    /// An arrow was pressed: the line it is on, from 0.
    pub on_fold: Callback<(usize, Option<bool>)>,
    pub error_line: Option<usize>,
    pub highlight: Option<Range<usize>>,
}

/// The line numbers: a component of its own, so that a keystroke that moves no
/// line leaves its thousand numbers alone.
#[function_component(Gutter)]
pub fn gutter(props: &GutterProps) -> Html {
    let above = props.window.start;
    let objects = &props.marks.objects;
    let numbers = props.window.clone().map(|row| {
        let line = props.folds.line(row);
        let class = classes!(
            "code-editor-number",
            (props.error_line == Some(line)).then_some("error-line"),
            props
                .highlight
                .as_ref()
                .is_some_and(|range| range.contains(&line))
                .then_some("highlight"),
        );
        let folded = props.folds.folded_below(line);
        let object = objects
            .binary_search_by_key(&line, |(_, lines)| lines.start)
            .ok()
            .map(|index| &objects[index])
            .filter(|(_, lines)| lines.len() > 1);
        let arrow = match (folded, object) {
            (Some(hidden), _) => Some((format!("Unfold lines {} to {}", hidden.start + 1, hidden.end), "folded")),
            (None, Some((key, _))) => Some((format!("Fold {key}"), "")),
            _ => None,
        };
        html! {
            <div {class}>
                { line + 1 }
                if let Some((title, state)) = arrow {
                    <button
                        type="button"
                        tabindex="-1"
                        class={classes!("code-editor-fold", state)}
                        {title}
                        onclick={props.on_fold.reform(move |_: MouseEvent| (line, None))}
                    />
                }
            </div>
        }
    });
    html! {
        <div class="code-editor-gutter" aria-hidden="true">
            <div class="code-editor-numbers" ref={props.numbers.clone()}>
                if above > 0 {
                    <div style={format!("height: calc(var(--code-editor-line) * {above})")} />
                }
                { for numbers }
            </div>
        </div>
    }
}

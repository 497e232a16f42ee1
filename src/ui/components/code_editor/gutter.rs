//! The line numbers beside the text: a window of them around the scroll position.

use std::ops::Range;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GutterProps {
    /// The element that follows the text's scroll.
    pub numbers: NodeRef,
    /// The lines whose numbers are shown, from 0.
    pub window: Range<usize>,
    pub error_line: Option<usize>,
    pub highlight: Option<Range<usize>>,
}

/// The line numbers: a component of its own, so that a keystroke that moves no
/// line leaves its thousand numbers alone.
#[function_component(Gutter)]
pub fn gutter(props: &GutterProps) -> Html {
    let above = props.window.start;
    let numbers = props.window.clone().map(|line| {
        let class = classes!(
            "code-editor-number",
            (props.error_line == Some(line)).then_some("error-line"),
            props
                .highlight
                .as_ref()
                .is_some_and(|range| range.contains(&line))
                .then_some("highlight"),
        );
        html! { <div {class}>{ line + 1 }</div> }
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

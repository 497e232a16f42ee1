//! A plain-text code editor without a JavaScript library: a `<textarea>` does the
//! editing, layered over a backdrop that tints lines, beside a gutter of line numbers.
//! The gutter and the backdrop follow the textarea's scrolling with a `transform`, so
//! scrolling never reflows the page. The gutter holds the numbers of a window of lines
//! around the scroll position, so a text of millions of lines costs a thousand numbers.
//! The sizes they share (font, line height, padding) live in `static/style.css` under
//! `/* code editor */`.

use crate::ui::same::Same;
use std::ops::Range;
use std::rc::Rc;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Columns a tab advances to a multiple of; `tab-size` in style.css says the same.
const TAB_SIZE: usize = 2;

/// How many line numbers the gutter holds at once, and the step by which that window
/// moves as the text scrolls (it starts one step above the first visible line).
const WINDOW_LINES: usize = 1_000;
const WINDOW_STEP: usize = 250;

#[derive(Properties, PartialEq)]
pub struct CodeEditorProps {
    /// The textarea's id, so that a <label for=...> outside names it.
    pub id: AttrValue,
    /// Shared, so that passing it down and comparing it costs nothing.
    pub text: Same<str>,
    pub on_input: Callback<Rc<str>>,
    /// 1-based line (and column) of an error to mark, if any.
    #[prop_or_default]
    pub error_at: Option<(usize, usize)>,
    /// The id of the element that describes the error (aria-describedby), if any.
    #[prop_or_default]
    pub described_by: Option<AttrValue>,
    /// 0-based lines [start, end) to highlight (the object just changed), with a token that
    /// changes each time the highlight should play again.
    #[prop_or_default]
    pub highlight: Option<(std::ops::Range<usize>, u64)>,
    #[prop_or_default]
    pub readonly: bool,
}

/// The editor: the parent owns the text (`text` in, `on_input` out, the whole text each
/// time). Escape leaves the textarea; Tab keeps moving focus as usual.
#[function_component(CodeEditor)]
pub fn code_editor(props: &CodeEditorProps) -> Html {
    let area = use_node_ref();
    let gutter = use_node_ref();
    let rows = use_node_ref();
    let columns = use_node_ref();
    let window_start = use_state_eq(|| 0usize);
    let lines = line_count(&props.text);
    let layers = Layers {
        lines,
        area: area.clone(),
        gutter: gutter.clone(),
        rows: rows.clone(),
        columns: columns.clone(),
        window_start: window_start.clone(),
    };
    // What the textarea holds, as far as this editor knows: what it was given or what
    // was typed. Only a text that differs is written to it, so a keystroke in a large
    // text does not read the whole text back from the page to compare it.
    let holds = use_mut_ref(|| None::<Rc<str>>);
    let written = use_mut_ref(|| false);
    {
        let area = area.clone();
        let holds = holds.clone();
        let written = written.clone();
        use_effect_with(props.text.clone(), move |text| {
            let held = holds
                .borrow()
                .as_ref()
                .is_some_and(|held| Rc::ptr_eq(held, &text.0) || **held == **text);
            if !held {
                if let Some(area) = area.cast::<HtmlTextAreaElement>() {
                    area.set_value(text);
                    *holds.borrow_mut() = Some(text.0.clone());
                    *written.borrow_mut() = true;
                }
            }
        });
    }
    // A text written into the textarea, or lines added or removed, can move its scroll
    // without a scroll event. A keystroke within a line does neither, and reading the
    // scroll of a large textarea makes the browser lay it out at once.
    let followed_lines = use_mut_ref(|| None::<usize>);
    {
        let layers = layers.clone();
        use_effect(move || {
            let text_moved = std::mem::take(&mut *written.borrow_mut());
            let lines_moved = followed_lines.replace(Some(lines)) != Some(lines);
            if text_moved || lines_moved {
                layers.follow();
            }
        });
    }
    let onscroll = Callback::from(move |_: Event| layers.follow());
    let on_input = props.on_input.clone();
    let oninput = Callback::from(move |event: InputEvent| {
        if let Some(area) = event.target_dyn_into::<HtmlTextAreaElement>() {
            let typed: Rc<str> = area.value().into();
            *holds.borrow_mut() = Some(typed.clone());
            on_input.emit(typed);
        }
    });
    let onkeydown = Callback::from(|event: KeyboardEvent| {
        // While an input method composes, Escape cancels the composition instead.
        if event.key() == "Escape" && !event.is_composing() {
            if let Some(area) = event.target_dyn_into::<HtmlElement>() {
                let _ = area.blur();
            }
        }
    });

    let error = props.error_at.map(|(line, column)| {
        let line = line.clamp(1, lines) - 1;
        let column = visual_column(nth_line(&props.text, line), column);
        (line, column)
    });
    let highlight = props
        .highlight
        .as_ref()
        .map(|(range, token)| (range.start.min(lines)..range.end.min(lines), *token))
        .filter(|(range, _)| !range.is_empty());
    let window =
        (*window_start).min(lines.saturating_sub(1))..lines.min(*window_start + WINDOW_LINES);

    html! {
        <div class={classes!(
            "code-editor",
            error.is_some().then_some("invalid"),
            props.readonly.then_some("readonly"),
        )}>
            <Gutter
                numbers={gutter}
                {window}
                error_line={error.map(|(line, _)| line)}
                highlight={highlight.as_ref().map(|(range, _)| range.clone())}
            />
            <div class="code-editor-body">
                <div class="code-editor-backdrop" aria-hidden="true">
                    <div class="code-editor-rows" ref={rows}>
                        if let Some((range, token)) = &highlight {
                            // A new token is a new element, so the fade plays again.
                            <div
                                key={token.to_string()}
                                class="code-editor-mark highlight"
                                style={rows_style(range)}
                            />
                        }
                        if let Some((line, _)) = error {
                            <div class="code-editor-mark error-line" style={rows_style(&(line..line + 1))} />
                        }
                    </div>
                    <div class="code-editor-columns" ref={columns}>
                        if let Some((line, column)) = error {
                            <div
                                class="code-editor-column"
                                style={format!(
                                    "top: calc(var(--code-editor-line) * {line}); left: {column}ch"
                                )}
                            />
                        }
                    </div>
                </div>
                <textarea
                    ref={area}
                    class="code-editor-input"
                    id={props.id.clone()}
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    wrap="off"
                    readonly={props.readonly}
                    aria-invalid={error.is_some().then_some("true")}
                    aria-describedby={props.described_by.clone()}
                    {oninput}
                    {onkeydown}
                    {onscroll}
                />
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct GutterProps {
    /// The element that follows the textarea's scroll.
    numbers: NodeRef,
    /// The lines whose numbers are shown, from 0.
    window: Range<usize>,
    error_line: Option<usize>,
    highlight: Option<Range<usize>>,
}

/// The line numbers: a component of its own, so that a keystroke that moves no
/// line leaves its thousand numbers alone.
#[function_component(Gutter)]
fn gutter(props: &GutterProps) -> Html {
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

/// The elements that follow the textarea's scroll.
#[derive(Clone)]
struct Layers {
    /// The text's lines when this render made the layers.
    lines: usize,
    area: NodeRef,
    gutter: NodeRef,
    rows: NodeRef,
    columns: NodeRef,
    window_start: UseStateHandle<usize>,
}

impl Layers {
    /// Moves the gutter and the backdrop to the textarea's scroll offset.
    fn follow(&self) {
        let Some(area) = self.area.cast::<HtmlTextAreaElement>() else {
            return;
        };
        let (x, y) = (area.scroll_left(), area.scroll_top());
        let line_height = f64::from(area.scroll_height()) / self.lines.max(1) as f64;
        if line_height > 0.0 {
            let first_visible = (f64::from(y) / line_height) as usize;
            self.window_start
                .set((first_visible / WINDOW_STEP).saturating_sub(1) * WINDOW_STEP);
        }
        let vertical = format!("transform: translateY({}px)", -y);
        place(&self.gutter, &vertical);
        place(&self.rows, &vertical);
        place(
            &self.columns,
            &format!("transform: translate({}px, {}px)", -x, -y),
        );
    }
}

/// Sets an element's style, unless it is already that.
fn place(node: &NodeRef, style: &str) {
    if let Some(element) = node.cast::<Element>() {
        if element.get_attribute("style").as_deref() != Some(style) {
            let _ = element.set_attribute("style", style);
        }
    }
}

fn rows_style(lines: &Range<usize>) -> String {
    format!(
        "top: calc(var(--code-editor-line) * {}); height: calc(var(--code-editor-line) * {})",
        lines.start,
        lines.len()
    )
}

/// Lines as the textarea shows them: at least one, and a final line break starts an
/// empty last line. `\r\n` and a lone `\r` are line breaks too.
fn line_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    1 + bytes
        .iter()
        .enumerate()
        .filter(|&(at, &byte)| {
            byte == b'\n' || (byte == b'\r' && bytes.get(at + 1) != Some(&b'\n'))
        })
        .count()
}

/// The 0-based `index`th line, without its line break; empty past the end.
fn nth_line(text: &str, index: usize) -> &str {
    let mut rest = text;
    for _ in 0..index {
        match rest.find(['\n', '\r']) {
            Some(at) => {
                let skip = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[at + skip..];
            }
            None => return "",
        }
    }
    let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
    &rest[..end]
}

/// Where the 1-based character `column` of `line` starts on screen, in character cells
/// from the line's start, with tabs expanded. A column past the end is the line's end.
fn visual_column(line: &str, column: usize) -> usize {
    line.chars()
        .take(column.saturating_sub(1))
        .fold(0, |cells, character| {
            if character == '\t' {
                (cells / TAB_SIZE + 1) * TAB_SIZE
            } else {
                cells + 1
            }
        })
}

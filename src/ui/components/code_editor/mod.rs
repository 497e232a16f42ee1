//! A plain-text code editor without a JavaScript library: the browser edits a
//! `contenteditable="plaintext-only"` element that holds the text in blocks it lays out
//! only when they are on screen (`content`), layered over a backdrop that tints lines,
//! beside a gutter of line numbers (`gutter`). The gutter and the backdrop follow the
//! text's scrolling with a `transform`, so scrolling never reflows the page. The gutter
//! holds the numbers of a window of lines around the scroll position, so a text of
//! millions of lines costs a thousand numbers. The sizes they share (font, line height,
//! padding) live in `static/style.css` under `/* code editor */`.

mod content;
mod gutter;
mod lines;

pub use content::{read_node, Read, BLOCK_LINES};

use crate::ui::ptr_eq::PtrEq;
use content::Content;
use gutter::Gutter;
use lines::{line_count, nth_line, visual_column};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Columns a tab advances to a multiple of; `tab-size` in style.css says the same.
const TAB_SIZE: usize = 2;

/// How many line numbers the gutter holds at once, and the step by which that window
/// moves as the text scrolls (it starts one step above the first visible line).
const WINDOW_LINES: usize = 1_000;
const WINDOW_STEP: usize = 250;

#[derive(Properties, PartialEq)]
pub struct CodeEditorProps {
    /// The editable element's id.
    pub id: AttrValue,
    /// The id of the element that names the editor (aria-labelledby).
    pub labelled_by: AttrValue,
    /// Shared, so that passing it down and comparing it costs nothing.
    pub text: PtrEq<str>,
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
/// time). Escape leaves the text; Tab keeps moving focus as usual.
#[function_component(CodeEditor)]
pub fn code_editor(props: &CodeEditorProps) -> Html {
    let area = use_node_ref();
    let gutter = use_node_ref();
    let rows = use_node_ref();
    let columns = use_node_ref();
    let window_start = use_state_eq(|| 0usize);
    // What the element holds, as far as this editor knows: what it was given or what
    // was typed. Only a text that differs is written to it, so the text a keystroke
    // sent up and gets back is not written into the page again.
    let content = use_mut_ref(|| None::<Content>);
    let lines = *use_memo(props.text.clone(), |text| {
        let typed = content
            .borrow()
            .as_ref()
            .and_then(|held| held.lines_of(&text.0));
        typed.unwrap_or_else(|| line_count(text))
    });
    let layers = Layers {
        lines,
        area: area.clone(),
        gutter: gutter.clone(),
        rows: rows.clone(),
        columns: columns.clone(),
        window_start: window_start.clone(),
    };
    let written = use_mut_ref(|| false);
    {
        let area = area.clone();
        let content = content.clone();
        let written = written.clone();
        use_effect_with(props.text.clone(), move |text| {
            let mut content = content.borrow_mut();
            let fresh = content.is_none();
            if fresh {
                *content = area.cast::<HtmlElement>().map(Content::new);
            }
            if let Some(content) = content.as_mut() {
                let held = content.text();
                if fresh || !(Rc::ptr_eq(held, &text.0) || **held == **text) {
                    content.write(text.0.clone());
                    *written.borrow_mut() = true;
                }
            }
        });
    }
    {
        let content = content.clone();
        use_effect_with((), move |()| {
            move || {
                if let Some(content) = content.borrow_mut().take() {
                    content.disconnect();
                }
            }
        });
    }
    // A text written into the element, or lines added or removed, can move its scroll
    // without a scroll event. A keystroke within a line does neither, and reading the
    // scroll of a large text makes the browser lay it out at once.
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
    let oninput = typed(&content, &props.on_input);
    let onpaste = pasted(&content, &props.on_input);
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
                <div
                    ref={area}
                    class="code-editor-input"
                    id={props.id.clone()}
                    role="textbox"
                    aria-multiline="true"
                    aria-labelledby={props.labelled_by.clone()}
                    contenteditable={if props.readonly { "false" } else { "plaintext-only" }}
                    tabindex={props.readonly.then_some("0")}
                    aria-readonly={props.readonly.then_some("true")}
                    spellcheck="false"
                    autocapitalize="off"
                    autocorrect="off"
                    translate="no"
                    aria-invalid={error.is_some().then_some("true")}
                    aria-describedby={props.described_by.clone()}
                    {oninput}
                    {onpaste}
                    {onkeydown}
                    {onscroll}
                />
            </div>
        </div>
    }
}

/// The elements that follow the text's scroll.
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
    /// Moves the gutter and the backdrop to the text's scroll offset.
    fn follow(&self) {
        let Some(area) = self.area.cast::<HtmlElement>() else {
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

/// What typing does: the element's new text, read from the page, goes to the parent.
fn typed(
    content: &Rc<RefCell<Option<Content>>>,
    on_input: &Callback<Rc<str>>,
) -> Callback<InputEvent> {
    let content = content.clone();
    let on_input = on_input.clone();
    Callback::from(move |_: InputEvent| {
        let read = content.borrow_mut().as_mut().map(Content::read);
        if let Some(text) = read {
            on_input.emit(text);
        }
    })
}

/// What pasting does: the pasted text goes into the text at the selection, and the
/// whole text to the parent.
fn pasted(content: &Rc<RefCell<Option<Content>>>, on_input: &Callback<Rc<str>>) -> Callback<Event> {
    let content = content.clone();
    let on_input = on_input.clone();
    Callback::from(move |event: Event| {
        let Some(event) = event.dyn_ref::<web_sys::ClipboardEvent>() else {
            return;
        };
        let Some(pasted) = event
            .clipboard_data()
            .and_then(|data| data.get_data("text/plain").ok())
        else {
            return;
        };
        if pasted.is_empty() {
            // An image or a file: nothing the editor holds, and the selection stays.
            event.prevent_default();
            return;
        }
        let Some(mut content) = content.try_borrow_mut().ok() else {
            return;
        };
        if let Some(text) = content.as_mut().and_then(|content| content.paste(&pasted)) {
            event.prevent_default();
            drop(content);
            on_input.emit(text);
        }
    })
}

fn rows_style(lines: &Range<usize>) -> String {
    format!(
        "top: calc(var(--code-editor-line) * {}); height: calc(var(--code-editor-line) * {})",
        lines.start,
        lines.len()
    )
}

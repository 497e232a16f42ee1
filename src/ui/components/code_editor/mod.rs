//! A plain-text code editor without a JavaScript library: the browser edits a
//! `contenteditable="plaintext-only"` element that holds the text in blocks it lays out
//! only when they are on screen (`content`), layered over a backdrop that tints lines,
//! beside a gutter of line numbers (`gutter`). The gutter and the backdrop follow the
//! text's scrolling with a `transform`, so scrolling never reflows the page. The gutter
//! holds the numbers of a window of lines around the scroll position, so a text of
//! millions of lines costs a thousand numbers. The sizes they share (font, line height,
//! padding) live in `static/style.css` under `/* code editor */`.

mod brackets;
mod content;
mod gutter;
mod lines;
mod paint;

pub use content::{read_node, Read, BLOCK_LINES};

use crate::ui::ptr_eq::PtrEq;
use content::Content;
use gitops_page::{DriftMark, MarkKind};
use gutter::Gutter;
use lines::{line_count, nth_line, visual_column};
use paint::Painter;
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
    /// The error's message, written at the end of its line.
    #[prop_or_default]
    pub error_message: Option<AttrValue>,
    /// The id of the element that describes the error (aria-describedby), if any.
    #[prop_or_default]
    pub described_by: Option<AttrValue>,
    /// The drift to mark, in text order.
    #[prop_or_default]
    pub marks: Rc<Vec<DriftMark>>,
    /// A drift mark's button was pressed: the key of its object.
    #[prop_or_default]
    pub on_mark: Callback<String>,
    /// The lines of fields no comparison looks at, to grey.
    #[prop_or_default]
    pub ignored: Rc<Vec<Range<usize>>>,
    /// 0-based lines [start, end) to highlight (the object just changed), with a token that
    /// changes each time the highlight should play again.
    #[prop_or_default]
    pub highlight: Option<(std::ops::Range<usize>, u64)>,
    #[prop_or_default]
    pub readonly: bool,
}

/// The editor: the parent owns the text (`text` in, `on_input` out, the whole text each
/// time). Escape leaves the text; Tab keeps moving focus as usual; Enter keeps the
/// line's indentation.
#[function_component(CodeEditor)]
pub fn code_editor(props: &CodeEditorProps) -> Html {
    let area = use_node_ref();
    let gutter = use_node_ref();
    let rows = use_node_ref();
    let columns = use_node_ref();
    let drift = use_node_ref();
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
    let painting = use_mut_ref(Painting::default);
    let layers = Layers {
        lines,
        area: area.clone(),
        gutter: gutter.clone(),
        rows: rows.clone(),
        columns: columns.clone(),
        drift: drift.clone(),
        window_start: window_start.clone(),
        painting: painting.clone(),
        content: content.clone(),
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
        let area = area.clone();
        use_effect_with((), move |()| {
            let document = gloo::utils::document();
            let listener = gloo::events::EventListener::new(&document, "selectionchange", move |_| {
                if let Some(root) = area.cast::<web_sys::Node>() {
                    brackets::show_pair_at_caret(&root);
                }
            });
            move || drop(listener)
        });
    }
    {
        let content = content.clone();
        let painting = painting.clone();
        use_effect_with((), move |()| {
            move || {
                if let Some(content) = content.borrow_mut().take() {
                    content.disconnect();
                }
                let mut painting = painting.borrow_mut();
                painting.frame = None;
                painting.painter.clear();
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
            layers.paint_soon();
        });
    }
    {
        let painting = painting.clone();
        let ignored = props.ignored.clone();
        if !Rc::ptr_eq(&painting.borrow().ignored, &ignored) {
            painting.borrow_mut().ignored = ignored;
        }
    }
    let onscroll = Callback::from(move |_: Event| layers.follow());
    let indent = use_mut_ref(|| None::<String>);
    let oninput = typed(&content, &props.on_input, &indent);
    let onpaste = pasted(&content, &props.on_input);
    let onkeydown = {
        let content = content.clone();
        let readonly = props.readonly;
        Callback::from(move |event: KeyboardEvent| {
            // While an input method composes, its keys are its own.
            if event.is_composing() {
                return;
            }
            match event.key().as_str() {
                "Escape" => {
                    if let Some(area) = event.target_dyn_into::<HtmlElement>() {
                        let _ = area.blur();
                    }
                }
                "Enter" if !readonly && !(event.ctrl_key() || event.meta_key() || event.alt_key()) => {
                    *indent.borrow_mut() = content.borrow().as_ref().and_then(Content::indent_at_caret);
                }
                _ => {}
            }
        })
    };

    let error = props.error_at.map(|(line, column)| {
        let line = line.clamp(1, lines) - 1;
        let text = nth_line(&props.text, line);
        let width = visual_column(text, usize::MAX);
        (line, visual_column(text, column).min(width), width)
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
                error_line={error.map(|(line, ..)| line)}
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
                        { for props.marks.iter().map(|mark| html! {
                            <div class={classes!("code-editor-mark", "drift", mark_class(mark.kind))} style={rows_style(&mark.lines)} />
                        }) }
                        if let Some((line, ..)) = error {
                            <div class="code-editor-mark error-line" style={rows_style(&(line..line + 1))} />
                        }
                    </div>
                    <div class="code-editor-columns" ref={columns}>
                        if let Some((line, column, width)) = error {
                            <div
                                class="code-editor-column"
                                style={format!("top: calc(var(--code-editor-line) * {line}); left: {column}ch")}
                            >
                                <span class="code-editor-squiggle">{ blank_cells(width.saturating_sub(column).max(1)) }</span>
                                if let Some(message) = &props.error_message {
                                    <span class="code-editor-error-note">{ message }</span>
                                }
                            </div>
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
            <div class="code-editor-drift" ref={drift}>
                    { for props.marks.iter().map(|mark| {
                        let key = mark.key.clone();
                        let onclick = props.on_mark.reform(move |_: MouseEvent| key.clone());
                        let label = format!("{}: show it in the plan", mark.describe());
                        html! {
                            <button
                                type="button"
                                class={classes!("code-editor-drift-mark", mark_class(mark.kind))}
                                style={format!("top: calc(var(--code-editor-line) * {})", mark.lines.start)}
                                aria-label={label.clone()}
                                title={label}
                                {onclick}
                            />
                        }
                    }) }
            </div>
        </div>
    }
}

fn mark_class(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Changed => "changed",
        MarkKind::Missing => "missing",
        MarkKind::Extra => "extra",
    }
}

/// Non-breaking spaces, `cells` wide: text for an underline to sit under.
fn blank_cells(cells: usize) -> String {
    "\u{a0}".repeat(cells.min(MOST_UNDERLINED_CELLS))
}

/// An error's underline reaches at most this far past its column.
const MOST_UNDERLINED_CELLS: usize = 400;

/// The colours' painter, and the frame it waits for.
#[derive(Default)]
struct Painting {
    painter: Painter,
    /// The line at the top of the text's scroll.
    first_line: usize,
    /// The lines to grey.
    ignored: Rc<Vec<Range<usize>>>,
    frame: Option<gloo::render::AnimationFrame>,
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
    drift: NodeRef,
    window_start: UseStateHandle<usize>,
    painting: Rc<RefCell<Painting>>,
    content: Rc<RefCell<Option<Content>>>,
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
            self.painting.borrow_mut().first_line = first_visible;
            self.paint_soon();
        }
        let vertical = format!("transform: translateY({}px)", -y);
        place(&self.gutter, &vertical);
        place(&self.rows, &vertical);
        place(&self.drift, &vertical);
        place(
            &self.columns,
            &format!("transform: translate({}px, {}px)", -x, -y),
        );
    }

    /// Colours the blocks near the screen once the next frame has been shown, so that
    /// a keystroke's frame does not wait for it.
    fn paint_soon(&self) {
        let mut painting = self.painting.borrow_mut();
        if painting.frame.is_some() {
            return;
        }
        let (content, later) = (self.content.clone(), self.painting.clone());
        painting.frame = Some(gloo::render::request_animation_frame(move |_| {
            gloo::timers::callback::Timeout::new(0, move || {
                let mut painting = later.borrow_mut();
                painting.frame = None;
                let line = painting.first_line;
                if let Some(content) = content.borrow().as_ref() {
                    let ignored = painting.ignored.clone();
                    painting.painter.paint(&content.blocks_around(line), &ignored);
                }
            })
            .forget();
        }));
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
/// A line break typed after Enter gets the indentation Enter found (`indent`): its
/// insertion is an edit of its own, whose input event reads the text.
fn typed(
    content: &Rc<RefCell<Option<Content>>>,
    on_input: &Callback<Rc<str>>,
    indent: &Rc<RefCell<Option<String>>>,
) -> Callback<InputEvent> {
    let content = content.clone();
    let on_input = on_input.clone();
    let indent = indent.clone();
    Callback::from(move |event: InputEvent| {
        // An `input` event a script dispatched is a plain Event, without `inputType`.
        let broke_line = || {
            event.is_instance_of::<InputEvent>()
                && matches!(event.input_type().as_str(), "insertParagraph" | "insertLineBreak")
        };
        let pending = indent.borrow_mut().take().filter(|indent| !indent.is_empty() && broke_line());
        if let Some(indent) = pending {
            let document: web_sys::HtmlDocument = gloo::utils::document().unchecked_into();
            if document.exec_command_with_show_ui_and_value("insertText", false, &indent).unwrap_or(false) {
                return;
            }
        }
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

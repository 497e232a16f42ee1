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
mod folding;
mod gutter;
mod input;
mod layers;
mod lines;
mod paint;

pub use content::{read_node, Read, BLOCK_LINES};

use crate::ui::ptr_eq::SameText;
use content::Content;
use folding::{fold_at, fold_key};
use gitops_core::text::edit::TypedText;
use gitops_page::folds::{hidden_by_folding, Folds};
use gitops_page::{MarkKind, PaneMarks};
use gutter::Gutter;
use input::{pasted, typed};
use layers::{Layers, Painting};
use lines::{line_count, nth_line, visual_column};
use std::ops::Range;
use std::rc::Rc;
use web_sys::HtmlElement;
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
    pub text: SameText,
    pub on_input: Callback<TypedText>,
    /// 1-based line (and column) of an error to mark, if any.
    #[prop_or_default]
    pub error_at: Option<(usize, usize)>,
    /// The error's message, written at the end of its line.
    #[prop_or_default]
    pub error_message: Option<AttrValue>,
    /// The id of the element that describes the error (aria-describedby), if any.
    #[prop_or_default]
    pub described_by: Option<AttrValue>,
    /// The drift to mark, the lines of fields no comparison looks at (to grey), and
    /// the objects that fold.
    #[prop_or_default]
    pub marks: Rc<PaneMarks>,
    /// A drift mark's button was pressed: the key of its object.
    #[prop_or_default]
    pub on_mark: Callback<String>,
    /// 0-based lines [start, end) to highlight (the object just changed), with a token that
    /// changes each time the highlight should play again.
    #[prop_or_default]
    pub highlight: Option<(std::ops::Range<usize>, u64)>,
    #[prop_or_default]
    pub readonly: bool,
}

/// The editor: the parent owns the text (`text` in, `on_input` out, the whole text each
/// time). Escape leaves the text; Tab keeps moving focus as usual; Enter keeps the
/// line's indentation; Ctrl+Shift+[ (⌘+Alt+[) folds the object at the caret and
/// Ctrl+Shift+] unfolds it, as the gutter's arrows do. An object stays folded while
/// the text changes around it.
#[function_component(CodeEditor)]
pub fn code_editor(props: &CodeEditorProps) -> Html {
    let area = use_node_ref();
    let gutter = use_node_ref();
    let row_marks = use_node_ref();
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
            .and_then(|held| held.lines_of(&text.0.clone()));
        typed.unwrap_or_else(|| line_count(text))
    });
    // The folds the element holds; folding draws the editor again.
    let folds = content
        .borrow()
        .as_ref()
        .map(Content::folds)
        .unwrap_or_default();
    let redraw = use_force_update();
    let rows = folds.rows(lines);
    // The objects folded, by key, so that a text written anew folds them again (and
    // one that comes back, folded as it left).
    let folded_keys = use_mut_ref(Vec::<String>::new);
    let painting = use_mut_ref(Painting::default);
    let layers = Layers {
        rows,
        folds: folds.clone(),
        area: area.clone(),
        gutter: gutter.clone(),
        rows_element: row_marks.clone(),
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
        let (drawn, redraw, folded_keys, marks) = (
            folds.clone(),
            redraw.clone(),
            folded_keys.clone(),
            props.marks.clone(),
        );
        use_effect_with(props.text.clone(), move |text| {
            let mut content = content.borrow_mut();
            let fresh = content.is_none();
            if fresh {
                *content = area.cast::<HtmlElement>().map(Content::new);
            }
            if let Some(content) = content.as_mut() {
                let text = text.0.clone();
                // Equal texts: the same allocation at once, else the same bytes.
                if fresh || *content.text() != text {
                    let keys = folded_keys.borrow();
                    let folded = marks.objects.iter().filter(|(key, _)| keys.contains(key));
                    let hidden =
                        Folds::new(folded.map(|(_, lines)| hidden_by_folding(lines)).collect());
                    if hidden != drawn {
                        redraw.force_update();
                    }
                    content.write(text, &hidden);
                    *written.borrow_mut() = true;
                }
            }
        });
    }
    {
        let area = area.clone();
        use_effect_with((), move |()| {
            let document = gloo::utils::document();
            let listener =
                gloo::events::EventListener::new(&document, "selectionchange", move |_| {
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
                painting.borrow_mut().painter.clear();
            }
        });
    }
    // A text written into the element, or lines added or removed, can move its scroll
    // without a scroll event. A keystroke within a line does neither, and reading the
    // scroll of a large text makes the browser lay it out at once.
    let followed_rows = use_mut_ref(|| None::<usize>);
    {
        let layers = layers.clone();
        use_effect(move || {
            let text_moved = std::mem::take(&mut *written.borrow_mut());
            let rows_moved = followed_rows.replace(Some(rows)) != Some(rows);
            if text_moved || rows_moved {
                layers.follow();
            }
            layers.paint();
        });
    }
    {
        let painting = painting.clone();
        let marks = props.marks.clone();
        if !Rc::ptr_eq(&painting.borrow().marks, &marks) {
            painting.borrow_mut().marks = marks;
        }
    }
    let onscroll = Callback::from(move |_: Event| layers.follow());
    let indent = use_mut_ref(|| None::<String>);
    let oninput = typed(&content, &props.on_input, &indent);
    let onpaste = pasted(&content, &props.on_input);
    // One callback for the editor's life, so that the gutter is not drawn again at
    // each keystroke; it finds the objects where the painting keeps the marks.
    let on_fold = {
        let (content, painting, folded_keys) =
            (content.clone(), painting.clone(), folded_keys.clone());
        use_mut_ref(move || {
            Callback::from(move |at| {
                let marks = painting.borrow().marks.clone();
                fold_at(&content, &folded_keys, &marks, at);
                redraw.force_update();
            })
        })
    };
    let on_fold = on_fold.borrow().clone();
    let onkeydown = {
        let content = content.clone();
        let readonly = props.readonly;
        let on_fold = on_fold.clone();
        Callback::from(move |event: KeyboardEvent| {
            // While an input method composes, its keys are its own.
            if event.is_composing() {
                return;
            }
            if let Some(fold) = fold_key(&event) {
                event.prevent_default();
                let line = content.borrow().as_ref().and_then(Content::caret_line);
                if let Some(line) = line {
                    on_fold.emit((line, Some(fold)));
                }
                return;
            }
            match event.key().as_str() {
                "Escape" => {
                    if let Some(area) = event.target_dyn_into::<HtmlElement>() {
                        let _ = area.blur();
                    }
                }
                "Enter"
                    if !(readonly || event.ctrl_key() || event.meta_key() || event.alt_key()) =>
                {
                    *indent.borrow_mut() =
                        content.borrow().as_ref().and_then(Content::indent_at_caret);
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
        (*window_start).min(rows.saturating_sub(1))..rows.min(*window_start + WINDOW_LINES);
    let on_rows = |lines: &Range<usize>| rows_style(&folds.rows_of(lines));

    html! {
        <div class={classes!(
            "code-editor",
            error.is_some().then_some("invalid"),
            props.readonly.then_some("readonly"),
        )}>
            <Gutter
                numbers={gutter}
                {window}
                folds={folds.clone()}
                marks={props.marks.clone()}
                on_fold={on_fold}
                error_line={error.map(|(line, ..)| line)}
                highlight={highlight.as_ref().map(|(range, _)| range.clone())}
            />
            <div class="code-editor-body">
                <div class="code-editor-backdrop" aria-hidden="true">
                    <div class="code-editor-rows" ref={row_marks}>
                        if let Some((range, token)) = &highlight {
                            // A new token is a new element, so the fade plays again.
                            <div
                                key={token.to_string()}
                                class="code-editor-mark highlight"
                                style={on_rows(range)}
                            />
                        }
                        { for props.marks.drift.iter().map(|mark| html! {
                            <div class={classes!("code-editor-mark", "drift", mark_class(mark.kind))} style={on_rows(&mark.lines)} />
                        }) }
                        { for folds.hidden().iter().map(|hidden| html! {
                            <div class="code-editor-mark folded" style={on_rows(&(hidden.start - 1..hidden.start))} />
                        }) }
                        if let Some((line, ..)) = error {
                            <div class="code-editor-mark error-line" style={on_rows(&(line..line + 1))} />
                        }
                    </div>
                    <div class="code-editor-columns" ref={columns}>
                        if let Some((line, column, width)) = error {
                            <div
                                class="code-editor-column"
                                style={format!("top: calc(var(--code-editor-line) * {}); left: {column}ch", folds.row(line))}
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
                    // An editing host is in the tab order already; said outright, so that
                    // axe's check of scrollable regions knows it too.
                    tabindex="0"
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
                    { for props.marks.drift.iter().map(|mark| {
                        let key = mark.key.clone();
                        let onclick = props.on_mark.reform(move |_: MouseEvent| key.clone());
                        let label = format!("{}: show it in the plan", mark.describe());
                        html! {
                            <button
                                type="button"
                                class={classes!("code-editor-drift-mark", mark_class(mark.kind))}
                                style={format!("top: calc(var(--code-editor-line) * {})", folds.row(mark.lines.start))}
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

fn rows_style(lines: &Range<usize>) -> String {
    format!(
        "top: calc(var(--code-editor-line) * {}); height: calc(var(--code-editor-line) * {})",
        lines.start,
        lines.len()
    )
}

//! The page's side effects, each in a hook: the start of a page mounted without
//! one (`ui::start` opens the link or the saved work before the page mounts), links
//! opened later in the same page, saving work, the theme, the play timer and the
//! keyboard shortcuts.

use crate::ui::ptr_eq::PtrEq;
use crate::ui::reducer::PageModel;
use crate::ui::storage::{self, SaveError};
use gitops_core::text::typed::from_json;
use gitops_page::{Action, MenuEntry, Preset, Source, Theme, ViewAction, WorkAction, FIRST_PRESET};
use gloo::events::{EventListener, EventListenerOptions};
use gloo::net::http::Request;
use gloo::timers::callback::{Interval, Timeout};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The theme a person chose before, if storage allows; else the system's.
pub fn saved_theme() -> Theme {
    match storage::theme().as_deref() {
        Some("light") => Theme::Light,
        Some("dark") => Theme::Dark,
        _ => Theme::System,
    }
}

/// Applies the theme to the document, and remembers the choice when it is the reader's.
#[hook]
pub fn use_theme(theme: Theme, remember: bool) {
    use_effect_with((theme, remember), |(theme, remember)| {
        let root = gloo::utils::document_element();
        let name = match theme {
            Theme::System => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        };
        let _ = match name {
            Some(name) => root.set_attribute("data-theme", name),
            None => root.remove_attribute("data-theme"),
        };
        if *remember {
            storage::set_theme(name.unwrap_or("system"));
        }
    });
}

/// The start, when the page mounted without one (`over` is false: a page mounted
/// alone, as tests mount it, not by `web::start`): loads the menu (`menu.json`, next
/// to the page), then opens what links and a host page asked for meanwhile. The
/// presets' texts come when something needs them (`use_presets_when_wanted`).
#[hook]
pub fn use_start(over: bool, dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with((), move |()| {
        if !over {
            yew::platform::spawn_local(async move {
                dispatch.dispatch(menu_loaded(load_menu().await));
                dispatch.dispatch(Action::Started);
            });
        }
    });
}

/// What the menu's loading tells the page.
pub(crate) fn menu_loaded(menu: Result<Vec<MenuEntry>, String>) -> Action {
    match menu {
        Ok(menu) => Action::MenuLoaded(menu),
        Err(error) => ViewAction::Notice(format!(
            "The presets could not be loaded ({error}); the lesson's example is here."
        ))
        .into(),
    }
}

/// Opens the session a link's fragment (`#v1.…`) carries, or says why it does not
/// open, once the browser has inflated it.
fn open_link(fragment: String, source: Source, dispatch: UseReducerDispatcher<PageModel>) {
    yew::platform::spawn_local(async move {
        dispatch.dispatch(match crate::ui::compression::decode_link(&fragment).await {
            Ok(session) => Action::Open(session, source),
            Err(problem) => Action::CannotOpen(source, problem.into()),
        });
    });
}

/// Opens a link pasted into the address bar of the page already open (or set by a
/// script, or by a host page on its iframe): only the fragment changed, so the
/// browser does not load the page again. Share writes its link with
/// `history.replaceState`, which fires no `hashchange`, so the page never opens
/// its own link again. A fragment that names an element of the page is a place in
/// it, and one taken away leaves the scenario on screen.
#[hook]
pub fn use_followed_links(dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with((), move |()| {
        let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
            let fragment = gloo::utils::window().location().hash().unwrap_or_default();
            let place = fragment
                .strip_prefix('#')
                .filter(|id| !id.is_empty())
                .and_then(|id| gloo::utils::document().get_element_by_id(id));
            if fragment.len() > 1 && place.is_none() {
                open_link(fragment, Source::Link, dispatch.clone());
            }
        });
        move || drop(listener)
    });
}

/// Saves the work whenever it changes; says once if the browser does not allow it.
/// Saving starts when typing pauses, and the browser deflates each session in turn; a
/// change meanwhile starts it again, and leaving the page finishes it at once. The work the page mounts with is saved only when the
/// start changed it (`changed_at_start`: it opened a link, say).
#[hook]
pub fn use_save_work(
    saved: std::rc::Rc<gitops_page::SavedSessions>,
    last: String,
    changed_at_start: bool,
    dispatch: UseReducerDispatcher<PageModel>,
) {
    let warned = use_mut_ref(|| false);
    let already_saved = use_mut_ref(|| !changed_at_start);
    // The saved work is replaced on each change (the effect keeps the last one, so the
    // model's `Rc::make_mut` copies it), so its allocation says whether it changed.
    use_effect_with((PtrEq(saved), last), move |(saved, last)| {
        let mut pending = None;
        if !std::mem::take(&mut *already_saved.borrow_mut()) {
            let progress = Rc::new(RefCell::new(SaveProgress::Waiting));
            let start = {
                let (saved, last) = (saved.0.clone(), last.clone());
                let progress = progress.clone();
                let (warned, dispatch) = (warned.clone(), dispatch.clone());
                move || {
                    *progress.borrow_mut() =
                        SaveProgress::Saving(storage::Saving::new(&saved, &last));
                    yew::platform::spawn_local(async move {
                        loop {
                            let next = match &*progress.borrow() {
                                SaveProgress::Saving(saving) => saving.next(),
                                _ => return,
                            };
                            let Some(session) = next else {
                                break;
                            };
                            let Some(fragment) = crate::ui::compression::encode_saved(&session).await else {
                                break;
                            };
                            match &mut *progress.borrow_mut() {
                                SaveProgress::Saving(saving) => saving.encoded(fragment),
                                _ => return,
                            }
                        }
                        let finished = progress.replace(SaveProgress::Saved);
                        if let SaveProgress::Saving(saving) = finished {
                            report_save(saving.finish(), &warned, &dispatch);
                        }
                    });
                }
            };
            let on_leave = {
                let (saved, last) = (saved.0.clone(), last.clone());
                let progress = progress.clone();
                move || match progress.replace(SaveProgress::Saved) {
                    SaveProgress::Waiting => report_save(
                        storage::Saving::new(&saved, &last).finish(),
                        &warned,
                        &dispatch,
                    ),
                    SaveProgress::Saving(saving) => {
                        report_save(saving.finish(), &warned, &dispatch)
                    }
                    SaveProgress::Saved | SaveProgress::Superseded => {}
                }
            };
            pending = Some((
                Timeout::new(SAVE_AFTER_MS, start),
                EventListener::new(&gloo::utils::window(), "pagehide", move |_| on_leave()),
                progress,
            ));
        }
        move || {
            // A newer change saves the work from now on: this saving stops.
            if let Some((_, _, progress)) = &pending {
                progress.replace(SaveProgress::Superseded);
            }
            drop(pending)
        }
    });
}

/// Where saving one change of the work is.
enum SaveProgress {
    /// Typing has not paused yet.
    Waiting,
    Saving(storage::Saving),
    Saved,
    /// The work changed again before this change was saved.
    Superseded,
}

/// Saving waits until typing pauses this long (and happens at once when the page is left),
/// so that a keystroke never pays for encoding every saved session.
const SAVE_AFTER_MS: u32 = 400;

fn report_save(
    saved: Result<(), SaveError>,
    warned: &std::rc::Rc<std::cell::RefCell<bool>>,
    dispatch: &UseReducerDispatcher<PageModel>,
) {
    let problem = match saved {
        Ok(()) => None,
        Err(SaveError::Blocked) => Some("This browser does not let the page keep your work: it stays in memory until you leave.".to_string()),
        Err(SaveError::TooLarge(size)) => Some(format!("Your work is too large to keep ({size} characters); it stays in memory until you leave.")),
    };
    if let Some(problem) = problem {
        if !warned.replace(true) {
            dispatch.dispatch(ViewAction::Notice(problem).into());
        }
    }
}

/// Keeps the exercises' progress (solved, hints shown) in local storage.
#[hook]
pub fn use_save_progress(progress: std::rc::Rc<gitops_page::ByKey<gitops_page::Progress>>) {
    // Progress is replaced when it changes: a new allocation is new progress.
    use_effect_with(PtrEq(progress), |progress| {
        if !progress.is_empty() {
            storage::save_progress(progress);
        }
    });
}

/// Makes the link Share asked for (of `session`, while it waits for one) and hands it
/// to the model.
#[hook]
pub fn use_make_link(session: Option<gitops_world::share::Session>, dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with(session, move |session| {
        if let Some(session) = session.clone() {
            yew::platform::spawn_local(async move {
                let fragment = crate::ui::compression::encode_link(&session).await;
                dispatch.dispatch(WorkAction::LinkMade(fragment).into());
            });
        }
    });
}

/// Writes a shared session's link into the address bar.
#[hook]
pub fn use_share_link(fragment: Option<String>) {
    use_effect_with(fragment, |fragment| {
        if let Some(fragment) = fragment {
            if let Ok(history) = gloo::utils::window().history() {
                let _ = history.replace_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&format!("#{fragment}")),
                );
            }
        }
    });
}

/// Fetches the presets' texts when the model wants them: the first time a
/// person chooses one, or a link, saved work or a host page opens one.
#[hook]
pub fn use_presets_when_wanted(wanted: bool, dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with(wanted, move |wanted| {
        if *wanted {
            yew::platform::spawn_local(async move {
                dispatch.dispatch(match load_presets().await {
                    Ok(presets) => Action::PresetsLoaded(presets),
                    Err(problem) => Action::PresetsFailed(problem),
                });
            });
        }
    });
}

/// The menu, presets then exercises, from `menu.json`, which the build
/// writes from the two `index.json` lists and the files' titles and sections.
pub(crate) async fn load_menu() -> Result<Vec<MenuEntry>, String> {
    let text = fetch_text(MENU).await?;
    let menu: Menu = from_json(&text).map_err(|error| format!("{MENU}: {error}"))?;
    Ok(menu.presets.into_iter().chain(menu.exercises).collect())
}

const MENU: &str = "menu.json";

/// `menu.json`: each preset's and exercise's file, title and section, in menu order.
#[derive(serde::Deserialize)]
struct Menu {
    presets: Vec<MenuEntry>,
    exercises: Vec<MenuEntry>,
}

/// The presets, then the exercises (named `exercises/<file>`), from
/// `scenarios.json`, which the build writes from the two `index.json` lists
/// (scripts/post-build.mjs): one response for them all.
pub(crate) async fn load_presets() -> Result<Vec<Preset>, String> {
    let text = fetch_text(SCENARIOS).await?;
    let bundle: Bundle =
        from_json(&text).map_err(|error| format!("{SCENARIOS}: {error}"))?;
    let exercises = bundle
        .exercises
        .into_iter()
        .map(|(file, text)| (format!("exercises/{file}"), text));
    let mut presets = Vec::new();
    for (file, text) in bundle.presets.into_iter().chain(exercises) {
        let text = if file == FIRST_PRESET.0 {
            FIRST_PRESET.1.to_string()
        } else {
            text
        };
        let (preset, _) = Preset::read(&file, &text).map_err(|error| error.to_string())?;
        presets.push(preset);
    }
    Ok(presets)
}

const SCENARIOS: &str = "scenarios.json";

/// `scenarios.json`: each preset's and exercise's file and text, in menu order.
#[derive(serde::Deserialize)]
struct Bundle {
    presets: Vec<(String, String)>,
    exercises: Vec<(String, String)>,
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let response = Request::get(url)
        .send()
        .await
        .map_err(|error| format!("{url}: {error}"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    response
        .text()
        .await
        .map_err(|error| format!("{url}: {error}"))
}

/// When typing pauses this long, the world takes the text typed last.
const SETTLE_AFTER_MS: u32 = 250;

/// Tells the page that typing paused (`typing` is the keystroke count while
/// the world has not taken a typed text).
#[hook]
pub fn use_settle_after_typing(typing: Option<u64>, dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with(typing, move |typing| {
        let timeout = typing
            .map(|_| Timeout::new(SETTLE_AFTER_MS, move || dispatch.dispatch(Action::Settle)));
        move || drop(timeout)
    });
}

/// While playing, applies one operation every `speed` milliseconds.
#[hook]
pub fn use_play_timer(playing: bool, speed: u32, dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with((playing, speed), move |(playing, speed)| {
        let interval =
            playing.then(|| Interval::new(*speed, move || dispatch.dispatch(Action::Tick)));
        move || drop(interval)
    });
}

/// Ctrl/Cmd+Enter steps; Ctrl/Cmd+S commits the working copy (not the
/// browser's Save page); `?` outside a text field or an editor shows the help.
#[hook]
pub fn use_keyboard_shortcuts(dispatch: UseReducerDispatcher<PageModel>) {
    use_effect_with((), move |()| {
        // Not passive: Ctrl+Enter keeps the browser from acting on it too.
        let listener = EventListener::new_with_options(
            &gloo::utils::window(),
            "keydown",
            EventListenerOptions::enable_prevent_default(),
            move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                let command = event.ctrl_key() || event.meta_key();
                if command && event.key() == "Enter" {
                    event.prevent_default();
                    dispatch.dispatch(Action::Step);
                } else if command && event.key().eq_ignore_ascii_case("s") {
                    event.prevent_default();
                    dispatch.dispatch(Action::Commit);
                } else if event.key() == "?" && !typing(event) {
                    dispatch.dispatch(ViewAction::ToggleHelp.into());
                }
            },
        );
        move || drop(listener)
    });
}

/// Whether the key goes into a text (an editor, a text area or a text field), where
/// `?` is a character, not a shortcut. On a checkbox, a button or a menu it is not.
fn typing(event: &web_sys::KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|element| {
            element.is_content_editable()
                || element.tag_name() == "TEXTAREA"
                || element.get_attribute("role").as_deref() == Some("textbox")
                || element
                    .dyn_ref::<web_sys::HtmlInputElement>()
                    .is_some_and(|input| takes_text(&input.type_()))
        })
}

/// Whether an `<input>` of this type is typed into.
fn takes_text(input_type: &str) -> bool {
    !matches!(
        input_type,
        "checkbox"
            | "radio"
            | "button"
            | "submit"
            | "reset"
            | "image"
            | "file"
            | "color"
            | "range"
            | "hidden"
    )
}

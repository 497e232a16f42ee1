//! The page's side effects, each in a hook: loading presets, the theme,
//! the play timer and the keyboard shortcuts.

use crate::ui::model::{Action, Model, Preset, Theme, FIRST_PRESET};
use gloo::events::EventListener;
use gloo::net::http::Request;
use gloo::storage::{LocalStorage, Storage};
use gloo::timers::callback::Interval;
use wasm_bindgen::JsCast;
use yew::prelude::*;

const THEME_KEY: &str = "gitops-playground.theme";

/// The theme a person chose before, if storage allows; else the system's.
pub fn saved_theme() -> Theme {
    match LocalStorage::get::<String>(THEME_KEY).ok().as_deref() {
        Some("light") => Theme::Light,
        Some("dark") => Theme::Dark,
        _ => Theme::System,
    }
}

/// Applies the theme to the document and remembers the choice.
#[hook]
pub fn use_theme(theme: Theme) {
    use_effect_with(theme, |theme| {
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
        let _ = LocalStorage::set(THEME_KEY, name.unwrap_or("system"));
    });
}

/// Loads the presets listed in `presets/index.json`, next to the page.
#[hook]
pub fn use_presets(dispatch: UseReducerDispatcher<Model>) {
    use_effect_with((), move |()| {
        yew::platform::spawn_local(async move {
            match load_presets().await {
                Ok(presets) => dispatch.dispatch(Action::PresetsLoaded(presets)),
                Err(error) => dispatch.dispatch(Action::Notice(format!(
                    "The presets could not be loaded ({error}); the lesson's example is here."
                ))),
            }
        });
    });
}

async fn load_presets() -> Result<Vec<Preset>, String> {
    let files: Vec<String> = fetch_text("presets/index.json").await.and_then(|text| {
        serde_json::from_str(&text).map_err(|error| format!("presets/index.json: {error}"))
    })?;
    let mut presets = Vec::with_capacity(files.len());
    for file in files {
        let text = if file == FIRST_PRESET.0 {
            FIRST_PRESET.1.to_string()
        } else {
            fetch_text(&format!("presets/{file}")).await?
        };
        let (preset, _) = Preset::read(&file, &text).map_err(|error| error.to_string())?;
        presets.push(preset);
    }
    Ok(presets)
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

/// While playing, applies one operation every `speed` milliseconds.
#[hook]
pub fn use_play_timer(playing: bool, speed: u32, dispatch: UseReducerDispatcher<Model>) {
    use_effect_with((playing, speed), move |(playing, speed)| {
        let interval =
            playing.then(|| Interval::new(*speed, move || dispatch.dispatch(Action::Tick)));
        move || drop(interval)
    });
}

/// Ctrl/Cmd+Enter steps; `?` outside an editor shows the help.
#[hook]
pub fn use_keyboard_shortcuts(dispatch: UseReducerDispatcher<Model>) {
    use_effect_with((), move |()| {
        let listener = EventListener::new(&gloo::utils::window(), "keydown", move |event| {
            let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if (event.ctrl_key() || event.meta_key()) && event.key() == "Enter" {
                event.prevent_default();
                dispatch.dispatch(Action::Step);
            } else if event.key() == "?" && !typing(event) {
                dispatch.dispatch(Action::ToggleHelp);
            }
        });
        move || drop(listener)
    });
}

fn typing(event: &web_sys::KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|element| {
            matches!(element.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT")
        })
}

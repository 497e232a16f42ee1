use super::dialog::{use_dialog, SHARE_BUTTON};
use gitops_core::text::edit::SharedText;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[wasm_bindgen(module = "/src/ui/save_scenario.js")]
extern "C" {
    /// A promise of what to say of the scenario file downloaded (its name, what it
    /// does not keep), or of why it was not written.
    #[wasm_bindgen(js_name = saveScenario)]
    fn save_scenario(text: &str, link: &str, name: &str) -> js_sys::Promise;
}

#[derive(Properties, PartialEq)]
pub struct SharePanelProps {
    /// The link fragment, without `#`; or, when the playground would not open
    /// a link of the scenario, why and what to do instead; none while it is made.
    pub fragment: Option<Result<String, String>>,
    pub title: AttrValue,
    /// The scenario's text, and the name its saved file takes (`<name>.yaml`).
    pub scenario: SharedText,
    pub file_name: AttrValue,
    pub on_close: Callback<()>,
}

/// Save as scenario: what was done, written by the API module as a scenario file the
/// browser downloads; then what it does not keep, or why it was not written.
fn save(props: &SharePanelProps, fragment: &str, saved: UseStateHandle<Option<Result<String, String>>>) -> Callback<MouseEvent> {
    let (text, link, name) = (props.scenario.clone(), format!("#{fragment}"), props.file_name.clone());
    Callback::from(move |_| {
        let (text, link, name, saved) = (text.clone(), link.clone(), name.clone(), saved.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let outcome = wasm_bindgen_futures::JsFuture::from(save_scenario(&text, &link, &name)).await;
            saved.set(Some(match outcome {
                Ok(said) => Ok(said.as_string().unwrap_or_default()),
                Err(error) => Err(js_sys::Error::from(error).message().into()),
            }));
        });
    })
}

/// The page's address without query or fragment.
fn base_url() -> String {
    let location = gloo::utils::window().location();
    format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    )
}

/// The iframe a lesson page embeds for this session.
pub fn embed_code(base: &str, fragment: &str, title: &str) -> String {
    let title = title
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    format!(
        "<iframe src=\"{base}?embed=1#{fragment}\" title=\"GitOps playground: {title}\" width=\"100%\" height=\"640\" style=\"border: 0\" loading=\"lazy\"></iframe>"
    )
}

fn copy(
    text: String,
    copied: UseStateHandle<Option<&'static str>>,
    what: &'static str,
) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        let _ = gloo::utils::window()
            .navigator()
            .clipboard()
            .write_text(&text);
        copied.set(Some(what));
    })
}

/// The share link and the embed code of the current session, or why there are
/// none: a link the playground would refuse to open is never handed out.
#[function_component(SharePanel)]
pub fn share_panel(props: &SharePanelProps) -> Html {
    let copied = use_state(|| None::<&'static str>);
    let saved = use_state(|| None::<Result<String, String>>);
    let base = base_url();
    let shared = props.fragment.as_ref().map(|made| made.as_ref().map(|fragment| {
        (
            format!("{base}#{fragment}"),
            embed_code(&base, fragment, &props.title),
        )
    }));
    let dialog = use_dialog(props.on_close.clone(), SHARE_BUTTON);
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <section
            class="share"
            role="dialog"
            aria-modal="false"
            aria-labelledby="share-title"
            tabindex="-1"
            ref={dialog}
        >
            <h2 id="share-title">{ "Share" }</h2>
            { match shared {
                None => html! { <p role="status">{ "Making the link…" }</p> },
                Some(Ok((link, embed))) => html! {
                    <>
                        <label for="share-link" class="block">{ "Link to this scenario, with what you did" }</label>
                        <div class="copy-row">
                            <input id="share-link" readonly=true value={link.clone()} />
                            <button onclick={copy(link, copied.clone(), "link")}>{ "Copy link" }</button>
                        </div>
                        <label for="embed-code" class="block">{ "Embed code for a lesson page" }</label>
                        <div class="copy-row">
                            <textarea id="embed-code" readonly=true rows="3" value={embed.clone()} />
                            <button onclick={copy(embed, copied.clone(), "embed code")}>{ "Copy embed code" }</button>
                        </div>
                        <p class="hint">
                            { "To control the embedded playground with postMessage, add &origin=<your page's origin> to the iframe's address; messages from other origins are ignored." }
                        </p>
                        <button onclick={save(props, props.fragment.as_ref().and_then(|made| made.as_deref().ok()).unwrap_or_default(), saved.clone())}>{ "Save as scenario" }</button>
                    </>
                },
                Some(Err(why)) => html! { <p class="refused" role="alert">{ why }</p> },
            } }
            if let Some(what) = *copied {
                <p role="status">{ format!("The {what} is copied.") }</p>
            }
            { match &*saved {
                None => html! {},
                Some(Ok(said)) => html! { <p role="status">{ said }</p> },
                Some(Err(why)) => html! { <p class="refused" role="alert">{ format!("The scenario could not be saved: {why}") }</p> },
            } }
            <button onclick={close}>{ "Close" }</button>
        </section>
    }
}

use super::code_spans::code_spans;
use crate::ui::ptr_eq::PtrEq;
use gitops_page::manifest::{applications_in_git, argo_cd_application, flux_kustomization, ManifestLine};
use gitops_core::options::Agent;
use gitops_world::scenario::Mode;
use gitops_world::World;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(PartialEq)]
pub struct OptionsPanelProps {
    /// The world whose options these are, compared by allocation.
    pub world: PtrEq<World>,
    pub ignore_text: AttrValue,
    pub ignore_error: Option<AttrValue>,
    /// The rules that select no object (`Model::ignore_notes`).
    pub ignore_notes: Vec<String>,
    pub on_prune: Callback<bool>,
    pub on_self_heal: Callback<bool>,
    pub on_auto_sync: Callback<bool>,
    pub on_respect_ignore: Callback<bool>,
    pub on_server_side_apply: Callback<bool>,
    pub on_mode: Callback<Mode>,
    pub on_agent: Callback<Agent>,
    pub on_ignore: Callback<String>,
}

fn checked(event: Event) -> bool {
    event.target_unchecked_into::<HtmlInputElement>().checked()
}

/// The reconciler's options and the agent's policy.
pub fn options_panel(props: &OptionsPanelProps) -> Html {
    let options = &props.world.options;
    let checkbox = |label: &'static str, value: bool, on: &Callback<bool>| {
        let onchange = on.reform(checked);
        html! { <label class="check"><input type="checkbox" checked={value} {onchange} />{ label }</label> }
    };
    let mode = |value: Mode, label: &'static str| {
        let onchange = props.on_mode.reform(move |_: Event| value);
        html! {
            <label class="check"><input type="radio" name="mode" checked={options.mode == value} {onchange} />{ label }</label>
        }
    };
    let agent = |value: Agent, label: &'static str| {
        let onchange = props.on_agent.reform(move |_: Event| value);
        html! {
            <label class="check"><input type="radio" name="agent" checked={options.agent == value} {onchange} />{ label }</label>
        }
    };
    let on_ignore = props
        .on_ignore
        .reform(|event: InputEvent| event.target_unchecked_into::<HtmlTextAreaElement>().value());
    let on_escape = Callback::from(|event: KeyboardEvent| {
        if event.key() == "Escape" {
            event
                .target_unchecked_into::<web_sys::HtmlElement>()
                .blur()
                .ok();
        }
    });
    html! {
        <section class="options" aria-labelledby="options-title">
            <h2 id="options-title">{ "Options" }</h2>
            <fieldset>
                <legend>{ "Sync policy" }</legend>
                if let Some(note) = applications_in_git(options) {
                    <p class="hint">{ note }</p>
                }
                { checkbox("Prune: delete what the agent applied and Git no longer declares", options.prune, &props.on_prune) }
                { checkbox("Self-heal: revert changes made outside Git", options.self_heal, &props.on_self_heal) }
                { checkbox("Auto-sync: sync when Git moves", options.auto_sync, &props.on_auto_sync) }
                { checkbox("RespectIgnoreDifferences: a sync keeps ignored fields' live values", options.respect_ignore_differences, &props.on_respect_ignore) }
                { checkbox("ServerSideApply: Argo CD applies server-side, as argocd-controller", options.server_side_apply, &props.on_server_side_apply) }
            </fieldset>
            <fieldset>
                <legend>{ "Who deploys" }</legend>
                { mode(Mode::Pull, "Pull: an agent in the cluster reads Git") }
                { mode(Mode::Push, "Push: CI applies with cluster credentials") }
            </fieldset>
            <fieldset>
                <legend>{ "Agent" }</legend>
                { agent(Agent::ArgoCd, "Argo CD: syncs when Git moves; self-heal reverts drift at once") }
                { agent(Agent::Flux, "Flux: reconciles at its interval, and always heals then") }
                <p class="hint">{ code_spans(&agent_note(options)) }</p>
            </fieldset>
            <details class="manifests">
                <summary>{ "These options in Argo CD's Application and Flux's Kustomization" }</summary>
                <p class="hint">{ "Marked: what the tool does not do by default." }</p>
                { manifest("Argo CD", &argo_cd_application(options)) }
                { manifest("Flux", &flux_kustomization(options)) }
            </details>
            <label for="ignore-rules" class="block">{ "Ignore rules (JSON pointers; Argo CD's group, kind, name and jsonPointers or jqPathExpressions; or Flux's paths and target)" }</label>
            <textarea
                id="ignore-rules"
                class="ignore"
                rows="4"
                spellcheck="false"
                placeholder={ignore_placeholder(&props.world)}
                aria-invalid={props.ignore_error.is_some().to_string()}
                aria-describedby={props.ignore_error.as_ref().map(|_| "ignore-error")}
                value={props.ignore_text.clone()}
                oninput={on_ignore}
                onkeydown={on_escape}
            />
            { for props.ignore_notes.iter().map(|note| html! { <p class="ignore-note" role="status">{ code_spans(note) }</p> }) }
            if let Some(error) = &props.ignore_error {
                <p id="ignore-error" class="error" role="alert">{ code_spans(error) }</p>
            }
        </section>
    }
}

/// What the chosen agent does with the options above, in its tool's words.
fn agent_note(options: &gitops_world::scenario::WorldOptions) -> String {
    match options.agent {
        Agent::ArgoCd => "Argo CD: sync waves and hooks order a sync.".into(),
        Agent::Flux => format!(
            "Flux applies server-side every {} min (its `interval`); Self-heal does nothing, Auto-sync off is `suspend: true`, \
             and RespectIgnoreDifferences, ServerSideApply, sync waves and hooks are Argo CD's.",
            options.poll_every
        ),
    }
}

/// A manifest's lines, those that are not the tool's default marked.
fn manifest(tool: &'static str, lines: &[ManifestLine]) -> Html {
    html! {
        <figure class="manifest">
            <figcaption>{ tool }</figcaption>
            <pre>
                { for lines.iter().map(|line| html! {
                    <span class={classes!(line.not_default.then_some("not-default"))}>{ &line.text }{ "\n" }</span>
                }) }
            </pre>
        </figure>
    }
}

/// An example rule in the form the scenario's objects take: a JSON pointer
/// into each named object, or an Argo CD rule for Kubernetes objects.
fn ignore_placeholder(world: &World) -> &'static str {
    let named = world
        .clusters
        .values()
        .next()
        .is_some_and(|cluster| matches!(cluster.actual().form(), gitops_core::state::Form::Named));
    match named {
        true => "- /path/to/a/field   (a JSON pointer into each object)",
        false => "- group: apps\n  kind: Deployment\n  name: web\n  jsonPointers: [/spec/replicas]",
    }
}

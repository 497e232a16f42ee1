use crate::ui::components::{DriftView, OptionsBar, PlanView, StatePane};
use crate::ui::model::{Action, Model, Pane, WORKED_EXAMPLE};
use yew::prelude::*;

/// The playground: two state panes, the options, and what the reconciler makes of them.
#[function_component(App)]
pub fn app() -> Html {
    let model = use_reducer(|| Model::from_scenario(WORKED_EXAMPLE));
    let on_edit = {
        let model = model.dispatcher();
        Callback::from(move |(pane, text)| model.dispatch(Action::Edit(pane, text)))
    };
    let on_prune = {
        let model = model.dispatcher();
        Callback::from(move |prune| model.dispatch(Action::SetPrune(prune)))
    };
    let pane = |pane: Pane, title: &'static str, hint: &'static str| {
        html! {
            <StatePane
                {pane}
                title={title}
                hint={hint}
                text={model.text(pane).to_string()}
                error={model.error(pane).cloned()}
                on_edit={on_edit.clone()}
            />
        }
    };
    html! {
        <>
            <header>
                <h1>{ "GitOps playground" }</h1>
                <p>{ "Git holds the desired state; the reconciler makes the cluster match it. Edit either side and watch the plan." }</p>
            </header>
            <main>
                <div class="panes">
                    { pane(Pane::Desired, "Desired (Git)", "JSON: named objects, or Kubernetes objects") }
                    { pane(Pane::Actual, "Actual (cluster)", "What is running now") }
                </div>
                <OptionsBar options={model.options.clone()} {on_prune} />
                if let Some(report) = &model.report {
                    <div class={classes!("results", model.is_stale().then_some("stale"))}>
                        if model.is_stale() {
                            <p class="stale-note">{ "Showing the last plan that could be computed: fix the error above to update it." }</p>
                        }
                        <PlanView plan={report.plan.clone()} />
                        <DriftView drift={report.drift.clone()} sync={report.status.sync} />
                    </div>
                }
            </main>
        </>
    }
}

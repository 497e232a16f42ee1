use crate::core::Operation;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlanViewProps {
    pub plan: Vec<Operation>,
}

/// The operations of the plan, in the order they would run.
#[function_component(PlanView)]
pub fn plan_view(props: &PlanViewProps) -> Html {
    html! {
        <section class="plan" aria-labelledby="plan-title">
            <h2 id="plan-title">{ "Plan" }</h2>
            if props.plan.is_empty() {
                <p class="empty">{ "Nothing to do: the cluster already matches Git." }</p>
            } else {
                <ol class="operations">
                    { for props.plan.iter().map(|operation| html! {
                        <li class={classes!("operation", operation.verb())}>
                            <span class="verb">{ operation.verb() }</span>
                            {" "}
                            <code class="key">{ operation.key() }</code>
                        </li>
                    }) }
                </ol>
            }
        </section>
    }
}

use crate::core::Options;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct OptionsBarProps {
    pub options: Options,
    pub on_prune: Callback<bool>,
}

/// The reconciler's options.
#[function_component(OptionsBar)]
pub fn options_bar(props: &OptionsBarProps) -> Html {
    let onchange = props
        .on_prune
        .reform(|event: Event| event.target_unchecked_into::<HtmlInputElement>().checked());
    html! {
        <fieldset class="options">
            <legend>{ "Options" }</legend>
            <label>
                <input type="checkbox" checked={props.options.prune} {onchange} />
                { " Prune: delete what Git no longer declares" }
            </label>
        </fieldset>
    }
}

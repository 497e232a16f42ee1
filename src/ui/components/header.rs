use super::dialog::HELP_BUTTON;
use gitops_page::Theme;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct HeaderProps {
    pub theme: Theme,
    pub help_open: bool,
    pub on_theme: Callback<Theme>,
    pub on_help: Callback<()>,
}

/// The title, the theme and the help.
pub fn header(props: &HeaderProps) -> Html {
    let on_theme = props.on_theme.reform(|event: Event| {
        match event
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
            .as_str()
        {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    });
    let on_help = props.on_help.reform(|_: MouseEvent| ());
    let option = |value: &'static str, label: &'static str, theme: Theme| {
        html! { <option {value} selected={props.theme == theme}>{ label }</option> }
    };
    html! {
        <header class="site">
            <div>
                <h1>{ "GitOps playground" }</h1>
                <p>{ "Git holds the desired state; a reconciler makes the cluster match it. Edit either side, step through the plan, run the world." }</p>
            </div>
            <div class="tools">
                <label>
                    { "Theme " }
                    <select onchange={on_theme}>
                        { option("system", "System", Theme::System) }
                        { option("light", "Light", Theme::Light) }
                        { option("dark", "Dark", Theme::Dark) }
                    </select>
                </label>
                <button id={HELP_BUTTON} onclick={on_help} aria-expanded={props.help_open.to_string()}>{ "Help" }</button>
            </div>
        </header>
    }
}

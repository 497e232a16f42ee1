//! What the iframe's address asks of the embedded page: who may talk to it
//! (`&origin=`), what it shows (`&view=picture`, `&panes=`) and in which
//! colours (`&theme=`).

use gitops_page::Theme;

/// The page is embedded, and who may talk to it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Embedding {
    pub allowed_origins: Vec<String>,
    /// `view=picture`: the picture of the world and its controls alone.
    pub picture_only: bool,
    /// `theme=light` or `theme=dark`: the lesson's colours, whatever the
    /// reader chose in the playground (which stays as it was).
    pub theme: Option<Theme>,
    pub panes: Panes,
}

/// Which of the panes and the plan the embedded page shows (`&panes=desired,plan`):
/// all three unless the address names some.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Panes {
    pub desired: bool,
    pub actual: bool,
    pub plan: bool,
}

impl Default for Panes {
    fn default() -> Self {
        Panes {
            desired: true,
            actual: true,
            plan: true,
        }
    }
}

impl Panes {
    /// The panes a comma-separated list names; names it does not know are
    /// left out, and a list that names none shows all.
    pub fn named(list: &str) -> Panes {
        let names: Vec<&str> = list.split(',').map(str::trim).collect();
        let panes = Panes {
            desired: names.contains(&"desired"),
            actual: names.contains(&"actual"),
            plan: names.contains(&"plan"),
        };
        if panes
            == (Panes {
                desired: false,
                actual: false,
                plan: false,
            })
        {
            return Panes::default();
        }
        panes
    }
}

impl Embedding {
    /// `Some` when the page's address asks for the embedded view.
    pub fn from_location() -> Option<Embedding> {
        let search = gloo::utils::window().location().search().ok()?;
        let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
        if params.get("embed").as_deref() != Some("1") {
            return None;
        }
        let origins = params.get_all("origin");
        let allowed_origins = origins
            .iter()
            .filter_map(|origin| origin.as_string())
            .flat_map(|origins| {
                origins
                    .split(',')
                    .map(|origin| origin.trim().trim_end_matches('/').to_string())
                    .collect::<Vec<_>>()
            })
            .filter(|origin| origin.starts_with("http://") || origin.starts_with("https://"))
            .collect();
        let theme = match params.get("theme").as_deref() {
            Some("light") => Some(Theme::Light),
            Some("dark") => Some(Theme::Dark),
            _ => None,
        };
        Some(Embedding {
            allowed_origins,
            picture_only: params.get("view").as_deref() == Some("picture"),
            theme,
            panes: params
                .get("panes")
                .map_or_else(Panes::default, |list| Panes::named(&list)),
        })
    }
}

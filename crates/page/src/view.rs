//! How the page is looked at: its colours, the help, what a narrow screen
//! shows, the notice, and the object highlighted in its pane.

use crate::editor::Pane;

/// What a narrow screen shows, one at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Picture,
    Desired,
    Actual,
    Plan,
    Timeline,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    System,
    Light,
    Dark,
}

#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub theme: Theme,
    pub help_open: bool,
    pub panel: Panel,
    pub notice: Option<String>,
    /// The key of the object just changed, and a token to replay its highlight.
    pub highlight: Option<(String, u64)>,
    token: u64,
}

/// What changes only how the page looks.
pub enum ViewAction {
    SetTheme(Theme),
    ToggleHelp,
    ShowPanel(Panel),
    Notice(String),
    DismissNotice,
}

impl View {
    pub(crate) fn new(theme: Theme) -> View {
        View {
            theme,
            help_open: false,
            panel: Panel::Picture,
            notice: None,
            highlight: None,
            token: 0,
        }
    }

    pub(crate) fn act(&mut self, action: ViewAction) {
        match action {
            ViewAction::SetTheme(theme) => self.theme = theme,
            ViewAction::ToggleHelp => self.help_open = !self.help_open,
            ViewAction::ShowPanel(panel) => self.panel = panel,
            ViewAction::Notice(text) => self.notice = Some(text),
            ViewAction::DismissNotice => self.notice = None,
        }
    }

    /// Highlights the object of `key`, again when it already is.
    pub(crate) fn highlight(&mut self, key: String) {
        self.token += 1;
        self.highlight = Some((key, self.token));
    }

    /// Shows the object of `key` in `pane`, its panel on a narrow screen, and highlights it.
    pub(crate) fn inspect(&mut self, key: String, pane: Pane) {
        self.panel = match pane {
            Pane::Actual => Panel::Actual,
            Pane::Desired => Panel::Desired,
        };
        self.highlight(key);
    }
}

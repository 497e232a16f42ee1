//! Where a session to open comes from, and what the page says when it does not open.

/// Where a session to open comes from: what the page says when it does not open
/// depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The link the page was opened with.
    Start,
    /// The work saved in this browser.
    Saved,
    /// A link opened in the page already open: only the address's fragment changed.
    Link,
    /// A `gitops:load` message from the page that embeds this one.
    Host,
}

impl Source {
    /// The notice that what this source asked for does not open, and why.
    pub fn notice(self, problem: &str) -> String {
        match self {
            Source::Start => {
                format!("The link does not open: {problem}. Here is the lesson's example.")
            }
            Source::Saved => format!("Your saved work does not open: {problem}."),
            Source::Link => {
                format!("The link does not open: {problem}. The scenario on screen stays.")
            }
            Source::Host => format!(
                "The scenario the lesson page sent does not open: {problem}. The scenario on screen stays."
            ),
        }
    }

    /// What failed, as the host page of an embedded playground is told: the
    /// message it sent, or the link in the iframe's address. Saved work is
    /// the person's own, not the host's.
    pub fn request(self) -> Option<&'static str> {
        match self {
            Source::Start | Source::Link => Some("link"),
            Source::Host => Some("gitops:load"),
            Source::Saved => None,
        }
    }
}

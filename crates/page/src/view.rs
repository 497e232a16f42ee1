//! How the page is looked at: its colours, and what a narrow screen shows.

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

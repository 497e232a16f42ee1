pub mod drift_view;
pub mod options_bar;
pub mod plan_view;
pub mod state_pane;

pub use drift_view::DriftView;
pub use options_bar::OptionsBar;
pub use plan_view::PlanView;
pub use state_pane::StatePane;

//! Sync and health as Argo CD's UI draws them, one icon and one colour each
//! (`ui/src/app/applications/components/utils.tsx`: `ComparisonStatusIcon`,
//! `HealthStatusIcon`; colours from `shared/components/colors.ts`): Synced a
//! green check, OutOfSync a yellow arrow up (a bin when the object is to be
//! pruned), Healthy a green heart, Degraded a red broken heart, Progressing a
//! blue turning circle, Suspended a purple pause, Missing a yellow ghost,
//! Unknown a grey question. The shapes are the playground's own, drawn in a
//! 16 by 16 box; style.css gives each class its colour (`--argo-*`).

use gitops_core::health::Health;
use std::fmt::Write;

/// A sync status's icon: its class (for the colour) and its shape.
pub fn sync_icon(sync: &str, to_prune: bool) -> (&'static str, &'static str) {
    match sync {
        "Synced" => ("sync-synced", CHECK_CIRCLE),
        "OutOfSync" if to_prune => ("sync-outofsync", BIN),
        "OutOfSync" => ("sync-outofsync", ARROW_UP_CIRCLE),
        // Deleted by the operation just applied: Argo CD's sync result Pruned, grey.
        "Deleted" => ("sync-unknown", BIN),
        _ => ("sync-unknown", TURNING_CIRCLE),
    }
}

/// A health's icon: its class (for the colour) and its shape.
pub fn health_icon(health: Health) -> (&'static str, &'static str) {
    match health {
        Health::Healthy => ("health-healthy", HEART),
        Health::Degraded => ("health-degraded", BROKEN_HEART),
        Health::Progressing => ("health-progressing", TURNING_CIRCLE),
        Health::Suspended => ("health-suspended", PAUSE_CIRCLE),
        Health::Missing => ("health-missing", GHOST),
        Health::Unknown => ("health-unknown", QUESTION_CIRCLE),
    }
}

/// The icon as an `<svg>` of `size` pixels at `x`, `y` (inside the picture's
/// SVG, or alone in HTML with no position), hidden from screen readers: the
/// words beside it say the same.
pub fn icon_markup(
    out: &mut String,
    (class, shape): (&str, &str),
    at: Option<(i32, i32)>,
    size: i32,
) {
    let place = at.map_or(String::new(), |(x, y)| format!(r#" x="{x}" y="{y}""#));
    let _ = write!(
        out,
        r#"<svg class="status-icon {class}"{place} width="{size}" height="{size}" viewBox="0 0 16 16" aria-hidden="true">{shape}</svg>"#
    );
}

const CHECK_CIRCLE: &str =
    r#"<circle cx="8" cy="8" r="7.5"/><path class="cut" d="M4.4 8.3l2.4 2.4 4.8-5"/>"#;
const ARROW_UP_CIRCLE: &str =
    r#"<circle cx="8" cy="8" r="7.5"/><path class="cut" d="M8 12.2V4.4M4.7 7.5L8 4.2l3.3 3.3"/>"#;
const BIN: &str = r#"<path d="M2.5 3.2h11v1.6h-11zM6 1.2h4v2H6zM3.6 5.6h8.8l-.8 9.2H4.4z"/>"#;
const TURNING_CIRCLE: &str =
    r#"<path class="turning" d="M8 1.3A6.7 6.7 0 1 1 1.3 8" fill="none" stroke-width="2.6"/>"#;
const HEART: &str =
    r#"<path d="M8 14.6S1 10.3 1 5.6A3.6 3.6 0 0 1 8 3.9a3.6 3.6 0 0 1 7 1.7c0 4.7-7 9-7 9z"/>"#;
const BROKEN_HEART: &str = r#"<path d="M8 14.6S1 10.3 1 5.6A3.6 3.6 0 0 1 8 3.9a3.6 3.6 0 0 1 7 1.7c0 4.7-7 9-7 9z"/><path class="cut" d="M8.6 3.6L6.6 7.4l2.6 1.8-1.6 3.6"/>"#;
const PAUSE_CIRCLE: &str =
    r#"<circle cx="8" cy="8" r="7.5"/><path class="cut" d="M6.2 4.8v6.4M9.8 4.8v6.4"/>"#;
const GHOST: &str = r#"<path d="M2.2 15V7.4a5.8 5.8 0 0 1 11.6 0V15l-1.9-1.6L10 15l-2-1.6L6 15l-1.9-1.6z"/><circle class="eye" cx="5.9" cy="7.2" r="1.2"/><circle class="eye" cx="10.1" cy="7.2" r="1.2"/>"#;
const QUESTION_CIRCLE: &str = r#"<circle cx="8" cy="8" r="7.5"/><path class="cut" d="M5.7 6.1a2.4 2.4 0 1 1 3.3 2.2c-.7.3-1 .8-1 1.5M8 11.6v.6"/>"#;

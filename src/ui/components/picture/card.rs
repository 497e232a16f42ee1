//! An object's card: its kind, name, sync and health, its line of the plan
//! (or what protects it) and the fields its update changes.

use super::markup::{escape, shorten, text};
use gitops_page::Card;
use std::fmt::Write;

pub(super) const CARD_W: i32 = 142;
pub(super) const CARD_H: i32 = 88;

pub(super) fn card_view(out: &mut String, card: &Card, x: i32, y: i32) {
    let mut class = format!("object {}", card.sync.to_ascii_lowercase());
    for (on, name) in [
        (true, card.operation.unwrap_or("")),
        (card.next, "next"),
        (card.just_done.is_some(), "done"),
        (card.extra, "extra"),
        (card.gone, "gone"),
        (card.unmanaged, "unmanaged"),
    ] {
        if on && !name.is_empty() {
            class.push(' ');
            class.push_str(name);
        }
    }
    if let Some(done) = card.just_done {
        class.push_str(" done-");
        class.push_str(done);
    }
    let label = escape(&card.label());
    let _ = write!(
        out,
        r#"<g class="{class}" role="button" tabindex="0" data-key="{}" aria-label="{label}"><title>{label}</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5"/>"#,
        escape(&card.key)
    );
    let wave = if card.wave != 0 {
        format!(" · wave {}", card.wave)
    } else {
        String::new()
    };
    text(
        out,
        x + 8,
        y + 15,
        "kind",
        &shorten(&format!("{}{wave}", card.kind), 21),
    );
    if let Some(order) = card.order {
        // Its place in the sync's order, waves first.
        // On the card's corner, as a count badge, leaving its lines their width.
        let (cx, cy) = (x + CARD_W - 3, y + 3);
        let _ = write!(out, r#"<circle class="order" cx="{cx}" cy="{cy}" r="8"/>"#);
        text(out, cx, cy + 4, "order", &order.to_string());
    }
    text(out, x + 8, y + 31, "name", &shorten(&card.place(), 20));
    let health = card
        .health
        .map_or("—".to_string(), |health| health.to_string());
    text(
        out,
        x + 8,
        y + 47,
        "badges",
        &match card.unmanaged {
            true => "outside the app".to_string(),
            false => shorten(&format!("{} · {health}", card.sync), 21),
        },
    );
    let (shield, line, class) = match (card.operation, card.just_done) {
        (Some("skip"), _) => (
            true,
            card.protected.clone().unwrap_or_default(),
            "plan-line skip",
        ),
        (None, Some(done)) => (false, format!("✓ {}", done_as(done)), "plan-line done"),
        (Some(operation), _) if card.next => {
            (false, format!("next: {operation}"), "plan-line next")
        }
        (Some(operation), _) => (false, format!("plan: {operation}"), "plan-line"),
        (None, None) => match (&card.protected, card.ignored) {
            (Some(protection), _) => (true, protection.clone(), "plan-line"),
            (None, true) => (false, "some fields ignored".to_string(), "plan-line"),
            (None, false) if card.unmanaged => (false, "not managed".to_string(), "plan-line"),
            (None, false) => (false, String::new(), "plan-line"),
        },
    };
    let line_x = if shield {
        shield_view(out, x + 8, y + 54);
        x + 22
    } else {
        x + 8
    };
    if !line.is_empty() {
        let line = match shield {
            true => protection_words(&line, 17),
            false => shorten(&line, 19),
        };
        text(out, line_x, y + 64, class, &line);
    }
    if !card.fields.is_empty() {
        // What the update changes, or changed: lit up when Step applies it.
        let changed = if card.just_done.is_some() {
            "fields changed"
        } else {
            "fields"
        };
        text(
            out,
            x + 8,
            y + 80,
            changed,
            &shorten(&card.fields.join(", "), 19),
        );
    } else if card.extra {
        text(out, x + 8, y + 80, "plan-line", "not in Git");
    }
    out.push_str("</g>");
}

/// What protects an object, in the room of a card: the reason names its
/// annotation last (`…/prune: disabled`, `…/sync-options: Prune=false`), so
/// its last segment, or the setting alone.
fn protection_words(reason: &str, room: usize) -> String {
    let last = reason.rsplit('/').next().unwrap_or(reason);
    let setting = reason.rsplit(": ").next().unwrap_or(reason);
    match (
        last.chars().count() <= room,
        setting.chars().count() <= room,
    ) {
        (true, _) => last.to_string(),
        (false, true) => setting.to_string(),
        (false, false) => shorten(reason, room),
    }
}

/// What an operation reads as once applied.
fn done_as(operation: &str) -> &'static str {
    match operation {
        "create" => "created",
        "update" => "updated",
        _ => "deleted",
    }
}

/// A small shield: what protects an object from prune or from a write.
fn shield_view(out: &mut String, x: i32, y: i32) {
    let _ = write!(
        out,
        r#"<path class="shield" d="M{},{y} l5,2 v4 c0,3.5 -2.5,5.5 -5,6.5 c-2.5,-1 -5,-3 -5,-6.5 v-4 z"/>"#,
        x + 5
    );
}

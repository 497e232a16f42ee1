//! An object's card: its kind, name, sync and health, its line of the plan
//! (or what protects it) and the fields its update changes.

use super::markup::{escape, shorten, text};
use crate::ui::components::status_icons::{health_icon, icon_markup, sync_icon};
use gitops_page::Card;
use std::fmt::Write;

pub(super) const CARD_W: i32 = 142;
pub(super) const CARD_H: i32 = 104;

pub(super) fn card_view(out: &mut String, card: &Card, x: i32, y: i32) {
    let mut card_class = format!("object {}", card.sync.to_ascii_lowercase());
    if let Some(health) = card.health {
        // The border says the worse of the two: a Synced object that is
        // Degraded is drawn broken (style.css).
        let _ = write!(
            card_class,
            " health-{}",
            health.to_string().to_ascii_lowercase()
        );
    }
    for (on, name) in [
        (true, card.operation.unwrap_or("")),
        (card.next, "next"),
        (card.just_done.is_some(), "done"),
        (card.extra, "extra"),
        (card.missing, "missing"),
        (card.gone, "gone"),
        (card.unmanaged, "unmanaged"),
    ] {
        if on && !name.is_empty() {
            card_class.push(' ');
            card_class.push_str(name);
        }
    }
    if let Some(done) = card.just_done {
        card_class.push_str(" done-");
        card_class.push_str(done);
    }
    let mut inside = Drawn::default();
    if card.health.is_some() {
        let (stripe_x, stripe_y, stripe_h) = (x + 2, y + 4, CARD_H - 8);
        let _ = write!(
            inside.markup,
            r#"<rect class="health-stripe" x="{stripe_x}" y="{stripe_y}" width="3" height="{stripe_h}" rx="1.5"/>"#
        );
    }
    let wave = if card.wave != 0 {
        format!(" · wave {}", card.wave)
    } else {
        String::new()
    };
    inside.text(
        x + 8,
        y + 15,
        "kind",
        &shorten(&format!("{}{wave}", card.kind), 21),
    );
    inside.text(x + 8, y + 31, "name", &shorten(&card.place(), 20));
    match card.unmanaged {
        true => inside.text(x + 8, y + 47, "badges", "outside the app"),
        false => badges_view(&mut inside, card, x, y + 47),
    }
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
        shield_view(&mut inside.markup, x + 8, y + 70);
        x + 22
    } else {
        x + 8
    };
    if !line.is_empty() {
        let line = match shield {
            true => protection_words(&line, 17),
            false => shorten(&line, 19),
        };
        inside.text(line_x, y + 80, class, &line);
    }
    if !card.fields.is_empty() {
        // What the update changes, or changed: lit up when the last sync applied it.
        let changed = if card.just_done.is_some() {
            "fields changed"
        } else {
            "fields"
        };
        inside.text(
            x + 8,
            y + 96,
            changed,
            &shorten(&card.fields.join(", "), 19),
        );
    } else if card.extra {
        inside.text(x + 8, y + 96, "plan-line", "not in Git");
    }
    let Drawn { markup, words } = inside;
    let label = escape(&label_of(card, &words));
    let _ = write!(
        out,
        r#"<g class="{card_class}" role="button" tabindex="0" data-key="{}" aria-label="{label}"><title>{}</title><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5"/>{markup}</g>"#,
        escape(&card.key),
        escape(&card.label()),
    );
    if let Some(order) = card.order {
        // Its place in the sync's order, waves first: on the card's corner, as a
        // count badge, leaving its lines their width. Beside the card's group
        // rather than in it: the card's name says "operation 1 of the plan".
        let (cx, cy) = (x + CARD_W - 3, y + 3);
        let _ = write!(
            out,
            r#"<g class="order-badge" aria-hidden="true"><circle class="order" cx="{cx}" cy="{cy}" r="8"/>"#
        );
        text(out, cx, cy + 4, "order", &order.to_string());
        out.push_str("</g>");
    }
}

/// Sync on the line whose baseline is `baseline` and health on the next, each
/// an icon and a word as Argo CD draws them.
fn badges_view(out: &mut Drawn, card: &Card, x: i32, baseline: i32) {
    const ICON: i32 = 11;
    let to_prune = card.extra && card.operation == Some("delete");
    icon_markup(
        &mut out.markup,
        sync_icon(card.sync, to_prune),
        Some((x + 8, baseline - 9)),
        ICON,
    );
    out.text(x + 8 + ICON + 4, baseline, "badges", card.sync);
    let baseline = baseline + 16;
    let health_word = card
        .health
        .map_or("—".to_string(), |health| health.to_string());
    if let Some(health) = card.health {
        icon_markup(
            &mut out.markup,
            health_icon(health),
            Some((x + 8, baseline - 9)),
            ICON,
        );
    }
    out.text(
        x + 8 + ICON + 4,
        baseline,
        "badges health-word",
        &health_word,
    );
}

/// A card's markup as it is drawn, with the words it shows in the order they stand.
#[derive(Default)]
struct Drawn {
    markup: String,
    words: Vec<String>,
}

impl Drawn {
    /// A line of text; a space follows it, so that the words of one line and the
    /// next do not run together in the text a browser reads out of the card.
    fn text(&mut self, x: i32, y: i32, class: &str, content: &str) {
        text(&mut self.markup, x, y, class, content);
        self.markup.push(' ');
        self.words.push(content.to_string());
    }
}

/// What the card is called to a screen reader and to voice control: the words it
/// shows, in the order they stand (WCAG's label in name), then what the card's
/// label says that they do not (`Card::label_parts`: its wave, its operation's
/// place in the plan, every field it changes).
fn label_of(card: &Card, shown: &[String]) -> String {
    let mut parts: Vec<String> = shown
        .iter()
        .filter(|words| words.chars().any(char::is_alphanumeric))
        .cloned()
        .collect();
    let place = card.place();
    let place_shown = parts.contains(&place);
    for part in card.label_parts() {
        let names_it = place_shown && part.ends_with(place.as_str());
        let said = |shown: &String| {
            part == *shown || part.strip_prefix("changes ") == Some(shown.as_str())
        };
        if names_it || parts.iter().any(said) {
            continue;
        }
        // "next: delete" shown, "next: delete (operation 1 of the plan)" said.
        match parts
            .iter_mut()
            .find(|shown| part.starts_with(shown.as_str()))
        {
            Some(shown) => *shown = part,
            None => parts.push(part),
        }
    }
    parts.join(", ")
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

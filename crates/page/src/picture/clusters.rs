//! A cluster's box: the cards of its objects as the report compares them with
//! Git (the plan's first, then as many others as there is room for), in the
//! order a sync runs them.

use super::card::Card;
use super::MOST_CARDS;
use gitops_core::collect::{set_of, sort_by};
use gitops_core::diff::changes::Change;
use gitops_core::pointer::unescape;
use gitops_core::report::{Report, SyncStatus};
use gitops_core::state::protection::prune_protection;
use gitops_core::sync::order::kind_rank_of;
use gitops_core::sync::plan::{dependency_wave, Operation};
use gitops_core::State;
use gitops_world::World;

#[derive(Debug, Clone, PartialEq)]
pub struct ClusterBox {
    pub environment: String,
    /// The environment the panes show.
    pub current: bool,
    pub cards: Vec<Card>,
    /// Cards not shown.
    pub more: usize,
    /// Why the agent does not sync this cluster, though it runs: its
    /// Application is gone from Git, or waits for the root's wave.
    pub no_application: Option<&'static str>,
}

pub(super) fn cluster_box(
    environment: &str,
    current: bool,
    compared: Option<(&State, &Report)>,
    actual: &State,
    applied: &[Operation],
    world: &World,
) -> ClusterBox {
    let ignore = &world.options.ignore;
    let Some((desired, report)) = compared else {
        // Git does not read: the cluster's objects, compared with nothing.
        let mut cards: Vec<Card> = actual
            .objects()
            .iter()
            .map(|(key, object)| Card::of(key, object.value()))
            .collect();
        let more = cards.len().saturating_sub(MOST_CARDS);
        cards.truncate(MOST_CARDS);
        return ClusterBox {
            environment: environment.to_string(),
            current,
            cards,
            more,
            no_application: None,
        };
    };
    // The plan's first operations (the next one among them), then as many of the
    // other objects as there is room for: the picture costs the same at any size.
    let planned = set_of(
        report
            .plan
            .iter()
            .take(MOST_CARDS)
            .map(|operation| operation.key()),
    );
    let mut room = MOST_CARDS - planned.len();
    let shown: Vec<_> = report
        .objects
        .iter()
        .filter(|object| {
            planned.contains(&*object.key) || room.checked_sub(1).map(|left| room = left).is_some()
        })
        .collect();
    // The cluster's objects that are not the application's, where there is room.
    let unmanaged: Vec<Card> = actual
        .objects()
        .iter()
        .filter(|(key, _)| report.objects.iter().all(|object| object.key != **key))
        .take(room)
        .map(|(key, object)| Card {
            sync: "—",
            unmanaged: true,
            ..Card::of(key, object.value())
        })
        .collect();
    let more = report.objects.len() - shown.len();
    let mut cards: Vec<Card> = shown
        .into_iter()
        .map(|object| {
            let key = object.key.to_string();
            let order = report
                .plan
                .iter()
                .position(|operation| operation.key() == key);
            let operation = order.map(|index| &report.plan[index]);
            let done = applied.iter().rev().find(|done| done.key() == key);
            let just_done = done.map(Operation::verb);
            let fields = match (operation, done) {
                (Some(Operation::Update { changes, .. }), _)
                | (_, Some(Operation::Update { changes, .. })) => field_names(changes),
                _ => Vec::new(),
            };
            let in_git = desired.get(&key);
            let live = actual.get(&key);
            let shown = in_git.or(live);
            let card = shown.map_or_else(
                || Card::of(&key, &serde_json::Value::Null),
                |shown| Card::of(&key, shown),
            );
            Card {
                sync: match (object.sync, live) {
                    (SyncStatus::Synced, Some(_)) => "Synced",
                    _ => "OutOfSync",
                },
                missing: live.is_none(),
                health: object.health,
                health_ignored: object.health_ignored,
                wave: match (operation, card.kind.as_str()) {
                    (Some(operation), _) => operation.wave(),
                    // As the sync that made it ran it, before what it holds.
                    (None, "Namespace" | "CustomResourceDefinition") => shown.map_or(card.wave, |shown| dependency_wave(desired, shown.into(), card.wave)),
                    _ => card.wave,
                },
                operation: operation.map(Operation::verb),
                order: order.map(|index| index + 1),
                just_done,
                fields,
                protected: match operation {
                    Some(Operation::Skip { reason, .. }) => Some(reason.clone()),
                    _ => live.and_then(prune_protection),
                },
                extra: in_git.is_none(),
                ignored: shown
                    .is_some_and(|object| ignore.iter().any(|rule| rule.selects(&key, object))),
                ..card
            }
        })
        .collect();
    let next = report
        .plan
        .iter()
        .find(|operation| operation.changes_cluster());
    for card in &mut cards {
        card.next = next.is_some_and(|next| next.key() == card.key);
        card.managers = actual.get(&card.key).map(gitops_core::diff::ssa::managers).unwrap_or_default();
    }
    cards.extend(unmanaged);
    for operation in applied {
        if let Operation::Delete { key, wave, .. } = operation {
            if !cards.iter().any(|card| card.key == *key) {
                cards.push(Card {
                    sync: "Deleted",
                    wave: *wave,
                    just_done: Some("delete"),
                    gone: true,
                    ..Card::of(key, &serde_json::Value::Null)
                });
            }
        }
    }
    // As a sync orders them (waves, then kinds, then names: `sort_key`), so
    // that cards keep their places while Step runs the plan along them.
    sort_by(&mut cards, |a, b| place(a).cmp(&place(b)));
    ClusterBox {
        environment: environment.to_string(),
        current,
        cards,
        more,
        no_application: None,
    }
}

/// Where a card stands: as a sync runs it (`sync::order::sort_key`).
fn place(card: &Card) -> (i64, usize, &str) {
    (card.wave, kind_rank_of(&card.kind), &card.name)
}

/// Each changed field by its last name, with the values when both are short
/// scalars: `replicas 3 → 5`, `image`.
fn field_names(changes: &[Change]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for change in changes {
        let segment = change
            .path
            .rsplit('/')
            .find(|segment| !segment.is_empty() && !segment.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or(&change.path);
        let name = unescape(segment).unwrap_or_else(|| segment.to_string());
        let scalar = |value: &Option<serde_json::Value>| match value {
            Some(value @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => {
                Some(value.to_string())
            }
            Some(serde_json::Value::String(text)) if text.len() <= 12 => Some(text.clone()),
            _ => None,
        };
        let shown = match (scalar(&change.from), scalar(&change.to)) {
            (Some(from), Some(to)) if changes.len() == 1 => format!("{name} {from} → {to}"),
            _ => name,
        };
        if !names.contains(&shown) {
            names.push(shown);
        }
    }
    names
}

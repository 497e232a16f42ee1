//! An update (structured-merge-diff `Updater.Update`): a `kubectl edit`, a
//! controller writing through the scale subresource. Its manager comes to own
//! each field it set or changed and each list item it added, which no other
//! manager owns any more; a field it removed is no one's.

use super::apply::value_at;
use super::entries::{managed_fields, with_managed_fields, Entry, Operation};
use super::fields::{field_set, is_at_or_below, is_item, FieldSet};

/// `after`, written by `manager` (through `subresource`, empty for the object
/// itself) over `before`, with the owners that makes; none before: a create.
pub fn update(before: Option<&serde_json::Value>, after: &serde_json::Value, manager: &str, subresource: &str) -> serde_json::Value {
    let mut entries = before.map(managed_fields).unwrap_or_default();
    let was = before.map(field_set).unwrap_or_default();
    let now = field_set(after);
    // A field is changed when its value is; an item of a keyed list, when it is new.
    let changed: Vec<_> = now
        .iter()
        .filter(|path| match before {
            None => true,
            Some(_) if is_item(path) => !was.contains(path),
            Some(before) => value_at(before, path) != value_at(after, path),
        })
        .cloned()
        .collect();
    let gone: Vec<_> = was.iter().filter(|path| !now.contains(path)).cloned().collect();
    for entry in &mut entries {
        for path in &changed {
            entry.fields.remove(path);
        }
        entry.fields.retain(|owned| !gone.iter().any(|path| is_at_or_below(owned, path)));
    }
    let own = |entry: &Entry| entry.is(manager, Operation::Update, subresource);
    match entries.iter_mut().find(|entry| own(entry)) {
        Some(entry) => entry.fields.extend(changed),
        None => entries.push(Entry::new(manager, Operation::Update, subresource, changed.into_iter().collect::<FieldSet>())),
    }
    with_managed_fields(after.clone(), &entries)
}

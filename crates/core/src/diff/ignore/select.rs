//! Which objects an ignore rule selects, and the patterns that apply to an
//! object.

use super::{Dialect, IgnoreRule};
use crate::pointer::Pattern;
use crate::state::namespace::namespace_of;
use crate::value::ValueRef;

impl IgnoreRule {
    /// Whether the rule applies to the object at `key` (a name in the lesson's
    /// form, whose objects have no kind and no group; `object` gives a
    /// Kubernetes object's group, kind and namespace).
    ///
    /// Argo CD (util/argo/normalizers/diff_normalizer.go, `Normalize`) matches
    /// the group and the kind by glob, an omitted group being the core
    /// group `""` and an omitted kind matching no kind; `name` and
    /// `namespace` match exactly when given. Flux (fluxcd/pkg
    /// ssa/jsondiff/selector.go, `MatchUnstructured`) matches each field of
    /// the target that is given, and a rule without target every object; the
    /// playground reads its fields as names, not regular expressions.
    pub fn selects<'a>(&self, key: &str, object: impl Into<ValueRef<'a>>) -> bool {
        let identity = Identity::of(key, object.into());
        let exact = |filter: &Option<String>, actual: Option<&str>| {
            filter.as_deref().is_none_or(|want| Some(want) == actual)
        };
        match self.dialect {
            Dialect::Shorthand => true,
            Dialect::ArgoCd => {
                glob(self.group.as_deref().unwrap_or_default(), identity.group)
                    && glob(self.kind.as_deref().unwrap_or_default(), identity.kind)
                    && exact(&self.name, Some(identity.name))
                    && exact(&self.namespace, identity.namespace)
            }
            Dialect::Flux => {
                exact(&self.group, Some(identity.group))
                    && exact(&self.kind, Some(identity.kind))
                    && exact(&self.name, Some(identity.name))
                    && exact(&self.namespace, identity.namespace)
            }
        }
    }
}

/// What a rule selects an object by: its API group (`""` for the core group
/// and for the lesson's objects), kind (`""` in the lesson's form), name
/// (the key in the lesson's form) and namespace.
pub(crate) struct Identity<'a> {
    pub group: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    pub namespace: Option<&'a str>,
}

impl<'a> Identity<'a> {
    pub fn of(key: &'a str, object: ValueRef<'a>) -> Self {
        let text = |path: &[&str]| object.at(path).and_then(ValueRef::as_str);
        let api_version = text(&["apiVersion"]).unwrap_or_default();
        Identity {
            group: api_version.rsplit_once('/').map_or("", |(group, _)| group),
            kind: text(&["kind"]).unwrap_or_default(),
            name: text(&["metadata", "name"]).unwrap_or(key),
            namespace: namespace_of(object),
        }
    }
}

/// Argo CD's glob (gobwas/glob without separators): `*`, `?`, `[...]`
/// and `{a,b}`; an empty pattern matches only the empty text.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    pattern == text || (!pattern.is_empty() && glob_match::glob_match(pattern, text))
}

/// The patterns whose live values a sync keeps in the object at `key`: those
/// of the rules that select it and keep live (`IgnoreRule::keeps_live`).
pub fn kept_live<'a>(
    rules: &'a [IgnoreRule],
    respect_ignore_differences: bool,
    key: &str,
    object: ValueRef<'_>,
) -> Vec<&'a Pattern> {
    rules
        .iter()
        .filter(|rule| rule.keeps_live(respect_ignore_differences) && rule.selects(key, object))
        .flat_map(|rule| rule.patterns())
        .collect()
}

/// The patterns of every rule that selects the object at `key`.
pub fn patterns_for<'a, 'o>(
    rules: &'a [IgnoreRule],
    key: &str,
    object: impl Into<ValueRef<'o>>,
) -> Vec<&'a Pattern> {
    let object = object.into();
    rules
        .iter()
        .filter(|rule| rule.selects(key, object))
        .flat_map(|rule| rule.patterns())
        .collect()
}

//! A patch's `target` (api/types/selector.go): group, version, kind, name
//! and namespace as anchored regular expressions, and label and
//! annotation selectors as Kubernetes writes them. The expressions are
//! read in a subset (characters, `.`, `*`, `+`, `?`, `|`, `\` escapes);
//! one with groups or classes is refused, never matched wrongly.

use super::kustomization::text;
use super::Resource;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Default, Clone, Copy)]
pub struct Selector<'v> {
    pub group: &'v str,
    pub version: &'v str,
    pub kind: &'v str,
    pub name: &'v str,
    pub namespace: &'v str,
    pub label_selector: &'v str,
    pub annotation_selector: &'v str,
}

impl<'v> Selector<'v> {
    pub fn of(target: &'v Value) -> Self {
        Selector {
            group: text(target, "group"),
            version: text(target, "version"),
            kind: text(target, "kind"),
            name: text(target, "name"),
            namespace: text(target, "namespace"),
            label_selector: text(target, "labelSelector"),
            annotation_selector: text(target, "annotationSelector"),
        }
    }

    /// Whether `resource` is selected; an expression the playground does
    /// not read is an error naming the field.
    pub fn selects(&self, resource: &Resource) -> Result<bool, String> {
        let (group, version) = resource.group_version();
        let fields = [
            ("group", self.group, group),
            ("version", self.version, version),
            ("kind", self.kind, resource.kind()),
            ("name", self.name, resource.name()),
            ("namespace", self.namespace, resource.namespace()),
        ];
        for (field, pattern, value) in fields {
            if !pattern.is_empty()
                && !matches(pattern).map_err(|why| format!("target.{field}: {why}"))?(value)
            {
                return Ok(false);
            }
        }
        let selectors = [
            ("labelSelector", self.label_selector, "labels"),
            (
                "annotationSelector",
                self.annotation_selector,
                "annotations",
            ),
        ];
        for (field, selector, map) in selectors {
            if selector.is_empty() {
                continue;
            }
            let values = resource.metadata_map(map);
            if !selected(selector, &values).map_err(|why| format!("target.{field}: {why}"))? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// One piece of an expression, and how often it repeats.
#[derive(Clone, Copy)]
struct Atom {
    /// `None` is `.`, any character.
    character: Option<char>,
    least: usize,
    many: bool,
}

/// A matcher for an anchored expression (`^` and `$` may be written).
fn matches(pattern: &str) -> Result<impl Fn(&str) -> bool, String> {
    let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
    let pattern = match pattern.strip_suffix('$') {
        Some(rest) if !rest.ends_with('\\') => rest,
        _ => pattern,
    };
    let mut branches = vec![Vec::new()];
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        let atoms = branches.last_mut().expect("a branch");
        match c {
            '|' => branches.push(Vec::new()),
            '*' | '+' | '?' => {
                let Some(last) = atoms.last_mut().filter(|atom: &&mut Atom| atom.least == 1 && !atom.many) else {
                    return Err(format!("`{c}` repeats nothing in `{pattern}`"));
                };
                last.least = usize::from(c == '+');
                last.many = c != '?';
            }
            '\\' => {
                let escaped = chars.next().ok_or("a `\\` ends the expression")?;
                // Go's regexp reads `\` before ASCII punctuation as that character, and
                // anything else after it as a class or an error (regexp/syntax parseEscape).
                if !escaped.is_ascii_punctuation() {
                    return Err(format!("`\\{escaped}` is not read here; write the characters themselves"));
                }
                atoms.push(Atom { character: Some(escaped), least: 1, many: false });
            }
            '(' | ')' | '[' | ']' | '{' | '}' | '^' | '$' => {
                return Err(format!(
                    "`{c}` in `{pattern}`: the playground reads names, `.`, `*`, `+`, `?` and `|` in a target, not groups or classes"
                ))
            }
            '.' => atoms.push(Atom { character: None, least: 1, many: false }),
            other => atoms.push(Atom { character: Some(other), least: 1, many: false }),
        }
    }
    Ok(move |text: &str| {
        let text: Vec<char> = text.chars().collect();
        branches.iter().any(|atoms| whole_match(atoms, &text))
    })
}

/// Whether `atoms` match all of `text`: a table of which suffixes of the
/// text each suffix of the atoms matches, so no expression takes long.
fn whole_match(atoms: &[Atom], text: &[char]) -> bool {
    let width = text.len() + 1;
    let mut table = vec![false; (atoms.len() + 1) * width];
    table[atoms.len() * width + text.len()] = true;
    for (index, atom) in atoms.iter().enumerate().rev() {
        for start in (0..=text.len()).rev() {
            let fits = |at: usize| at < text.len() && atom.character.is_none_or(|c| c == text[at]);
            let next = |at: usize| table[(index + 1) * width + at];
            let skipped = atom.least == 0 && next(start);
            let taken =
                fits(start) && (next(start + 1) || (atom.many && table[index * width + start + 1]));
            table[index * width + start] = skipped || taken;
        }
    }
    table[0]
}

/// Whether labels (or annotations) satisfy a Kubernetes selector:
/// `key=value`, `key==value`, `key!=value`, `key`, `!key`,
/// `key in (a,b)`, `key notin (a,b)`, joined by commas.
fn selected(selector: &str, values: &BTreeMap<String, String>) -> Result<bool, String> {
    let mut requirements = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (at, c) in selector.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                requirements.push(&selector[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    requirements.push(&selector[start..]);
    let mut all = true;
    for requirement in requirements {
        all &= satisfied(requirement.trim(), values)
            .ok_or_else(|| format!("`{requirement}` is not a label selector requirement"))?;
    }
    Ok(all)
}

fn satisfied(requirement: &str, values: &BTreeMap<String, String>) -> Option<bool> {
    let is_key = |key: &str| {
        !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    };
    if let Some(key) = requirement.strip_prefix('!') {
        let key = key.trim();
        return is_key(key).then(|| !values.contains_key(key));
    }
    for (operator, wanted) in [("!=", false), ("==", true), ("=", true)] {
        if let Some((key, value)) = requirement.split_once(operator) {
            let (key, value) = (key.trim(), value.trim());
            return is_key(key)
                .then(|| (values.get(key).map(String::as_str) == Some(value)) == wanted);
        }
    }
    for (operator, wanted) in [(" notin ", false), (" in ", true)] {
        if let Some((key, set)) = requirement.split_once(operator) {
            let key = key.trim();
            let set = set.trim().strip_prefix('(')?.strip_suffix(')')?;
            let listed = values
                .get(key)
                .is_some_and(|value| set.split(',').any(|item| item.trim() == value));
            return is_key(key).then_some(listed == wanted);
        }
    }
    is_key(requirement).then(|| values.contains_key(requirement))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regex(pattern: &str, text: &str) -> bool {
        matches(pattern).unwrap()(text)
    }

    #[test]
    fn targets_read_a_subset_of_regular_expressions_anchored() {
        assert!(regex("web", "web"));
        assert!(!regex("web", "web-2"));
        assert!(regex("web.*", "web-2"));
        assert!(regex("^web|api$", "api"));
        assert!(regex("we?b+", "wbbb"));
        assert!(regex("a\\.b", "a.b") && !regex("a\\.b", "axb"));
        assert!(!regex(".*.*.*.*.*.*.*.*.*.*.*.*.*.*.*x", &"a".repeat(200)));
        assert!(matches("web-[0-9]").is_err());
        assert!(matches("*web").is_err());
    }

    #[test]
    fn label_selectors_read_as_kubernetes_reads_them() {
        let labels = BTreeMap::from([
            ("app".to_string(), "web".to_string()),
            ("tier".to_string(), "front".to_string()),
        ]);
        assert_eq!(selected("app=web,tier", &labels), Ok(true));
        assert_eq!(selected("app==web, !debug", &labels), Ok(true));
        assert_eq!(selected("app!=web", &labels), Ok(false));
        assert_eq!(selected("tier in (front, back)", &labels), Ok(true));
        assert_eq!(selected("tier notin (front)", &labels), Ok(false));
        assert!(selected("app>1", &labels).is_err());
    }
}

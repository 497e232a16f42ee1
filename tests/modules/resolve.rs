//! Where a path leads: from what a module writes to the absolute path it
//! means, and from there to the module that defines the item.

use super::{Crate, Id};

impl Crate {
    /// The absolute path (from the crate root) of `raw` as written in module
    /// `m`, or `None` if it leads out of the crate (std, a dependency) or to
    /// something local (a variable, a generic parameter, the prelude).
    pub(super) fn absolute(
        &self,
        m: Id,
        raw: &[String],
        local: bool,
        depth: u32,
    ) -> Option<Vec<String>> {
        let module = &self.modules[m];
        if depth > 16 || raw.is_empty() {
            return None;
        }
        let (mut base, rest) = match raw[0].as_str() {
            "crate" => (Vec::new(), &raw[1..]),
            "self" | "super" => {
                let mut at = m;
                let mut i = usize::from(raw[0] == "self");
                while raw.get(i).is_some_and(|s| s == "super") {
                    at = self.modules[at].parent?;
                    i += 1;
                }
                (self.modules[at].path.clone(), &raw[i..])
            }
            first if module.children.contains_key(first) || module.items.contains(first) => {
                (module.path.clone(), raw)
            }
            first => {
                let imported = module.imports.get(first);
                let imported = imported
                    .or_else(|| local.then(|| module.local_imports.get(first)).flatten())?;
                // `use serde;` would find itself again: that is a dependency.
                if imported.len() == 1 && imported[0] == first {
                    return None;
                }
                (self.absolute(m, imported, false, depth + 1)?, &raw[1..])
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The module that defines the item at the absolute path `abs`.
    pub(super) fn definer(&self, abs: &[String], depth: u32) -> Id {
        let (m, rest) = self.walk(abs);
        let Some(name) = rest.first() else { return m };
        let module = &self.modules[m];
        if depth > 16 || module.items.contains(name) {
            return m;
        }
        if let Some(imported) = module.imports.get(name) {
            return match self.absolute(m, imported, false, depth + 1) {
                Some(mut to) => {
                    to.extend(rest[1..].iter().cloned());
                    self.definer(&to, depth + 1)
                }
                None => m, // a dependency's item, re-exported here
            };
        }
        for glob in &module.globs {
            let Some(mut to) = self.absolute(m, glob, false, depth + 1) else {
                continue;
            };
            let (g, g_rest) = self.walk(&to);
            let from = &self.modules[g];
            let has = |n: &String| {
                from.items.contains(n)
                    || from.imports.contains_key(n)
                    || from.children.contains_key(n)
            };
            if g_rest.is_empty() && has(name) {
                to.extend(rest.iter().cloned());
                return self.definer(&to, depth + 1);
            }
        }
        m
    }

    /// The deepest module on the absolute path `abs`, and what follows it.
    pub(super) fn walk<'a>(&self, abs: &'a [String]) -> (Id, &'a [String]) {
        let mut m = 0;
        for (i, seg) in abs.iter().enumerate() {
            match self.modules[m].children.get(seg) {
                Some(&c) => m = c,
                None => return (m, &abs[i..]),
            }
        }
        (m, &[])
    }
}

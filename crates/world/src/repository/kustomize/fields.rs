//! Where kustomize's transformers write: field specs, a path of fields on
//! the objects of one group, version and kind (any, when left empty), as
//! api/filters/fieldspec walks them: a list on the way is walked item by
//! item, and a missing map is made only where the spec says `create`.

use super::Resource;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy)]
pub struct FieldSpec<'a> {
    pub group: &'a str,
    pub version: &'a str,
    pub kind: &'a str,
    /// Fields joined by `/`; `name[]` is a list.
    pub path: &'a str,
    pub create: bool,
}

pub const fn spec<'a>(group: &'a str, kind: &'a str, path: &'a str, create: bool) -> FieldSpec<'a> {
    FieldSpec {
        group,
        version: "",
        kind,
        path,
        create,
    }
}

impl FieldSpec<'_> {
    pub fn selects(&self, resource: &Resource) -> bool {
        let (group, version) = resource.group_version();
        (self.kind.is_empty() || self.kind == resource.kind())
            && (self.group.is_empty() || self.group == group)
            && (self.version.is_empty() || self.version == version)
    }

    /// Calls `set` on each value at the spec's path in `resource`, when the
    /// spec selects it.
    pub fn visit(
        &self,
        resource: &mut Resource,
        set: &mut dyn FnMut(&mut Value) -> Result<(), String>,
    ) -> Result<(), String> {
        if !self.selects(resource) {
            return Ok(());
        }
        let path: Vec<&str> = self
            .path
            .split('/')
            .filter(|part| !part.is_empty())
            .collect();
        visit(&mut resource.object, &path, self.create, set)
            .map_err(|why| format!("{} {}: {why}", resource.kind(), resource.name()))
    }
}

/// Calls `set` on each value at `path` below `value`.
pub fn visit(
    value: &mut Value,
    path: &[&str],
    create: bool,
    set: &mut dyn FnMut(&mut Value) -> Result<(), String>,
) -> Result<(), String> {
    let Some((first, rest)) = path.split_first() else {
        return set(value);
    };
    match value {
        Value::Null => Ok(()),
        Value::Array(items) => items
            .iter_mut()
            .try_for_each(|item| visit(item, path, create, set)),
        Value::Object(fields) => {
            let (name, is_list) = match first.strip_suffix("[]") {
                Some(name) => (name, true),
                None => (*first, false),
            };
            let missing = fields.get(name).is_none_or(Value::is_null);
            if missing && (!create || is_list) {
                return Ok(());
            }
            if missing {
                fields.insert(name.to_string(), Value::Object(Map::new()));
            }
            match fields.get_mut(name) {
                Some(field) => visit(field, rest, create, set),
                None => Ok(()),
            }
        }
        _ => Err(format!(
            "`{first}` is below a value that is neither a map nor a list"
        )),
    }
}

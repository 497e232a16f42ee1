//! A whole desired state, typed as one text in the page, written back into Git
//! file by file. A directory of one file takes the text as that file (renamed
//! only when the text is written in another format: `manifests.json` becomes
//! `manifests.yaml`). A directory of several takes each changed object into the
//! file that declares it, each removed one out of its file (a file left with
//! nothing is removed), and what is new into one file of its own, named after
//! the object as `kubectl` users name theirs (`cache.yaml`; `manifests.yaml` for
//! several). A file none of whose objects changed is not touched, so a commit
//! says what the person changed and nothing more: an annotation added to the
//! database writes `db.yaml` alone, not a `manifests.yaml` in place of the
//! directory.
//!
//! This needs the directory's files to say, object by object, where each comes
//! from: files of objects in the text's form, and no kustomization (what an
//! overlay renders to cannot be written back into its bases and patches). Where
//! that does not hold, `written_back` gives nothing and the text is written as
//! the directory's one file (`edits::environment_changes`).

use super::kustomize::kustomization_file;
use super::paths::is_under;
use super::{FileChanges, Files};
use gitops_core::state::render::{render, Format};
use gitops_core::state::{Form, State};
use gitops_core::Workspace;
use serde_json::Value;
use std::mem::discriminant;

/// The changes that make `text`, which reads as `typed`, the desired state of
/// `directory` in `head`, file by file; none where the files cannot say where
/// each object comes from.
pub fn written_back(
    workspace: &mut Workspace,
    head: &Files,
    directory: &str,
    text: &str,
    typed: &State,
) -> Option<FileChanges> {
    if !matches!(kustomization_file(head, directory), Ok(None)) {
        return None;
    }
    let format = Format::of(text);
    let mut paths = head.keys().filter(|path| is_under(path, directory));
    if let (Some(only), None) = (paths.next(), paths.next()) {
        let path = with_extension(only, format);
        let remove = if path == *only { Vec::new() } else { vec![only.clone()] };
        return Some(FileChanges { write: Files::from([(path, Value::String(text.to_string()))]), remove });
    }
    // Each file with what it declares, and the same state as it is edited (few files:
    // each object is looked for in each).
    let mut declared: Vec<(&String, &Value, State, Option<State>)> = Vec::new();
    for (path, content) in head.iter().filter(|(path, _)| is_under(path, directory)) {
        let state = workspace.read_file(path, content).ok()?;
        if discriminant(state.form()) != discriminant(typed.form()) {
            return None;
        }
        declared.push((path, content, state, None));
    }
    let mut added = State::empty(typed.form().clone());
    for (key, object) in typed.objects() {
        match declared.iter_mut().find(|(_, _, state, _)| state.object(key).is_some()) {
            Some((_, _, state, _)) if state.object(key) == Some(object) => {}
            Some((_, _, state, edited)) => edited
                .get_or_insert_with(|| state.clone())
                .insert_shared(key.clone(), object.clone()),
            None => added.insert_shared(key.clone(), object.clone()),
        }
    }
    let mut changes = FileChanges::default();
    for (path, content, state, edited) in &mut declared {
        for key in state.objects().keys().filter(|key| typed.object(key).is_none()) {
            edited.get_or_insert_with(|| state.clone()).remove(key);
        }
        match edited {
            Some(edited) if edited.is_empty() => changes.remove.push(path.to_string()),
            Some(edited) => {
                changes.write.insert(path.to_string(), content_like(content, edited));
            }
            None => {}
        }
    }
    if let Some(first) = added.objects().keys().next() {
        let name = match added.len() {
            1 => first.rsplit('/').next().unwrap_or(first),
            _ => "manifests",
        };
        let path = new_file(head, &changes, directory, name, format);
        changes.write.insert(path, Value::String(render(&added, format).text));
    }
    Some(changes)
}

/// `state` written as `content` was: text in its own format, or values in the
/// same shape (a single object stays a single object).
fn content_like(content: &Value, state: &State) -> Value {
    match content {
        Value::String(text) => Value::String(render(state, Format::of(text)).text),
        Value::Object(object) if !object.contains_key("items") && matches!(state.form(), Form::List) && state.len() == 1 => {
            state.objects().values().next().map_or(Value::Null, |object| object.to_value())
        }
        _ => state.to_value(),
    }
}

/// A new file named `name` in the directory (`cache.yaml`; then numbered,
/// `cache-2.yaml`, where that is taken).
fn new_file(head: &Files, changes: &FileChanges, directory: &str, name: &str, format: Format) -> String {
    let extension = extension_of(format);
    let name = file_name(name);
    let taken = |path: &String| head.contains_key(path) || changes.write.contains_key(path);
    std::iter::once(format!("{directory}/{name}.{extension}"))
        .chain((2..).map(|number| format!("{directory}/{name}-{number}.{extension}")))
        .find(|path| !taken(path))
        .unwrap_or_default()
}

/// The extension of a file written in `format`.
pub fn extension_of(format: Format) -> &'static str {
    match format {
        Format::Json => "json",
        Format::Yaml => "yaml",
    }
}

/// `path` with the extension of `format`, where it has another one.
fn with_extension(path: &str, format: Format) -> String {
    let (directory, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = match name.rsplit_once('.') {
        Some((stem, extension)) => match (format, extension) {
            (Format::Json, "json") | (Format::Yaml, "yaml" | "yml") => return path.to_string(),
            _ if !stem.is_empty() => stem,
            _ => name,
        },
        None => name,
    };
    let extension = extension_of(format);
    match directory {
        "" => format!("{stem}.{extension}"),
        _ => format!("{directory}/{stem}.{extension}"),
    }
}

/// `name` with what a file name should not hold replaced by `-`.
fn file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|character| match character.is_ascii_alphanumeric() || matches!(character, '.' | '_' | '-') {
            true => character,
            false => '-',
        })
        .collect();
    match cleaned.trim_matches('.') {
        "" => "object".to_string(),
        trimmed => trimmed.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_renamed_for_another_format_keeps_its_name_and_directory() {
        for (path, format, renamed) in [
            ("envs/prod/manifests.json", Format::Yaml, "envs/prod/manifests.yaml"),
            ("envs/prod/manifests.json", Format::Json, "envs/prod/manifests.json"),
            ("app/web.yml", Format::Yaml, "app/web.yml"),
            ("app/web.yml", Format::Json, "app/web.json"),
            ("envs/prod.d/web", Format::Yaml, "envs/prod.d/web.yaml"),
            ("envs/prod/.hidden", Format::Json, "envs/prod/.hidden.json"),
            ("web.txt", Format::Json, "web.json"),
        ] {
            assert_eq!(with_extension(path, format), renamed, "{path}");
        }
    }

    #[test]
    fn a_new_file_is_named_after_its_object_and_numbered_where_taken() {
        let head = Files::from([("envs/prod/cache.yaml".to_string(), Value::Null)]);
        let changes = FileChanges::default();
        assert_eq!(new_file(&head, &changes, "envs/prod", "cache", Format::Yaml), "envs/prod/cache-2.yaml");
        assert_eq!(new_file(&head, &changes, "envs/prod", "a/b c", Format::Json), "envs/prod/a-b-c.json");
        assert_eq!(new_file(&head, &changes, "envs/prod", "..", Format::Json), "envs/prod/object.json");
    }
}

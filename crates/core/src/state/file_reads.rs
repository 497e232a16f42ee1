//! What each file of a repository reads as, once for each content: a
//! workspace's memory of its files (`Workspace::read_file`). A world renders
//! an environment's directory again and again (the agent each minute, the
//! summary, a pull request's review), and most of its files are the same
//! from one commit to the next; reading is a pure function of a file's path
//! and content, so each (path, content) is read once and recalled after.
//!
//! A file is found by a hash of its path and content, walked in order as a
//! commit's id walks it (`repository::commit_id` in the world), and is the
//! one only if its content is equal too. A text large enough to be worth
//! reading again in part goes to the workspace's recent reads
//! (`recent_reads.rs`) instead, which know how to. What is kept is bounded in
//! two generations: when the newer one is full it becomes the older, and the
//! older one is dropped; a file found in the older is moved to the newer.

use crate::error::InputError;
use crate::state::State;
use crate::value::digest::{feed_str, feed_value};
use rustc_hash::{FxHashMap, FxHasher};
use serde_json::Value;
use std::hash::Hasher;

/// How many files a generation keeps: enough for every file of a few dozen
/// commits of the scenarios a lesson shows.
const GENERATION: usize = 512;

struct FileRead {
    path: String,
    content: Value,
    result: Result<State, InputError>,
}

/// The files a workspace keeps, by the hash of their path and content.
#[derive(Default)]
pub(crate) struct FileReads {
    newer: FxHashMap<u64, Vec<FileRead>>,
    older: FxHashMap<u64, Vec<FileRead>>,
    kept: usize,
    /// How many files were read rather than recalled, and of them how many texts.
    read: usize,
    texts_read: usize,
}

impl FileReads {
    /// What the file at `path` reads as, from a kept read of the same path and
    /// content, else from `read` (which is kept).
    pub(crate) fn read(
        &mut self,
        path: &str,
        content: &Value,
        read: impl FnOnce() -> Result<State, InputError>,
    ) -> Result<State, InputError> {
        let hash = hash_of(path, content);
        let same = |kept: &FileRead| kept.path == path && kept.content == *content;
        if let Some(kept) = self.newer.get(&hash).and_then(|kept| kept.iter().find(|kept| same(kept))) {
            return kept.result.clone();
        }
        let recalled = self.older.get_mut(&hash).and_then(|kept| {
            let at = kept.iter().position(same)?;
            Some(kept.swap_remove(at))
        });
        let file = match recalled {
            Some(file) => file,
            None => {
                self.read += 1;
                self.texts_read += usize::from(content.is_string());
                FileRead { path: path.to_string(), content: content.clone(), result: read() }
            }
        };
        let result = file.result.clone();
        if self.kept == GENERATION {
            self.older = std::mem::take(&mut self.newer);
            self.kept = 0;
        }
        self.newer.entry(hash).or_default().push(file);
        self.kept += 1;
        result
    }

    /// How many files were read rather than recalled.
    pub(crate) fn files_read(&self) -> usize {
        self.read
    }

    /// How many of them were texts.
    pub(crate) fn texts_read(&self) -> usize {
        self.texts_read
    }
}

/// A hash of `path` and `content`, walked as a commit's id walks a file.
fn hash_of(path: &str, content: &Value) -> u64 {
    let mut hash = FxHasher::default();
    feed_str(&mut hash, path);
    feed_value(&mut hash, content);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use crate::state::State;
    use crate::Workspace;
    use serde_json::{json, Value};

    fn deployment(name: &str, replicas: u32) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": {"replicas": replicas}})
    }

    #[test]
    fn a_file_is_read_once_for_each_path_and_content_and_reads_as_it_would_afresh() {
        let mut workspace = Workspace::new();
        let value = deployment("web", 2);
        let text = Value::String("kind: ConfigMap\napiVersion: v1\nmetadata: {name: settings}\n".into());
        for _ in 0..3 {
            assert_eq!(workspace.read_file("envs/prod/web.json", &value), State::from_value("envs/prod/web.json", value.clone()));
            assert_eq!(workspace.read_file("envs/prod/settings.yaml", &text), State::read("envs/prod/settings.yaml", text.as_str().unwrap()));
        }
        assert_eq!((workspace.files_read(), workspace.texts_read()), (2, 1));
        workspace.read_file("envs/staging/web.json", &value).unwrap();
        workspace.read_file("envs/prod/web.json", &deployment("web", 3)).unwrap();
        assert_eq!(workspace.files_read(), 4, "another path, another content: each read");
    }

    #[test]
    fn the_same_fields_in_another_order_are_another_content() {
        let mut workspace = Workspace::new();
        let first: Value = serde_json::from_str(r#"{"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "a"}}"#).unwrap();
        let reordered: Value = serde_json::from_str(r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}"#).unwrap();
        let order = |state: State| -> Vec<String> { state.objects().values().next().unwrap().value().as_object().unwrap().keys().cloned().collect() };
        assert_eq!(order(workspace.read_file("a.json", &first).unwrap()), ["kind", "apiVersion", "metadata"]);
        assert_eq!(order(workspace.read_file("a.json", &reordered).unwrap()), ["apiVersion", "kind", "metadata"]);
    }

    #[test]
    fn a_file_that_does_not_read_gives_its_error_each_time_and_is_read_once() {
        let mut workspace = Workspace::new();
        let broken = Value::String("kind: [".into());
        let first = workspace.read_file("envs/prod/broken.yaml", &broken).unwrap_err();
        assert_eq!(workspace.read_file("envs/prod/broken.yaml", &broken).unwrap_err(), first);
        assert_eq!(workspace.files_read(), 1);
    }

    #[test]
    fn what_is_kept_is_bounded_and_a_file_still_in_use_stays() {
        let mut workspace = Workspace::new();
        let kept = deployment("kept", 1);
        for replicas in 0..super::GENERATION as u32 * 3 {
            workspace.read_file("kept.json", &kept).unwrap();
            workspace.read_file("passing.json", &deployment("passing", replicas)).unwrap();
        }
        assert_eq!(workspace.files_read(), 1 + super::GENERATION * 3, "the file read at every turn is read once");
        let files = &workspace.files;
        assert!(files.newer.values().chain(files.older.values()).map(Vec::len).sum::<usize>() <= 2 * super::GENERATION);
        workspace.read_file("passing.json", &deployment("passing", 0)).unwrap();
        assert_eq!(workspace.files_read(), 2 + super::GENERATION * 3, "a file pushed out is read again");
    }
}

//! The seed corpus in `seeds/`: scenarios (presets and an
//! exercise), states (Argo CD's fixtures and the lesson's forms) and share
//! links, each as text and, for the value-level mutations, as a value.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use gitops_core::text::document;
use gitops_world::share::MAX_EXPANDED_BYTES;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/seeds");
const REGRESSIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/regressions");
const LIBFUZZER_CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus");

/// Seeds as text, seeds as values, and the tokens their mutations insert.
pub struct Corpus {
    pub texts: Vec<Vec<u8>>,
    pub values: Vec<Value>,
    pub tokens: &'static [&'static str],
}

/// Each file of a directory, by name.
pub fn files(directory: &Path) -> BTreeMap<String, String> {
    let entries =
        fs::read_dir(directory).unwrap_or_else(|error| panic!("{}: {error}", directory.display()));
    entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            (name, text)
        })
        .collect()
}

pub fn corpus_files(kind: &str) -> BTreeMap<String, String> {
    files(&Path::new(CORPUS).join(kind))
}

/// The inputs that once failed, by target and name, each a map of its
/// parts: `<target>-<name>.<part>`.
pub fn regressions() -> BTreeMap<(String, String), BTreeMap<String, String>> {
    let mut inputs: BTreeMap<_, BTreeMap<_, _>> = BTreeMap::new();
    for (file, text) in files(Path::new(REGRESSIONS)) {
        let (stem, part) = file.rsplit_once('.').unwrap_or((&file, "txt"));
        let (target, name) = stem
            .split_once('-')
            .unwrap_or_else(|| panic!("{file} is named <target>-<name>.<part>"));
        inputs
            .entry((target.to_string(), name.to_string()))
            .or_default()
            .insert(part.to_string(), text);
    }
    inputs
}

/// The inputs libFuzzer kept for `target`, as bytes, by file.
pub fn libfuzzer_corpus(target: &str) -> BTreeMap<String, Vec<u8>> {
    let directory = Path::new(LIBFUZZER_CORPUS).join(target);
    let entries =
        fs::read_dir(&directory).unwrap_or_else(|error| panic!("{}: {error}", directory.display()));
    entries
        .map(|entry| entry.expect("a directory entry").path())
        .map(|path| {
            let bytes = fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            (path.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// Seeds that are documents (scenarios, states, sessions), read as values
/// the way the playground reads them: a YAML stream is the list of its
/// documents.
pub fn documents(texts: Vec<String>, tokens: &'static [&'static str]) -> Corpus {
    let values = texts
        .iter()
        .map(|text| {
            let mut documents = document::parse_documents("seed", text)
                .unwrap_or_else(|error| panic!("every seed reads: {error}"));
            match documents.len() {
                1 => documents.remove(0),
                _ => Value::Array(documents),
            }
        })
        .collect();
    Corpus {
        texts: texts.into_iter().map(String::into_bytes).collect(),
        values,
        tokens,
    }
}

pub fn of_kind(kind: &str, tokens: &'static [&'static str]) -> Corpus {
    documents(corpus_files(kind).into_values().collect(), tokens)
}

/// The link seeds.
pub fn links(tokens: &'static [&'static str]) -> Corpus {
    let texts = corpus_files("link")
        .into_values()
        .map(|text| text.trim().as_bytes().to_vec())
        .collect();
    Corpus {
        texts,
        values: Vec::new(),
        tokens,
    }
}

/// Two links that expand to just within and just past what a link may
/// expand to.
pub fn bombs(tokens: &'static [&'static str]) -> Corpus {
    let texts = [MAX_EXPANDED_BYTES, MAX_EXPANDED_BYTES + 1]
        .map(|size| expanding_to(size).into_bytes())
        .into();
    Corpus {
        texts,
        values: Vec::new(),
        tokens,
    }
}

/// The sessions the link seeds carry, as JSON.
pub fn sessions(tokens: &'static [&'static str]) -> Corpus {
    let texts = corpus_files("link")
        .values()
        .map(|link| String::from_utf8(inflate(link.trim())).expect("a session is JSON text"))
        .collect();
    documents(texts, tokens)
}

/// A link whose session text is `size` bytes long once inflated.
fn expanding_to(size: usize) -> String {
    let session = format!("{{\"s\":\"{}\"}}", " ".repeat(size - 8));
    link_of(session.as_bytes())
}

/// A link fragment carrying `json` as its session, as `share::encode` makes it.
pub fn link_of(json: &[u8]) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(json, 1);
    format!("#v1.{}", URL_SAFE_NO_PAD.encode(deflated))
}

fn inflate(link: &str) -> Vec<u8> {
    let payload = link
        .strip_prefix("#v1.")
        .expect("a seed link starts with #v1.");
    let deflated = URL_SAFE_NO_PAD
        .decode(payload)
        .expect("a seed link is base64url");
    miniz_oxide::inflate::decompress_to_vec(&deflated).expect("a seed link inflates")
}

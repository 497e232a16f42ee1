//! The image registry: tags point to digests. A tag can be pushed again
//! (it is mutable); a digest names one image forever.

use crate::scenario::ImageSpec;
use gitops_core::image::ImageReference;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Image {
    pub digest: String,
    /// The `repository:tag` it was pushed as.
    pub pushed_as: String,
    pub pushed_by: String,
    pub step: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub crashes: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub malicious: bool,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registry {
    /// `repository:tag` to digest.
    tags: BTreeMap<String, String>,
    /// Digest to image.
    images: BTreeMap<String, Image>,
}

impl Registry {
    pub fn new(specs: &[ImageSpec]) -> Self {
        let mut registry = Registry::default();
        for spec in specs {
            registry.push(
                &spec.tag,
                spec.digest.clone(),
                spec.crashes,
                spec.malicious,
                "ci",
                0,
            );
        }
        registry
    }

    /// Pushes an image as `tag` (`repository:tag`), moving the tag if it
    /// already pointed elsewhere; the digest is made from what was pushed.
    pub fn push(
        &mut self,
        tag: &str,
        digest: Option<String>,
        crashes: bool,
        malicious: bool,
        by: &str,
        step: u32,
    ) -> &Image {
        let tag = ImageReference::parse(tag).tagged();
        let digest = digest.unwrap_or_else(|| {
            let mut hash = Sha256::new();
            hash.update(
                format!("{tag}\0{}\0{crashes}\0{malicious}\0{by}", self.images.len()).as_bytes(),
            );
            format!(
                "sha256:{}",
                hash.finalize()
                    .iter()
                    .map(|byte| format!("{byte:02x}"))
                    .collect::<String>()
            )
        });
        self.tags.insert(tag.clone(), digest.clone());
        self.images.entry(digest.clone()).or_insert(Image {
            digest: digest.clone(),
            pushed_as: tag,
            pushed_by: by.into(),
            step,
            crashes,
            malicious,
        })
    }

    /// The image a reference names now: by its digest if it has one, else
    /// by where its tag points at this moment.
    pub fn resolve(&self, reference: &str) -> Option<&Image> {
        let parsed = ImageReference::parse(reference);
        let digest = match parsed.digest {
            Some(digest) => digest,
            None => self.tags.get(&parsed.tagged())?,
        };
        self.images.get(digest)
    }

    pub fn tags(&self) -> &BTreeMap<String, String> {
        &self.tags
    }

    pub fn images(&self) -> impl Iterator<Item = &Image> {
        self.images.values()
    }
}

/// A digest as people read it: `sha256:1a2b3c4`.
pub fn short(digest: &str) -> String {
    match digest.split_once(':') {
        Some((algorithm, hex)) => format!("{algorithm}:{}", &hex[..hex.len().min(7)]),
        None => digest.to_string(),
    }
}

/// Text with each `sha256:` digest cut to its first 7 hex digits, as people
/// read them: `web@sha256:9b3e5d7`.
pub fn shorten_digests(text: &str) -> String {
    const MARK: &str = "sha256:";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        let (before, digest) = rest.split_at(at + MARK.len());
        out.push_str(before);
        let hex = digest.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&digest[..hex.min(7)]);
        rest = &digest[hex..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_moves_but_a_digest_does_not() {
        let mut registry = Registry::default();
        let first = registry
            .push("registry.example/web:1.4", None, false, false, "ci", 0)
            .digest
            .clone();
        assert_eq!(
            registry.resolve("registry.example/web:1.4").unwrap().digest,
            first
        );
        let evil = registry
            .push("registry.example/web:1.4", None, false, true, "attacker", 3)
            .digest
            .clone();
        assert_ne!(evil, first);
        assert!(
            registry
                .resolve("registry.example/web:1.4")
                .unwrap()
                .malicious,
            "the tag now points to the new image"
        );
        let pinned = format!("registry.example/web@{first}");
        assert!(
            !registry.resolve(&pinned).unwrap().malicious,
            "the digest still names the old one"
        );
    }

    #[test]
    fn no_tag_means_latest_and_unknown_images_do_not_resolve() {
        let mut registry = Registry::default();
        registry.push("web", None, false, false, "ci", 0);
        assert!(registry.resolve("web:latest").is_some());
        assert!(registry.resolve("web:2.0").is_none());
        assert!(registry.resolve("web@sha256:0000").is_none());
    }

    #[test]
    fn digests_are_deterministic() {
        let digest = |_: ()| {
            Registry::new(&[ImageSpec {
                tag: "web:1".into(),
                digest: None,
                crashes: false,
                malicious: false,
            }])
            .resolve("web:1")
            .unwrap()
            .digest
            .clone()
        };
        assert_eq!(digest(()), digest(()));
        assert_eq!(short("sha256:0123456789abcdef"), "sha256:0123456");
        assert_eq!(
            shorten_digests("web@sha256:0123456789abcdef and db@sha256:fedcba98765"),
            "web@sha256:0123456 and db@sha256:fedcba9"
        );
    }
}

//! The image registry: tags point to digests. A tag can be pushed again
//! (it is mutable); a digest names one image forever. A scenario without a
//! `registry:` list has an open registry: it holds every image it is asked
//! for, since images are not that scenario's lesson.

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
    /// The images by digest: a list kept in order rather than a map, the only
    /// one of its kind in the page, whose B-tree code would cost the first visit.
    images: Vec<Image>,
    /// Holds any image asked for that was not pushed (see the module).
    open: bool,
}

impl Registry {
    /// The registry a scenario's `registry:` list fills; without one, open.
    pub fn new(specs: Option<&[ImageSpec]>) -> Self {
        let mut registry = Registry {
            open: specs.is_none(),
            ..Registry::default()
        };
        for spec in specs.unwrap_or_default() {
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
            digest_of(&format!("{tag}\0{}\0{crashes}\0{malicious}\0{by}", self.images.len()))
        });
        self.tags.insert(tag.clone(), digest.clone());
        let at = match self.image_at(&digest) {
            Ok(at) => at,
            Err(at) => {
                let image = Image {
                    digest,
                    pushed_as: tag,
                    pushed_by: by.into(),
                    step,
                    crashes,
                    malicious,
                };
                self.images.insert(at, image);
                at
            }
        };
        &self.images[at]
    }

    /// Where the image of `digest` is among the images, or where it would go.
    fn image_at(&self, digest: &str) -> Result<usize, usize> {
        self.images
            .binary_search_by(|image| image.digest.as_str().cmp(digest))
    }

    /// The image a reference names now: by its digest if it has one, else
    /// by where its tag points at this moment. An open registry holds an
    /// image it was not pushed, as one that was there before the start.
    pub fn resolve(&self, reference: &str) -> Option<Image> {
        let parsed = ImageReference::parse(reference);
        let tagged = parsed.tagged();
        let digest = match parsed.digest {
            Some(digest) => Some(digest),
            None => self.tags.get(&tagged).map(String::as_str),
        };
        match digest.and_then(|digest| self.image_at(digest).ok()) {
            Some(at) => Some(self.images[at].clone()),
            None if self.open => Some(Image {
                digest: parsed
                    .digest
                    .map_or_else(|| digest_of(&format!("{tagged}\0open")), str::to_string),
                pushed_as: tagged,
                pushed_by: String::new(),
                step: 0,
                crashes: false,
                malicious: false,
            }),
            None => None,
        }
    }

    /// Whether it holds every image asked for (see the module).
    pub fn is_open(&self) -> bool {
        self.open
    }

    pub fn tags(&self) -> &BTreeMap<String, String> {
        &self.tags
    }

    pub fn images(&self) -> impl Iterator<Item = &Image> {
        self.images.iter()
    }
}

fn digest_of(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// A digest as people read it: `sha256:1a2b3c4`, its first 7 characters
/// after the algorithm, whatever they are.
pub fn short(digest: &str) -> String {
    match digest.split_once(':') {
        Some((algorithm, encoded)) => {
            let seventh_character_ends = encoded.char_indices().nth(7).map_or(encoded.len(), |(at, _)| at);
            format!("{algorithm}:{}", &encoded[..seventh_character_ends])
        }
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
    fn an_open_registry_holds_every_image_asked_for_and_what_was_pushed() {
        let mut registry = Registry::new(None);
        let web = registry.resolve("registry.example/web:1.4").unwrap();
        assert_eq!(web.pushed_as, "registry.example/web:1.4");
        assert_eq!(registry.resolve("registry.example/web:1.4").unwrap().digest, web.digest);
        assert_ne!(registry.resolve("registry.example/web:1.5").unwrap().digest, web.digest);
        assert_eq!(
            registry.resolve("web@sha256:0123").unwrap().digest,
            "sha256:0123",
            "a digest names itself"
        );
        registry.push("registry.example/web:1.4", None, true, false, "ci", 2);
        assert!(registry.resolve("registry.example/web:1.4").unwrap().crashes, "a push moves the tag");
        assert!(registry.is_open());
        assert!(!Registry::new(Some(&[])).is_open());
    }

    #[test]
    fn a_digest_of_any_characters_is_shortened_by_characters() {
        assert_eq!(short("sha256:ab€€4a1c7f0d"), "sha256:ab€€4a1");
        assert_eq!(short("sha256:ab€"), "sha256:ab€");
        assert_eq!(short("sha256:🦀🦀🦀🦀🦀🦀🦀🦀"), "sha256:🦀🦀🦀🦀🦀🦀🦀");
    }

    #[test]
    fn digests_are_deterministic() {
        let digest = |_: ()| {
            Registry::new(Some(&[ImageSpec {
                tag: "web:1".into(),
                digest: None,
                crashes: false,
                malicious: false,
            }]))
            .resolve("web:1")
            .unwrap()
            .digest
            .clone()
        };
        assert_eq!(digest(()), digest(()));
        assert_eq!(short("sha256:0123456789abcdef"), "sha256:0123456");
        assert_eq!(short("sha256:012"), "sha256:012");
        assert_eq!(
            shorten_digests("web@sha256:0123456789abcdef and db@sha256:fedcba98765"),
            "web@sha256:0123456 and db@sha256:fedcba9"
        );
    }
}

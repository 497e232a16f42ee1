//! `mutable-image-tag`: an image without a digest, `latest` or no tag the worst.

use super::MUTABLE_IMAGE_TAG;
use super::{warning, Warning};
use crate::image::{image_fields, ImageReference};
use crate::value::ValueRef;

/// What an image reference pins.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ImageRef<'a> {
    /// `web@sha256:...` or `web:1.4@sha256:...`: one exact image.
    Digest,
    /// `web` or `web:latest`; `repository` is the reference without its tag.
    Latest { repository: &'a str, tagged: bool },
    /// `web:1.4`: a tag someone can push again.
    Tag { tag: &'a str },
}

pub(super) fn parse_image(reference: &str) -> ImageRef<'_> {
    let parsed = ImageReference::parse(reference);
    match (parsed.digest, parsed.tag) {
        (Some(_), _) => ImageRef::Digest,
        (None, None) => ImageRef::Latest {
            repository: parsed.repository,
            tagged: false,
        },
        (None, Some("latest")) => ImageRef::Latest {
            repository: parsed.repository,
            tagged: true,
        },
        (None, Some(tag)) => ImageRef::Tag { tag },
    }
}

/// What `mutable-image-tag` finds in one desired object; `skip_status` for
/// Kubernetes objects, whose `status` the cluster writes (a Pod's
/// `status.containerStatuses[].image`), not Git.
pub(super) fn image_warnings(key: &str, object: ValueRef, skip_status: bool) -> Vec<Warning> {
    if watches_a_repository(object) {
        return Vec::new();
    }
    image_fields(object, skip_status)
        .into_iter()
        .filter_map(|(pointer, image)| image_message(key, &pointer, image))
        .map(|message| warning(key, MUTABLE_IMAGE_TAG, message))
        .collect()
}

/// Flux's image automation (`image.toolkit.fluxcd.io`): an `ImageRepository`
/// names a repository to watch for new tags, not an image to run; it is the
/// image-updater bot this rule recommends.
fn watches_a_repository(object: ValueRef) -> bool {
    object
        .get("apiVersion")
        .and_then(ValueRef::as_str)
        .is_some_and(|version| version.starts_with("image.toolkit.fluxcd.io/"))
}

fn image_message(key: &str, pointer: &str, image: &str) -> Option<String> {
    const BOT: &str = "an image-updater bot can open the pull request that changes it";
    match parse_image(image) {
        ImageRef::Digest => None,
        _ if image.trim().is_empty() => None,
        ImageRef::Latest { repository, tagged } => {
            let which = if tagged {
                "the tag `latest`".to_string()
            } else {
                format!("no tag, which means `{repository}:latest`")
            };
            Some(format!(
                "`{key}` runs the image `{image}` (at {pointer}) with {which}. This is the \
                 worst case: `latest` moves with every push, so Git does not record which \
                 code runs and the reconciler never sees a change. Pin a digest \
                 (`{repository}@sha256:...`) or an immutable version tag; {BOT}."
            ))
        }
        ImageRef::Tag { tag } => Some(format!(
            "`{key}` runs the image `{image}` (at {pointer}): the tag `{tag}` can be pushed \
             again, and then the cluster runs new code while Git stays the same, so Git \
             does not record what runs. Pin a digest (`{image}@sha256:...`) or use an \
             immutable tag (one the registry refuses to overwrite); {BOT}."
        )),
    }
}

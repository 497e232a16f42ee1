//! The registry's tags as the picture shows them: the digest each points to,
//! and the one it pointed to before a push at this step moved it.

use gitops_world::World;

#[derive(Debug, Clone, PartialEq)]
pub struct Tag {
    pub tag: String,
    pub digest: String,
    /// The digest it pointed to before it was pushed again at this step.
    pub moved_from: Option<String>,
    pub malicious: bool,
}

pub(super) fn tags(world: &World) -> Vec<Tag> {
    world
        .registry
        .tags()
        .iter()
        .map(|(tag, digest)| {
            let pushes: Vec<_> = world
                .registry
                .images()
                .filter(|image| image.pushed_as == *tag)
                .collect();
            let image = world
                .registry
                .images()
                .find(|image| image.digest == *digest);
            let moved_from = match pushes.as_slice() {
                [.., before, last]
                    if world.started && last.step == world.step && before.digest != *digest =>
                {
                    Some(gitops_world::registry::short(&before.digest))
                }
                _ => None,
            };
            Tag {
                tag: tag.clone(),
                digest: gitops_world::registry::short(digest),
                moved_from,
                malicious: image.is_some_and(|image| image.malicious),
            }
        })
        .collect()
}

//! The world's workspace (`gitops_core::Workspace`): the large texts its
//! repository's files read as, and what its reports found for each object, so
//! that a commit of a small edit reads the edited object again alone.
//!
//! The world holds it and drops it with the world. The page looks at a world
//! through copies that share what the world remembers (a copy is a snapshot to
//! draw, or the world about to take the next action), so the copies share this
//! one workspace, and the page reads what is typed in it too: the text the world
//! then commits is one it read a moment ago. What the workspace remembers never
//! changes an answer, only how long it takes, so two worlds compare equal
//! whatever each remembers.

use gitops_core::Workspace;
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Clone, Default)]
pub struct SharedWorkspace(Rc<RefCell<Workspace>>);

impl SharedWorkspace {
    /// Runs `work` with the workspace. `work` calls the core, which never calls
    /// back into the world: no borrow of it is ever under way when another starts.
    pub fn with<R>(&self, work: impl FnOnce(&mut Workspace) -> R) -> R {
        work(&mut self.0.borrow_mut())
    }
}

impl PartialEq for SharedWorkspace {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for SharedWorkspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedWorkspace")
    }
}

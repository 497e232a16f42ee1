//! A shared value compared by its allocation, not its contents. Where a value is only
//! ever replaced, never changed in place (a typed text, the saved work, the world after
//! `Rc::make_mut`), the same allocation means the same value, and comparing megabytes
//! of text on every render to learn that a new text is new costs more than the render.

use gitops_core::text::edit::SharedText;
use std::ops::Deref;
use std::rc::Rc;

#[derive(Debug)]
pub struct PtrEq<T: ?Sized>(pub Rc<T>);

impl<T: ?Sized> Clone for PtrEq<T> {
    fn clone(&self) -> Self {
        PtrEq(self.0.clone())
    }
}

impl<T: ?Sized> PartialEq for PtrEq<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T: ?Sized> Deref for PtrEq<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> From<Rc<T>> for PtrEq<T> {
    fn from(shared: Rc<T>) -> Self {
        PtrEq(shared)
    }
}

/// A shared text compared by its allocation (`SharedText::same`), as `PtrEq` compares.
#[derive(Debug, Clone, Default)]
pub struct SameText(pub SharedText);

impl PartialEq for SameText {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(&other.0)
    }
}

impl Deref for SameText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for SameText {
    fn from(text: &str) -> Self {
        SameText(SharedText::from(text))
    }
}

impl From<SharedText> for SameText {
    fn from(text: SharedText) -> Self {
        SameText(text)
    }
}

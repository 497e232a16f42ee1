//! Which names a set of names may hold, in one word: a bit for each name's length
//! and first byte. A name whose bit is clear is not among them, found without
//! comparing it with each; two names whose bits differ are different.

#[derive(Clone, Copy, Default)]
pub struct Names(u64);

impl Names {
    fn bit(name: &str) -> u64 {
        let first = name.as_bytes().first().copied().unwrap_or_default();
        1 << ((name.len() * 31 + usize::from(first)) % 64)
    }

    /// Adds `name`; whether a name with its bit was there already (perhaps
    /// `name` itself).
    pub fn add(&mut self, name: &str) -> bool {
        let bit = Names::bit(name);
        let there = self.0 & bit != 0;
        self.0 |= bit;
        there
    }

    pub fn may_hold(self, name: &str) -> bool {
        self.0 & Names::bit(name) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_added_is_held_and_one_of_another_length_or_first_byte_is_not() {
        let mut names = Names::default();
        assert!(!names.add("metadata"));
        assert!(names.add("metadata"), "added twice");
        assert!(names.may_hold("metadata"));
        assert!(!names.may_hold("status"));
        assert!(!names.may_hold("metadatas"));
    }
}

//! Share links, as laws over generated sessions: a link opens what it
//! shares, and a damaged one is an error, never a crash.

mod common;

use gitops_testing::laws;
use gitops_world::share::{decode, encode};
use proptest::prelude::*;

laws! {
    fn a_link_opens_what_it_shares(session in common::generate::session()) {
        let link = encode(&session);
        prop_assert!(link.starts_with("v1."));
        prop_assert!(link.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "{}", link);
        prop_assert_eq!(decode(&format!("#{link}")).unwrap(), session);
    }

    fn a_damaged_link_is_an_error_not_a_crash(session in common::generate::session(), cut in 0usize..64, flip in any::<u8>()) {
        let link = encode(&session);
        let cut = link.len().saturating_sub(cut).max(3);
        let _ = decode(&link[..cut]);
        let mut bytes = link.into_bytes();
        let at = 3 + usize::from(flip) % (bytes.len() - 3);
        bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
        let _ = decode(&String::from_utf8(bytes).unwrap());
    }
}

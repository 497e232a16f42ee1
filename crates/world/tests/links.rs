//! Share links, as laws over generated sessions: a link opens what it
//! shares, and a damaged one is an error, never a crash.

mod common;

use gitops_testing::laws;
use gitops_world::share::{decode, encode, LinkError};
use proptest::prelude::*;

laws! {
    fn a_link_opens_what_it_shares(session in common::generate::session()) {
        let link = encode(&session);
        prop_assert!(link.starts_with("v1."));
        prop_assert!(link.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "{}", link);
        prop_assert_eq!(decode(&format!("#{link}")).unwrap(), session);
    }

    fn a_link_cut_short_is_an_error_that_says_so(session in common::generate::session(), cut in 1usize..64) {
        let link = encode(&session);
        let cut = link.len().saturating_sub(cut).max(3);
        let error = decode(&link[..cut]).expect_err("a link cut short does not open");
        prop_assert!(
            matches!(error, LinkError::Damaged(_) | LinkError::Unreadable(_)),
            "{:?}", error
        );
        prop_assert!(error.to_string().starts_with("this link "), "{}", error);
    }

    /// Raw deflate carries no checksum, so a character changed can still
    /// inflate to a session (the same one, where it fell in the padding of
    /// the last byte); that session shares and opens like any other, and
    /// anything else is an error that says what to do.
    fn a_link_with_a_character_changed_opens_a_session_or_says_it_is_damaged(session in common::generate::session(), flip in any::<u8>()) {
        let mut bytes = encode(&session).into_bytes();
        let at = 3 + usize::from(flip) % (bytes.len() - 3);
        bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
        match decode(&String::from_utf8(bytes).unwrap()) {
            Ok(opened) => prop_assert_eq!(decode(&encode(&opened)), Ok(opened)),
            Err(error) => prop_assert!(
                matches!(error, LinkError::Damaged(_) | LinkError::Unreadable(_)) && error.to_string().contains("link"),
                "{:?}: {}", error, error
            ),
        }
    }
}

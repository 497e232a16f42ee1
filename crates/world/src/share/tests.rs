use super::*;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

#[test]
fn a_preset_link_is_short() {
    let mut session = Session::of_preset("autoscaler-flapping.yaml");
    session.record(Interaction::Step, true);
    session.record(Interaction::Advance, true);
    let link = encode(&session);
    assert!(link.starts_with("v1."));
    assert!(link.len() < 80, "{link}");
    assert_eq!(decode(&format!("#{link}")).unwrap(), session);
}

#[test]
fn typing_is_one_entry_per_burst() {
    let mut session = Session::of_preset("worked-example.json");
    session.record(Interaction::Desired("{\"a\": {}}".into()), true);
    session.record(Interaction::Desired("{\"a\": {".into()), false);
    session.record(Interaction::Desired("{\"a\": {}, \"b\": {}}".into()), true);
    assert_eq!(
        session.interactions,
        [Interaction::Desired("{\"a\": {}, \"b\": {}}".into())]
    );
    session.record(Interaction::Desired("{\"a\"".into()), false);
    assert_eq!(
        session.interactions.len(),
        2,
        "the good text reached the world; the broken one is what the pane shows"
    );
    session.record(Interaction::Step, true);
    session.record(Interaction::Desired("{}".into()), true);
    assert_eq!(session.interactions.len(), 4);
}

#[test]
fn damaged_links_say_why() {
    let link = encode(&Session::of_scenario("desired: {}\n"));
    assert_eq!(decode("nonsense"), Err(LinkError::NotALink));
    assert_eq!(decode("#v9.abc"), Err(LinkError::NewerVersion(9)));
    assert!(
        matches!(decode(&link[..link.len() - 6]), Err(LinkError::Damaged(_))),
        "cut short"
    );
    assert!(matches!(decode("v1.@@@"), Err(LinkError::Damaged(_))));
    let not_a_session = format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1, 2]", 9))
    );
    assert!(matches!(
        decode(&not_a_session),
        Err(LinkError::Unreadable(_))
    ));
    assert!(decode(&"v1.A".repeat(MAX_LINK_CHARS))
        .unwrap_err()
        .to_string()
        .contains("characters long"));
}

#[test]
fn a_link_cut_short_says_where_it_stops_in_plain_words() {
    let link = encode(&Session::of_scenario(
        "desired: {web: {image: registry.example/web:2.0.1, replicas: 3}}\n",
    ));
    for cut in 4..link.len() {
        let message = decode(&format!("#{}", &link[..cut]))
            .unwrap_err()
            .to_string();
        // A cut where base64 cannot end (its length), or where it can but deflate has
        // not ended.
        assert_eq!(
            message,
            format!("this link is damaged or cut short (it stops part-way, at character {cut} after the #); copy the whole link again"),
            "cut at {cut}"
        );
    }
}

#[test]
fn a_character_a_link_cannot_hold_is_named_with_its_place() {
    let said = |fragment: &str| decode(fragment).unwrap_err().to_string();
    assert_eq!(
        said("#v1.AAAA%%%"),
        "this link is damaged or cut short (character 8 after the #, “%”, cannot be in a playground link); copy the whole link again"
    );
    assert!(said("v1.AAAA AAAA").contains("character 8 after the #, a space,"));
    assert!(said("v1.AAé…AA").contains("character 6 after the #, “é”,"));
    assert!(said("v1.AAAA\u{200b}AA").contains("an invisible character"));
    assert!(said("v1.AA=AAA").contains("character 6 after the #, “=”,"));
}

#[test]
fn a_link_changed_inside_or_holding_no_session_says_so_without_decoder_words() {
    assert_eq!(
        decode("v1.____").unwrap_err().to_string(),
        "this link is damaged or cut short (some of its characters were changed or lost); copy the whole link again"
    );
    let not_a_session = format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            b"{\"i\": [{\"x\": 1}]}",
            9
        ))
    );
    assert_eq!(
        decode(&not_a_session).unwrap_err().to_string(),
        "this link opens to something that is not a playground session; ask whoever made it for a new link"
    );
    let link = encode(&Session::of_scenario("desired: {api: {image: busybox}}\n"));
    let jargon = [
        "invalid", "input", "length", "symbol", "byte", "inflate", "deflate", "base64", "expected",
        "column",
    ];
    for at in 3..link.len() {
        for replacement in ["A", "_", "%", "", "AA"] {
            let damaged = format!("{}{replacement}{}", &link[..at], &link[at + 1..]);
            if let Err(error) = decode(&damaged) {
                let message = error.to_string().to_lowercase();
                assert!(
                    !jargon.iter().any(|word| message.contains(word)),
                    "{damaged}: {message}"
                );
            }
        }
    }
}

#[test]
fn a_link_that_expands_too_far_is_refused() {
    let bomb = vec![b' '; MAX_EXPANDED_BYTES + 1];
    let link = format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&bomb, 9))
    );
    assert!(link.len() < 20_000, "deflate makes it small");
    assert_eq!(decode(&link), Err(LinkError::TooLarge));
}

#[test]
fn a_session_deflated_in_slices_is_the_session_deflated_at_once() {
    let mut session = Session::of_preset("worked-example.json");
    let pane: String = (0..5_000)
        .map(|index| {
            format!(
                "{{\"name\": \"service-{index}\", \"replicas\": {}}},\n",
                index % 7
            )
        })
        .collect();
    session.record(Interaction::Desired(pane.as_str().into()), true);
    let at_once = encode(&session);
    for slice in [7, 1_000, 65_536, 1 << 20] {
        let mut encoder = Encoder::new(&session);
        let mut slices = 1;
        while !encoder.advance(slice) {
            slices += 1;
        }
        assert!(slice > pane.len() || slices > 1, "{slice}");
        assert_eq!(encoder.finish(), at_once, "in slices of {slice} bytes");
    }
    assert_eq!(decode_saved(&at_once), Ok(session));
}

#[test]
fn saved_work_opens_where_a_link_of_it_would_be_too_large() {
    let mut session = Session::of_preset("worked-example.json");
    let pane = "{\"name\": \"web\", \"replicas\": 2},\n".repeat(200_000);
    assert!(pane.len() > MAX_EXPANDED_BYTES);
    session.record(Interaction::Desired(pane.as_str().into()), true);
    let saved = encode(&session);
    assert_eq!(decode(&saved), Err(LinkError::TooLarge));
    assert_eq!(decode_saved(&saved), Ok(session));
}

#[test]
fn a_link_is_handed_out_only_when_the_playground_opens_it() {
    let mut small = Session::of_preset("worked-example.json");
    small.record(Interaction::Step, true);
    assert_eq!(encode_link(&small), Ok(encode(&small)));

    let mut large = Session::of_preset("worked-example.json");
    let pane = "{\"name\": \"web\", \"replicas\": 2},\n".repeat(200_000);
    large.record(Interaction::Actual(pane.as_str().into()), true);
    assert_eq!(encode_link(&large), Err(LinkError::TooLarge));

    // Text deflate cannot shrink: a link longer than the playground reads.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let noise: String = (0..700_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            char::from(b'!' + (seed % 90) as u8)
        })
        .collect();
    let mut long = Session::of_preset("worked-example.json");
    long.record(Interaction::Actual(noise.as_str().into()), true);
    assert!(matches!(
        encode_link(&long),
        Err(LinkError::TooLong(length)) if length > MAX_LINK_CHARS
    ));
}

/// Inflated by another inflater (the page's is the browser's) and handed in, a link
/// gives what `decode` gives.
fn decoded_from(
    fragment: &str,
    inflate: impl Fn(&Deflated) -> Inflated,
) -> Result<Session, LinkError> {
    let deflated = read_link(fragment)?;
    deflated.session(inflate(&deflated))
}

#[test]
fn a_link_inflated_elsewhere_opens_to_the_same_session() {
    let mut session = Session::of_scenario("desired: {web: {image: registry.example/web:2.0.1}}\n");
    session.record(Interaction::Step, true);
    let link = encode(&session);
    let handed_in = |deflated: &Deflated| {
        Inflated::Whole(miniz_oxide::inflate::decompress_to_vec(deflated.bytes()).unwrap())
    };
    assert_eq!(
        decoded_from(&format!("#{link}"), handed_in),
        Ok(session.clone())
    );
    assert_eq!(decoded_from(&link, handed_in), decode(&link));
    let saved = read_saved(&link).unwrap();
    assert_eq!(saved.limit(), MAX_SAVED_EXPANDED_BYTES);
    assert_eq!(saved.session(handed_in(&saved)), Ok(session));
}

#[test]
fn a_bomb_handed_in_is_refused_as_decode_refuses_it() {
    let bomb = vec![b' '; MAX_EXPANDED_BYTES + 1];
    let link = format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&bomb, 9))
    );
    let deflated = read_link(&link).unwrap();
    assert_eq!(deflated.limit(), MAX_EXPANDED_BYTES);
    let refused = Err(LinkError::TooLarge);
    assert_eq!(decode(&link), refused);
    // An inflater that stopped once past the limit says so.
    assert_eq!(deflated.session(Inflated::TooLarge), refused);
    // One that did not stop is refused all the same: the limit is checked here too.
    assert_eq!(deflated.session(Inflated::Whole(bomb)), refused);
    assert_eq!(
        deflated
            .session(Inflated::TooLarge)
            .unwrap_err()
            .to_string(),
        "this link expands to more than 4 MB"
    );
    let exactly = vec![b' '; MAX_EXPANDED_BYTES];
    assert!(matches!(
        deflated.session(Inflated::Whole(exactly)),
        Err(LinkError::Unreadable(_))
    ));
}

#[test]
fn a_link_handed_in_cut_short_or_changed_says_what_decode_says() {
    let link = encode(&Session::of_scenario(
        "desired: {web: {image: registry.example/web:2.0.1, replicas: 3}}\n",
    ));
    for cut in 4..link.len() {
        let fragment = format!("#{}", &link[..cut]);
        assert_eq!(
            decoded_from(&fragment, |_| Inflated::CutShort),
            decode(&fragment),
            "cut at {cut}"
        );
    }
    assert_eq!(
        decoded_from("v1.____", |_| Inflated::NotDeflate),
        decode("v1.____")
    );
    let not_a_session = format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"[1, 2]", 9))
    );
    assert_eq!(
        decoded_from(&not_a_session, |_| Inflated::Whole(b"[1, 2]".to_vec())),
        decode(&not_a_session)
    );
    assert!(matches!(
        decoded_from("v1.AAAA", |_| Inflated::Whole(vec![0xff, 0xfe])),
        Err(LinkError::Unreadable(_))
    ));
}

#[test]
fn what_is_wrong_before_inflating_is_found_before_inflating() {
    let never = |_: &Deflated| -> Inflated { unreachable!("nothing to inflate") };
    for fragment in ["nonsense", "#v9.abc", "v1.@@@", "#v1.AAAA%%%", "v1.AAAAA"] {
        assert_eq!(
            decoded_from(fragment, never),
            decode(fragment),
            "{fragment}"
        );
    }
    let long = "v1.A".repeat(MAX_LINK_CHARS);
    assert_eq!(decoded_from(&long, never), decode(&long));
}

#[test]
fn a_session_made_when_typing_committed_reads_with_a_commit_after_each_run_of_texts() {
    let before = r#"{"p": "worked-example.json", "i": [{"d": "{}"}, {"d": "{\"a\": {}}"}, "s", {"a": "{}"}, {"d": "{\"b\": {}}"}]}"#;
    let session = decode_saved_json(before).unwrap();
    assert_eq!(
        session.interactions,
        [
            Interaction::Desired("{}".into()),
            Interaction::Desired("{\"a\": {}}".into()),
            Interaction::Commit(String::new()),
            Interaction::Step,
            Interaction::Actual("{}".into()),
            Interaction::Desired("{\"b\": {}}".into()),
            Interaction::Commit(String::new()),
        ]
    );
    let now = Session { interactions: vec![Interaction::Desired("{}".into())], ..Session::of_preset("worked-example.json") };
    let encoded = encode(&now);
    assert_eq!(decode(&format!("#{encoded}")).unwrap(), now, "a working copy not committed stays so");
}

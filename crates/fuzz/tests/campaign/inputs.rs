//! The inputs each target is fed: a seed mutated byte by byte, a seed's
//! value reshaped (then a few bytes mutated), a soup of tokens, or noise;
//! for links, also a mutated session deflated and encoded as a link is.

use crate::mutate::{self, Mutation};
use crate::reshape;
use crate::seeds::{link_of, Corpus};
use proptest::prelude::*;
use proptest::sample::Index;
use std::sync::Arc;

pub fn text(corpus: Arc<Corpus>) -> BoxedStrategy<String> {
    prop_oneof![
        6 => mutated(corpus.clone()),
        3 => reshaped(corpus.clone()),
        1 => soup(corpus),
        1 => noise(),
    ]
    .boxed()
}

/// The actual state beside a desired one: a text of its own, or (as a
/// cluster drifts from Git) the desired text mutated.
#[derive(Debug)]
pub enum Actual {
    Own(String),
    Drifted(Vec<Mutation>),
}

impl Actual {
    pub fn of(self, desired: &str, corpus: &Corpus) -> String {
        match self {
            Actual::Own(text) => text,
            Actual::Drifted(mutations) => {
                let mut text = desired.as_bytes().to_vec();
                mutate::apply(&mut text, &mutations, corpus.tokens, &corpus.texts);
                String::from_utf8_lossy(&text).into_owned()
            }
        }
    }
}

pub fn actual(corpus: Arc<Corpus>) -> impl Strategy<Value = Actual> {
    prop_oneof![
        text(corpus).prop_map(Actual::Own),
        mutate::mutations(4).prop_map(Actual::Drifted),
    ]
}

/// A seed's text with up to eight byte-level mutations.
fn mutated(corpus: Arc<Corpus>) -> impl Strategy<Value = String> {
    (any::<Index>(), mutate::mutations(8)).prop_map(move |(seed, mutations)| {
        let mut text = corpus.texts[seed.index(corpus.texts.len())].clone();
        mutate::apply(&mut text, &mutations, corpus.tokens, &corpus.texts);
        String::from_utf8_lossy(&text).into_owned()
    })
}

/// A seed's value with up to four reshapes, written as JSON, then up to two
/// byte-level mutations.
fn reshaped(corpus: Arc<Corpus>) -> impl Strategy<Value = String> {
    (any::<Index>(), reshape::reshapes(4), mutate::mutations(2)).prop_map(
        move |(seed, reshapes, mutations)| {
            let mut value = corpus.values[seed.index(corpus.values.len())].clone();
            reshape::apply(&mut value, &reshapes);
            let mut text = serde_json::to_vec(&value).expect("a value writes as JSON");
            mutate::apply(&mut text, &mutations, corpus.tokens, &corpus.texts);
            String::from_utf8_lossy(&text).into_owned()
        },
    )
}

/// Tokens strung together.
fn soup(corpus: Arc<Corpus>) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<Index>(), 0..64).prop_map(move |picks| {
        let tokens = corpus.tokens;
        picks
            .iter()
            .map(|pick| tokens[pick.index(tokens.len())])
            .collect()
    })
}

/// Random bytes, or random text.
fn noise() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..512)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        any::<String>(),
    ]
}

/// A link fragment: a seed link mutated as text, a session mutated as JSON
/// and then deflated and encoded, or (rarely, as they are slow) a link that
/// expands to about the most a link may.
pub fn link(
    links: Arc<Corpus>,
    sessions: Arc<Corpus>,
    bombs: Arc<Corpus>,
) -> BoxedStrategy<String> {
    prop_oneof![
        32 => mutated(links),
        32 => text(sessions).prop_map(|json| link_of(json.as_bytes())),
        1 => mutated(bombs),
    ]
    .boxed()
}

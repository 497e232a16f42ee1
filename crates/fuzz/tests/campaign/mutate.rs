//! Byte-level mutations of a seed: flips, tokens inserted (once or many
//! times over, to nest past every cap), spans deleted, duplicated or spliced
//! in from another seed, and cuts. Proptest draws the recipe; applying it is
//! plain code.

use proptest::prelude::*;
use proptest::sample::Index;

/// The longest input made, in bytes: enough to nest and repeat past every
/// cap of the parsers, small enough to run a million inputs.
pub const MAX_INPUT_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone)]
pub enum Mutation {
    FlipBit {
        at: Index,
        bit: u8,
    },
    SetByte {
        at: Index,
        byte: u8,
    },
    InsertToken {
        at: Index,
        token: Index,
        times: usize,
    },
    InsertBytes {
        at: Index,
        bytes: Vec<u8>,
    },
    Delete {
        at: Index,
        len: usize,
    },
    Duplicate {
        from: Index,
        len: usize,
        to: Index,
        times: usize,
    },
    Splice {
        seed: Index,
        from: Index,
        len: usize,
        to: Index,
    },
    Truncate {
        at: Index,
    },
}

/// Mostly once, sometimes hundreds or thousands of times: `[[[[`,
/// `- - - -`, `{"a":{"a":`, `/spec/replicas/spec/replicas`.
fn times() -> impl Strategy<Value = usize> {
    prop_oneof![96 => Just(1usize), 8 => 2usize..400, 1 => 400usize..20_000]
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    let index = any::<Index>;
    prop_oneof![
        2 => (index(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        2 => (index(), any::<u8>()).prop_map(|(at, byte)| Mutation::SetByte { at, byte }),
        6 => (index(), index(), times())
            .prop_map(|(at, token, times)| Mutation::InsertToken { at, token, times }),
        2 => (index(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::InsertBytes { at, bytes }),
        3 => (index(), 1usize..64).prop_map(|(at, len)| Mutation::Delete { at, len }),
        2 => (index(), 1usize..256, index(), 1usize..8)
            .prop_map(|(from, len, to, times)| Mutation::Duplicate { from, len, to, times }),
        2 => (index(), index(), 1usize..512, index())
            .prop_map(|(seed, from, len, to)| Mutation::Splice { seed, from, len, to }),
        1 => index().prop_map(|at| Mutation::Truncate { at }),
    ]
}

/// Mostly none to two mutations, so that many inputs still read and reach
/// past the parser; sometimes up to `most`.
pub fn mutations(most: usize) -> impl Strategy<Value = Vec<Mutation>> {
    prop_oneof![
        3 => prop::collection::vec(mutation(), 0..=2.min(most)),
        1 => prop::collection::vec(mutation(), 0..=most),
    ]
}

/// Applies `mutations` in order; `tokens` are what `InsertToken` inserts,
/// `seeds` what `Splice` takes from.
pub fn apply(text: &mut Vec<u8>, mutations: &[Mutation], tokens: &[&str], seeds: &[Vec<u8>]) {
    for mutation in mutations {
        apply_one(text, mutation, tokens, seeds);
        text.truncate(MAX_INPUT_BYTES);
    }
}

fn apply_one(text: &mut Vec<u8>, mutation: &Mutation, tokens: &[&str], seeds: &[Vec<u8>]) {
    let len = text.len();
    match mutation {
        Mutation::FlipBit { at, bit } if len > 0 => text[at.index(len)] ^= 1 << bit,
        Mutation::SetByte { at, byte } if len > 0 => text[at.index(len)] = *byte,
        Mutation::InsertToken { at, token, times } => {
            let token = tokens[token.index(tokens.len())].as_bytes();
            insert(text, at.index(len + 1), &token.repeat(*times));
        }
        Mutation::InsertBytes { at, bytes } => insert(text, at.index(len + 1), bytes),
        Mutation::Delete { at, len: span } if len > 0 => {
            let start = at.index(len);
            text.drain(start..(start + span).min(len));
        }
        Mutation::Duplicate {
            from,
            len: span,
            to,
            times,
        } if len > 0 => {
            let start = from.index(len);
            let piece = text[start..(start + span).min(len)].repeat(*times);
            insert(text, to.index(len + 1), &piece);
        }
        Mutation::Splice {
            seed,
            from,
            len: span,
            to,
        } if !seeds.is_empty() => {
            let other = &seeds[seed.index(seeds.len())];
            if !other.is_empty() {
                let start = from.index(other.len());
                let piece = other[start..(start + span).min(other.len())].to_vec();
                insert(text, to.index(len + 1), &piece);
            }
        }
        Mutation::Truncate { at } => text.truncate(at.index(len + 1)),
        _ => {}
    }
}

fn insert(text: &mut Vec<u8>, at: usize, piece: &[u8]) {
    let room = MAX_INPUT_BYTES.saturating_sub(text.len());
    let piece = &piece[..piece.len().min(room)];
    text.splice(at..at, piece.iter().copied());
}

/// What JSON and YAML parsers trip on, and the words the playground reads.
pub const DOCUMENT_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ": ",
    ",",
    "- ",
    "\n",
    "\n  ",
    "\n    ",
    "\t",
    "\"",
    "'",
    "\\",
    "\\u0000",
    "\\ud800",
    "\u{0}",
    "\u{feff}",
    "\r\n",
    "\u{e9}",
    "\u{1F600}",
    "&a ",
    "*a",
    "&a [*a, *a, *a, *a, *a, *a, *a, *a]",
    "<<: *a",
    "!!str ",
    "!!binary ",
    "!!int ",
    "!x ",
    "? ",
    "|",
    "|-\n",
    ">-\n",
    "#",
    "---\n",
    "...\n",
    "%YAML 1.2\n---\n",
    "{\"a\":",
    "[[[[",
    "- - - - ",
    "null",
    "~",
    "true",
    "yes",
    "off",
    "-0",
    "0x",
    "0o17",
    "0xffffffffffffffffff",
    "1e999",
    "-1e-999",
    ".nan",
    ".inf",
    "99999999999999999999999999",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "4294967296",
    "-1",
    "\"kind\": ",
    "kind: ",
    "apiVersion: v1\n",
    "metadata: {name: x}\n",
    "namespace: ",
    "name: ",
    "items: ",
    "List",
    "Namespace",
    "Deployment",
    "StatefulSet",
    "Secret",
    "HorizontalPodAutoscaler",
    "argocd.argoproj.io/sync-wave: ",
    "\"-9223372036854775808\"",
    "Prune=false",
    "PruneLast=true",
    "kustomize.toolkit.fluxcd.io/prune: disabled",
    "/spec/replicas",
    "/~1",
    "/~2",
    "/*/",
    "HEAD~",
    "envs/",
    "envs/prod/x.yaml: ",
    "app/",
    "steps: ",
    "at: ",
    "do: ",
    "revert",
    "commit: HEAD~999999",
    "stringData: ",
    "data: ",
    "jsonPointers: ",
    "ignore: ",
    "layout: branches\n",
    "trigger: edge\n",
    "mode: push\n",
];

/// What a link's text is made of, and what damages it.
pub const LINK_TOKENS: &[&str] = &[
    "#",
    "v",
    "v1.",
    "v0.",
    "v2.",
    "v4294967296.",
    "v01.",
    ".",
    "=",
    "==",
    "-",
    "_",
    "A",
    "AAAA",
    "____",
    "/",
    "+",
    " ",
    "%20",
    "\n",
    "\u{e9}",
    "\u{0}",
];

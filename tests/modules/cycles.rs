//! The references lifted to edges among the children of each module, and
//! the cycles those edges form.

use super::{Crate, Cycle, Edge, Evidence, Id};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

impl Crate {
    /// Every edge among siblings, in tree order of their parents.
    pub fn edges(&self) -> Vec<Edge> {
        let mut edges: BTreeMap<(Id, Id, Id), Vec<Evidence>> = BTreeMap::new();
        for (a, module) in self.modules.iter().enumerate() {
            for r in &module.refs {
                let Some(abs) = self.absolute(a, &r.path, true, 0) else {
                    continue;
                };
                let b = self.definer(&abs, 0);
                if self.is_ancestor_or_self(a, b) || self.is_ancestor_or_self(b, a) {
                    continue;
                }
                // The children of the lowest common ancestor that hold a and b.
                let depth = |m: Id| self.modules[m].path.len();
                let up = |m: Id| self.modules[m].parent.unwrap();
                let (mut x, mut y) = (a, b);
                while depth(x) > depth(y) {
                    x = up(x);
                }
                while depth(y) > depth(x) {
                    y = up(y);
                }
                while up(x) != up(y) {
                    (x, y) = (up(x), up(y));
                }
                let file = module.file.strip_prefix(&self.base).unwrap_or(&module.file);
                edges
                    .entry((self.modules[x].parent.unwrap(), x, y))
                    .or_default()
                    .push(Evidence {
                        file: file.display().to_string(),
                        line: r.line,
                        path: r.path.join("::"),
                    });
            }
        }
        edges
            .into_iter()
            .map(|((p, x, y), mut evidence)| {
                evidence.sort();
                evidence.dedup();
                Edge {
                    parent: self.name(p),
                    from: self.name(x),
                    to: self.name(y),
                    evidence,
                }
            })
            .collect()
    }

    /// The cycles among the children of every module: for each edge that is
    /// on a cycle, one shortest cycle through it (each cycle once).
    pub fn cycles(&self) -> Vec<Cycle> {
        let edges = self.edges();
        let mut by_parent: BTreeMap<&str, BTreeMap<&str, BTreeMap<&str, &Edge>>> = BTreeMap::new();
        for e in &edges {
            by_parent
                .entry(&e.parent)
                .or_default()
                .entry(&e.from)
                .or_default()
                .insert(&e.to, e);
        }
        let mut cycles = Vec::new();
        for (parent, graph) in &by_parent {
            let mut seen = BTreeSet::new();
            let mut found = Vec::new();
            for (from, tos) in graph {
                for to in tos.keys() {
                    let Some(back) = shortest_path(graph, to, from) else {
                        continue;
                    };
                    let mut chain: Vec<&str> = vec![from];
                    chain.extend(&back[..back.len() - 1]);
                    let start = (0..chain.len()).min_by_key(|&i| chain[i]).unwrap();
                    chain.rotate_left(start);
                    if seen.insert(chain.clone()) {
                        found.push(chain);
                    }
                }
            }
            found.sort_by_key(|c| c.len());
            for chain in found {
                let hops: Vec<&Edge> = (0..chain.len())
                    .map(|i| graph[chain[i]][chain[(i + 1) % chain.len()]])
                    .collect();
                cycles.push(Cycle {
                    parent: parent.to_string(),
                    chain: chain.iter().map(|s| s.to_string()).collect(),
                    edges: hops.iter().map(|e| e.evidence[0].clone()).collect(),
                    more: hops.iter().map(|e| e.evidence.len() - 1).collect(),
                });
            }
        }
        cycles
    }
}

/// A shortest path from `from` to `to`, both included.
fn shortest_path<'a>(
    graph: &BTreeMap<&'a str, BTreeMap<&'a str, &Edge>>,
    from: &'a str,
    to: &'a str,
) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut path = vec![to];
            while let Some(&prev) = came_from.get(path.last().unwrap()) {
                path.push(prev);
            }
            path.reverse();
            return Some(path);
        }
        for &next in graph.get(at).into_iter().flat_map(|t| t.keys()) {
            if next != from && !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

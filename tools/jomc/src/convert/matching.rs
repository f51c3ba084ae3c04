//! A maximum matching of a general graph (the triangles that may pair into quads, each with
//! at most three neighbours): Edmonds' blossom algorithm, as in Gabow's O(V^3) form, grown
//! from a given matching by augmenting paths found breadth first (the shortest, so that
//! little of the given matching changes).
//!
//! Kept local for large sparse graphs (a 65,535-triangle model): a search only touches the
//! nodes it reaches (its state is stamped with the search's number instead of cleared for
//! the whole graph), a blossom relabels only the nodes of the search, and a search that
//! finds no augmenting path leaves its nodes out of every later search (Edmonds: no
//! augmenting path ever passes through such a "Hungarian" tree again), so the searches that
//! fail cost about one pass over the graph in all.
//!
//! Our own rather than `petgraph::algo::maximum_matching` (Gabow's algorithm too): that one
//! starts every search with arrays over the whole graph, O(V) each time before any work,
//! and would bring a graph crate into the converter for one function.

/// No node: a free node's mate, a root's parent.
pub const NONE: u32 = u32::MAX;

/// An undirected graph in compressed adjacency lists.
pub struct Graph {
    /// The neighbours of node `i` are `neighbours[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    neighbours: Vec<u32>,
}

impl Graph {
    /// The graph of `nodes` nodes and `edges` (each once, either way round).
    pub fn new(nodes: usize, edges: &[(u32, u32)]) -> Self {
        let mut degree = vec![0u32; nodes + 1];
        for &(a, b) in edges {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let mut start = Vec::with_capacity(nodes + 1);
        let mut sum = 0;
        for d in &degree[..nodes] {
            start.push(sum);
            sum += d;
        }
        start.push(sum);
        let mut fill = start.clone();
        let mut neighbours = vec![0; sum as usize];
        for &(a, b) in edges {
            neighbours[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            neighbours[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        Self { start, neighbours }
    }

    fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    fn of(&self, node: u32) -> &[u32] {
        let i = node as usize;
        &self.neighbours[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Grows the matching `mate` (each node's mate or [`NONE`], symmetric, along edges of
/// `graph`) into a maximum matching of `graph`.
pub fn maximum_matching(graph: &Graph, mate: &mut [u32]) {
    let mut search = Search::new(graph.nodes());
    for root in 0..graph.nodes() as u32 {
        if mate[root as usize] != NONE || search.dead[root as usize] || graph.of(root).is_empty() {
            continue;
        }
        match search.find(graph, mate, root) {
            Some(end) => search.augment(mate, end),
            None => {
                for &node in &search.touched {
                    search.dead[node as usize] = true;
                }
            }
        }
    }
}

/// The state of the breadth-first searches for augmenting paths.
struct Search {
    /// The search that last touched each node: its other fields are valid only then.
    stamp: Vec<u32>,
    current: u32,
    /// Even (outer) nodes of the search's alternating tree.
    outer: Vec<bool>,
    /// The parent of each odd (inner) node: the outer node it was reached from.
    parent: Vec<u32>,
    /// The base of the blossom each node is in (itself when none).
    base: Vec<u32>,
    /// Marks of the lowest common ancestor walk and of a blossom's nodes, by number.
    walk: Vec<u32>,
    walks: u32,
    blossom: Vec<u32>,
    blossoms: u32,
    /// Nodes in a Hungarian tree: on no augmenting path, now or after any augmentation.
    dead: Vec<bool>,
    /// The nodes the current search touched, and its queue of outer nodes.
    touched: Vec<u32>,
    queue: std::collections::VecDeque<u32>,
}

impl Search {
    fn new(nodes: usize) -> Self {
        Self {
            stamp: vec![0; nodes],
            current: 0,
            outer: vec![false; nodes],
            parent: vec![NONE; nodes],
            base: vec![0; nodes],
            walk: vec![0; nodes],
            walks: 0,
            blossom: vec![0; nodes],
            blossoms: 0,
            dead: vec![false; nodes],
            touched: Vec::new(),
            queue: std::collections::VecDeque::new(),
        }
    }

    /// Makes `node`'s state valid for the current search (not in the tree).
    fn touch(&mut self, node: u32) {
        let i = node as usize;
        if self.stamp[i] != self.current {
            self.stamp[i] = self.current;
            self.outer[i] = false;
            self.parent[i] = NONE;
            self.base[i] = node;
            self.touched.push(node);
        }
    }

    fn base_of(&self, node: u32) -> u32 {
        match self.stamp[node as usize] == self.current {
            true => self.base[node as usize],
            false => node,
        }
    }

    fn parent_of(&self, node: u32) -> u32 {
        match self.stamp[node as usize] == self.current {
            true => self.parent[node as usize],
            false => NONE,
        }
    }

    /// A free node at the end of an augmenting path from the free node `root` (the path is
    /// then read back through the parents and mates), or `None`.
    fn find(&mut self, graph: &Graph, mate: &[u32], root: u32) -> Option<u32> {
        self.current += 1;
        self.touched.clear();
        self.queue.clear();
        self.touch(root);
        self.outer[root as usize] = true;
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for &to in graph.of(v) {
                if self.dead[to as usize] || mate[v as usize] == to {
                    continue;
                }
                if self.base_of(v) == self.base_of(to) {
                    continue;
                }
                let mate_to = mate[to as usize];
                if to == root || (mate_to != NONE && self.parent_of(mate_to) != NONE) {
                    // `to` is outer: an odd cycle, contracted into a blossom.
                    self.contract(mate, v, to);
                } else if self.parent_of(to) == NONE {
                    self.touch(to);
                    self.parent[to as usize] = v;
                    if mate_to == NONE {
                        return Some(to);
                    }
                    self.touch(mate_to);
                    self.outer[mate_to as usize] = true;
                    self.queue.push_back(mate_to);
                }
            }
        }
        None
    }

    /// The base of the lowest common ancestor of outer nodes `a` and `b` in the tree.
    fn lowest_common_ancestor(&mut self, mate: &[u32], mut a: u32, mut b: u32) -> u32 {
        self.walks += 1;
        loop {
            a = self.base_of(a);
            self.walk[a as usize] = self.walks;
            if mate[a as usize] == NONE {
                break;
            }
            a = self.parent_of(mate[a as usize]);
        }
        loop {
            b = self.base_of(b);
            if self.walk[b as usize] == self.walks {
                return b;
            }
            b = self.parent_of(mate[b as usize]);
        }
    }

    /// Marks the blossom's nodes on the path from `v` down to the base `base`, setting the
    /// parents of its outer nodes so that the path can be read back through the cycle.
    fn mark_path(&mut self, mate: &[u32], mut v: u32, base: u32, mut child: u32) {
        while self.base_of(v) != base {
            let m = mate[v as usize];
            let (base_v, base_m) = (self.base_of(v), self.base_of(m));
            self.blossom[base_v as usize] = self.blossoms;
            self.blossom[base_m as usize] = self.blossoms;
            self.parent[v as usize] = child;
            child = m;
            v = self.parent_of(m);
        }
    }

    /// Contracts the odd cycle closed by the edge `v`-`to` (both outer) into one blossom:
    /// its inner nodes become outer and join the queue.
    fn contract(&mut self, mate: &[u32], v: u32, to: u32) {
        let base = self.lowest_common_ancestor(mate, v, to);
        self.blossoms += 1;
        self.mark_path(mate, v, base, to);
        self.mark_path(mate, to, base, v);
        for k in 0..self.touched.len() {
            let node = self.touched[k];
            if self.blossom[self.base[node as usize] as usize] == self.blossoms {
                self.base[node as usize] = base;
                if !self.outer[node as usize] {
                    self.outer[node as usize] = true;
                    self.queue.push_back(node);
                }
            }
        }
    }

    /// Flips the augmenting path that ends at the free node `end`.
    fn augment(&mut self, mate: &mut [u32], end: u32) {
        let mut v = end;
        while v != NONE {
            let parent = self.parent[v as usize];
            let next = mate[parent as usize];
            mate[v as usize] = parent;
            mate[parent as usize] = v;
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size of a maximum matching, by trying every subset of edges (small graphs).
    fn brute_force(nodes: usize, edges: &[(u32, u32)]) -> usize {
        let mut best = 0;
        for subset in 0u32..1 << edges.len() {
            let mut used = vec![false; nodes];
            let mut size = 0;
            let fits = edges.iter().enumerate().all(|(i, &(a, b))| {
                if subset & (1 << i) == 0 {
                    return true;
                }
                if used[a as usize] || used[b as usize] {
                    return false;
                }
                used[a as usize] = true;
                used[b as usize] = true;
                size += 1;
                true
            });
            if fits {
                best = best.max(size);
            }
        }
        best
    }

    /// Checks that `mate` is a matching of the graph and returns its size.
    fn size(nodes: usize, edges: &[(u32, u32)], mate: &[u32]) -> usize {
        let mut size = 0;
        for node in 0..nodes {
            let m = mate[node];
            if m == NONE {
                continue;
            }
            assert_eq!(mate[m as usize], node as u32, "symmetric");
            let (a, b) = (node as u32, m);
            assert!(
                edges.contains(&(a, b)) || edges.contains(&(b, a)),
                "{a}-{b} is an edge"
            );
            size += 1;
        }
        size / 2
    }

    fn matched(nodes: usize, edges: &[(u32, u32)], greedy_first: bool) -> Vec<u32> {
        let mut mate = vec![NONE; nodes];
        if greedy_first {
            for &(a, b) in edges {
                if mate[a as usize] == NONE && mate[b as usize] == NONE {
                    mate[a as usize] = b;
                    mate[b as usize] = a;
                }
            }
        }
        maximum_matching(&Graph::new(nodes, edges), &mut mate);
        mate
    }

    #[test]
    fn a_blossom_is_contracted_to_reach_the_free_node_behind_it() {
        // A pentagon 0-1-2-3-4 with 0-1 and 2-3 matched first, 4 free, and 5 free behind 1:
        // from 4, the path to 5 goes round the odd cycle (a blossom): 4=0-1... is blocked
        // the short way and found through the contracted cycle, 4-3=2-1=... to 5.
        let edges = [(0, 1), (2, 3), (1, 2), (3, 4), (4, 0), (1, 5)];
        let mate = matched(6, &edges, true);
        assert_eq!(size(6, &edges, &mate), 3);
    }

    #[test]
    fn random_graphs_match_as_many_as_brute_force() {
        // A small deterministic generator (xorshift): graphs of 4 to 12 nodes, up to 3
        // neighbours each as triangles have, and some denser.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for round in 0..3000 {
            let nodes = 4 + next(9) as usize;
            let limit = if round % 3 == 0 { nodes } else { 3 };
            let mut degree = vec![0; nodes];
            let mut edges = Vec::new();
            for _ in 0..next(18) {
                let (a, b) = (next(nodes as u64) as u32, next(nodes as u64) as u32);
                let key = (a.min(b), a.max(b));
                if a == b
                    || degree[a as usize] >= limit
                    || degree[b as usize] >= limit
                    || edges.contains(&key)
                    || edges.len() >= 16
                {
                    continue;
                }
                degree[a as usize] += 1;
                degree[b as usize] += 1;
                edges.push(key);
            }
            let best = brute_force(nodes, &edges);
            for greedy_first in [false, true] {
                let mate = matched(nodes, &edges, greedy_first);
                assert_eq!(size(nodes, &edges, &mate), best, "{edges:?}");
            }
        }
    }
}

//! A plain exhaustive solver, independent of the table generator: it uses only the rules
//! library (`legal_moves` and `play`) and shares no code with `kharbaga_tablebase`.
//!
//! Value of a position for the side to move, with any infinite play a draw (repetition is a
//! draw, no no-progress rule): `Win(d)`, `Loss(d)` or `Draw`, `d` the number of plies to the
//! end of the game under perfect play (the winner hurries, the loser holds out). A position
//! with no legal move (no pieces included) is `Loss(0)`.
//!
//! Method. Captures and promotions are irreversible, so the positions with the same material
//! (black men, black Mullahs, white men, white Mullahs) that are reachable from a root form a
//! closed region whose only exits are captures and promotions. `solve` works region by
//! region:
//!
//! 1. explore by forward move generation every position of the root's material reachable from
//!    the root without leaving that material; a child that is already in the memo, or that
//!    has another material, is a leaf and is not explored;
//! 2. solve every leaf not yet in the memo (recursively, each one a root of its own region);
//! 3. build the explicit graph (parents of every node, from the forward edges kept in step 1,
//!    or by generating the moves again when a region has more than 2^26 edges), and solve
//!    it by the textbook retrograde method: the nodes without moves are losses in 0, leaves
//!    carry their memoised value; by increasing distance, a node with a child lost in `d` is
//!    won in `d + 1` (the first such child found is the nearest), a node whose children are
//!    all won is lost in `1 + ` the largest of their distances (its counter of unresolved
//!    children reaches zero when the farthest one is processed); what is never resolved is a
//!    draw;
//! 4. store the value of every node of the region in the memo.
//!
//! Splitting by material only orders the work (and bounds each explicit graph); every value is
//! still the plain retrograde solution of an explicit game graph whose leaves have known
//! values.
//!
//! Budget: `solve` gives up (`None`) when one call would explore more than `max_nodes`
//! positions. `remember_failures` makes such failures cheap to meet again (for sampling), and
//! `set_memo_limit` bounds the memo. `for_each_solved` lists every memoised position with its
//! value: every node of every solved graph, all of them exact and comparable with a table.
//!
//! Positions are stored as packed keys: 64 bits for positions of at most 11 pieces
//! (occupancy, then colour and Mullah bits of each occupied point in order, then the side to
//! move), 128 bits otherwise.

#![allow(dead_code)]

use kharbaga::{Bitboard, Color, Move, Position, Rules, Setup};

/// The value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Solved {
    /// The side to move wins in this many plies (odd).
    Win(u32),
    /// The side to move loses in this many plies (even).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

// Stored values: 0 unknown, 1 draw, d + 2 decided in d plies (d odd: win, d even: loss; the
// parity always tells, since a loss in 0 is even and each ply of distance flips the side).
const UNKNOWN: u32 = 0;
const DRAW: u32 = 1;

fn decode_value(v: u32) -> Solved {
    match v {
        UNKNOWN => panic!("unknown value"),
        DRAW => Solved::Draw,
        _ => {
            let d = v - 2;
            if d % 2 == 1 {
                Solved::Win(d)
            } else {
                Solved::Loss(d)
            }
        }
    }
}

/// Packed position keys.
trait Key: Copy + Eq + std::fmt::Debug {
    /// Never the key of a position.
    const EMPTY: Self;
    fn encode(pos: &Position) -> Self;
    fn decode(self) -> Position;
    fn hash(self) -> u64;
    /// The 64-bit key of the same position, if it has at most 11 pieces (else `EMPTY`).
    fn decode_to_small(self) -> u64;
}

fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

fn make_position(black: u64, white: u64, mullahs: u64, turn: Color) -> Position {
    Position::from_setup(Setup {
        black: Bitboard(black),
        white: Bitboard(white),
        mullahs: Bitboard(mullahs),
        turn,
    })
    .expect("a stored key is a legal position")
}

const MASK41: u64 = (1u64 << 41) - 1;
/// Positions with at most this many pieces have 64-bit keys.
const SMALL_PIECES: u32 = 11;

impl Key for u64 {
    // 41 occupied points: never a position of at most 11 pieces.
    const EMPTY: u64 = u64::MAX;

    fn encode(pos: &Position) -> u64 {
        let occ = pos.occupied().0;
        let white = pos.pieces(Color::White).0;
        let mullahs = pos.mullahs(Color::Black).0 | pos.mullahs(Color::White).0;
        debug_assert!(occ.count_ones() <= SMALL_PIECES);
        let mut key = occ;
        let mut rest = occ;
        let mut shift = 41;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            if white & bit != 0 {
                key |= 1 << shift;
            }
            if mullahs & bit != 0 {
                key |= 1 << (shift + 1);
            }
            shift += 2;
            rest &= rest - 1;
        }
        if pos.turn() == Color::White {
            key |= 1 << 63;
        }
        key
    }

    fn decode(self) -> Position {
        let occ = self & MASK41;
        let (mut white, mut mullahs) = (0u64, 0u64);
        let mut rest = occ;
        let mut shift = 41;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            if self >> shift & 1 != 0 {
                white |= bit;
            }
            if self >> (shift + 1) & 1 != 0 {
                mullahs |= bit;
            }
            shift += 2;
            rest &= rest - 1;
        }
        let turn = if self >> 63 != 0 {
            Color::White
        } else {
            Color::Black
        };
        make_position(occ & !white, white, mullahs, turn)
    }

    #[inline]
    fn hash(self) -> u64 {
        mix(self)
    }

    fn decode_to_small(self) -> u64 {
        self
    }
}

impl Key for u128 {
    // Bits 124.. are always zero in a key.
    const EMPTY: u128 = u128::MAX;

    fn encode(pos: &Position) -> u128 {
        let black = pos.pieces(Color::Black).0 as u128;
        let white = pos.pieces(Color::White).0 as u128;
        let mullahs = (pos.mullahs(Color::Black).0 | pos.mullahs(Color::White).0) as u128;
        let turn = (pos.turn() == Color::White) as u128;
        black | white << 41 | mullahs << 82 | turn << 123
    }

    fn decode(self) -> Position {
        let part = |shift: u32| (self >> shift) as u64 & MASK41;
        let turn = if self >> 123 & 1 != 0 {
            Color::White
        } else {
            Color::Black
        };
        make_position(part(0), part(41), part(82), turn)
    }

    #[inline]
    fn hash(self) -> u64 {
        mix(self as u64 ^ mix((self >> 64) as u64))
    }

    fn decode_to_small(self) -> u64 {
        u64::EMPTY // larger positions are not remembered
    }
}

/// An open-addressing hash table from keys to `u32` (linear probing, at most 3/4 full).
struct Table<K: Key> {
    keys: Vec<K>,
    vals: Vec<u32>,
    len: usize,
    shift: u32,
}

impl<K: Key> Table<K> {
    fn new() -> Table<K> {
        Table::with_bits(10)
    }

    fn with_bits(bits: u32) -> Table<K> {
        Table {
            keys: vec![K::EMPTY; 1 << bits],
            vals: vec![0; 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn bytes(&self) -> usize {
        self.keys.len() * (std::mem::size_of::<K>() + 4)
    }

    #[inline]
    fn slot(&self, key: K) -> (usize, bool) {
        let mask = self.keys.len() - 1;
        let mut i = (key.hash() >> self.shift) as usize;
        loop {
            let k = self.keys[i];
            if k == key {
                return (i, true);
            }
            if k == K::EMPTY {
                return (i, false);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, key: K) -> Option<u32> {
        match self.slot(key) {
            (i, true) => Some(self.vals[i]),
            _ => None,
        }
    }

    /// Inserts or overwrites.
    fn insert(&mut self, key: K, val: u32) {
        if (self.len + 1) * 4 > self.keys.len() * 3 {
            self.grow();
        }
        let (i, found) = self.slot(key);
        if !found {
            self.keys[i] = key;
            self.len += 1;
        }
        self.vals[i] = val;
    }

    fn grow(&mut self) {
        let bits = 64 - self.shift + 1;
        let old = std::mem::replace(self, Table::with_bits(bits));
        for (k, v) in old.keys.into_iter().zip(old.vals) {
            if k != K::EMPTY {
                let (i, _) = self.slot(k);
                self.keys[i] = k;
                self.vals[i] = v;
                self.len += 1;
            }
        }
    }
}

/// Material signature: piece counts by colour and kind.
fn material(pos: &Position) -> u32 {
    let c = |b: Bitboard| b.count();
    c(pos.men(Color::Black))
        | c(pos.mullahs(Color::Black)) << 8
        | c(pos.men(Color::White)) << 16
        | c(pos.mullahs(Color::White)) << 24
}

/// Which memo a key type lives in.
trait Memo: Key {
    fn memo(solver: &mut Solver) -> &mut Table<Self>;
}

impl Memo for u64 {
    fn memo(solver: &mut Solver) -> &mut Table<u64> {
        &mut solver.memo_small
    }
}

impl Memo for u128 {
    fn memo(solver: &mut Solver) -> &mut Table<u128> {
        &mut solver.memo_large
    }
}

/// Statistics of a solver since it was made.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions whose moves were generated (explored graph nodes, all regions).
    pub explored: u64,
    /// Regions (explicit graphs) solved.
    pub regions: u64,
    /// The largest region, in nodes (leaves included).
    pub largest_region: usize,
    /// Calls to `solve` that gave up because a region exceeded the budget.
    pub over_budget: u64,
}

/// The exhaustive solver, with a memo of every position it has solved.
pub struct Solver {
    rules: Rules,
    max_nodes: usize,
    memo_small: Table<u64>,
    memo_large: Table<u128>,
    stats: Stats,
    moves: Vec<Move>,
    /// Positions explored by the current call of `solve`.
    call_explored: usize,
    memo_limit: usize,
    failed_limit: usize,
    /// With `remember_failures`: the positions explored in calls that went over budget.
    failed: Option<Table<u64>>,
}

/// Forward edges are kept from the exploration (instead of generating the moves again) while
/// a region has at most this many.
const KEEP_EDGES: usize = 1 << 26;

impl Solver {
    /// A solver under `rules` that explores at most `max_nodes` positions in one call of
    /// `solve`.
    pub fn new(rules: Rules, max_nodes: usize) -> Solver {
        Solver {
            rules,
            max_nodes,
            memo_small: Table::new(),
            memo_large: Table::new(),
            stats: Stats::default(),
            moves: Vec::new(),
            call_explored: 0,
            memo_limit: usize::MAX,
            failed_limit: 0,
            failed: None,
        }
    }

    /// The value of `pos` for the side to move; `None` if more than `max_nodes` positions
    /// would have to be explored (the graph reachable from `pos`, where positions already
    /// memoised are leaves and are not explored again). The graph is explored and solved one
    /// material region at a time; regions solved before giving up stay memoised (their values
    /// are exact).
    pub fn solve(&mut self, pos: &Position) -> Option<Solved> {
        if self.memo_len() > self.memo_limit {
            self.evict();
        }
        self.call_explored = 0;
        let v = self.solve_value(pos);
        if v.is_none() {
            self.stats.over_budget += 1;
        }
        v.map(decode_value)
    }

    /// The memoised value of `pos`, if it has been solved.
    pub fn lookup(&self, pos: &Position) -> Option<Solved> {
        if pos.occupied().count() <= SMALL_PIECES {
            self.memo_small.get(u64::encode(pos))
        } else {
            self.memo_large.get(u128::encode(pos))
        }
        .map(decode_value)
    }

    /// The node budget of a call.
    pub fn max_nodes(&self) -> usize {
        self.max_nodes
    }

    /// Changes the node budget of later calls.
    pub fn set_max_nodes(&mut self, max_nodes: usize) {
        self.max_nodes = max_nodes;
    }

    /// Makes calls that went over budget cheap to repeat: every position explored in such a
    /// call is remembered (up to `limit` of them, then the set starts again empty), and a later
    /// call that meets one of them gives up at once. `solve` may then return `None` for a
    /// position whose own graph is within budget (one that was met while exploring a larger
    /// graph); values returned are unaffected. For sampling many positions.
    pub fn remember_failures(&mut self, limit: usize) {
        self.failed = Some(Table::new());
        self.failed_limit = limit;
    }

    fn is_failed(&self, pos: &Position) -> bool {
        match &self.failed {
            Some(t) if pos.occupied().count() <= SMALL_PIECES => t.get(u64::encode(pos)).is_some(),
            _ => false,
        }
    }

    fn mark_failed<K: Key>(&mut self, nodes: &[K], inner: &[bool]) {
        let limit = self.failed_limit;
        if let Some(t) = &mut self.failed {
            for (k, _) in nodes.iter().zip(inner).filter(|(_, &i)| i) {
                if t.len() >= limit {
                    *t = Table::new();
                }
                let small = k.decode_to_small();
                if small != u64::EMPTY {
                    t.insert(small, 0);
                }
            }
        }
    }

    /// Bounds the memo: when a call of `solve` starts with more than `limit` positions
    /// memoised, the positions with the most pieces are forgotten (all of them, then the next
    /// piece count, until at most `limit / 2` remain).
    pub fn set_memo_limit(&mut self, limit: usize) {
        self.memo_limit = limit;
    }

    fn evict(&mut self) {
        while self.memo_len() > self.memo_limit / 2 {
            if self.memo_large.len() > 0 {
                self.memo_large = Table::new();
                continue;
            }
            let most = self
                .memo_small
                .keys
                .iter()
                .filter(|&&k| k != u64::EMPTY)
                .map(|k| (k & MASK41).count_ones())
                .max();
            let Some(most) = most else { break };
            let old = std::mem::replace(&mut self.memo_small, Table::new());
            for (k, v) in old.keys.into_iter().zip(old.vals) {
                if k != u64::EMPTY && (k & MASK41).count_ones() < most {
                    self.memo_small.insert(k, v);
                }
            }
        }
    }

    /// Calls `f` on every memoised position with its value (each position solved so far,
    /// every node of every graph solved: all of them can be compared with a table).
    pub fn for_each_solved(&self, mut f: impl FnMut(Position, Solved)) {
        for (k, &v) in self.memo_small.keys.iter().zip(&self.memo_small.vals) {
            if *k != u64::EMPTY {
                f(k.decode(), decode_value(v));
            }
        }
        for (k, &v) in self.memo_large.keys.iter().zip(&self.memo_large.vals) {
            if *k != u128::EMPTY {
                f(k.decode(), decode_value(v));
            }
        }
    }

    /// Counters since the solver was made.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Positions in the memo.
    pub fn memo_len(&self) -> usize {
        self.memo_small.len() + self.memo_large.len()
    }

    /// Bytes held by the memo.
    pub fn memo_bytes(&self) -> usize {
        self.memo_small.bytes() + self.memo_large.bytes()
    }

    fn solve_value(&mut self, pos: &Position) -> Option<u32> {
        if pos.occupied().count() <= SMALL_PIECES {
            self.solve_region::<u64>(pos)
        } else {
            self.solve_region::<u128>(pos)
        }
    }

    fn memo_get(&self, pos: &Position) -> Option<u32> {
        if pos.occupied().count() <= SMALL_PIECES {
            self.memo_small.get(u64::encode(pos))
        } else {
            self.memo_large.get(u128::encode(pos))
        }
    }

    /// The distinct children of `pos`, as positions, into `out`.
    fn children(&mut self, pos: &Position, out: &mut Vec<Position>) {
        let mut moves = std::mem::take(&mut self.moves);
        pos.legal_moves_into(&self.rules, &mut moves);
        out.clear();
        out.extend(moves.iter().map(|mv| pos.play(mv)));
        self.moves = moves;
    }

    fn solve_region<K: Memo>(&mut self, root: &Position) -> Option<u32> {
        if let Some(v) = K::memo(self).get(K::encode(root)) {
            return Some(v);
        }
        let root_material = material(root);
        if self.is_failed(root) {
            return None;
        }

        // Step 1: the region of the root's material; other children are leaves.
        // nodes[i]: key of node i; inner[i]: whether it is explored (not a leaf);
        // value[i]: known value of a leaf (UNKNOWN for a leaf to solve and for inner nodes);
        // out_degree[i], in_degree[i]: distinct children, distinct parents.
        let mut ids: Table<K> = Table::new();
        let mut nodes: Vec<K> = Vec::new();
        let mut inner: Vec<bool> = Vec::new();
        let mut value: Vec<u32> = Vec::new();
        let mut out_degree: Vec<u32> = Vec::new();
        let mut in_degree: Vec<u32> = Vec::new();
        let mut to_solve: Vec<u32> = Vec::new();

        let root_key = K::encode(root);
        ids.insert(root_key, 0);
        nodes.push(root_key);
        inner.push(true);
        value.push(UNKNOWN);
        out_degree.push(0);
        in_degree.push(0);

        let mut kids: Vec<Position> = Vec::new();
        let mut kid_ids: Vec<u32> = Vec::new();
        // Forward edges of the inner nodes in order, while there are not too many.
        let mut forward: Option<Vec<u32>> = Some(Vec::new());
        let mut i = 0;
        while i < nodes.len() {
            if inner[i] {
                self.stats.explored += 1;
                let pos = nodes[i].decode();
                self.children(&pos, &mut kids);
                kid_ids.clear();
                for child in &kids {
                    let key = K::encode(child);
                    let id = match ids.get(key) {
                        Some(id) => id,
                        None => {
                            let id = nodes.len() as u32;
                            let known = self.memo_get(child);
                            let is_inner = known.is_none() && material(child) == root_material;
                            if is_inner && self.is_failed(child) {
                                self.mark_failed(&nodes, &inner);
                                return None;
                            }
                            if known.is_none() && !is_inner {
                                to_solve.push(id);
                            }
                            ids.insert(key, id);
                            nodes.push(key);
                            inner.push(is_inner);
                            value.push(known.unwrap_or(UNKNOWN));
                            out_degree.push(0);
                            in_degree.push(0);
                            id
                        }
                    };
                    kid_ids.push(id);
                }
                kid_ids.sort_unstable();
                kid_ids.dedup();
                out_degree[i] = kid_ids.len() as u32;
                for &c in &kid_ids {
                    in_degree[c as usize] += 1;
                }
                if let Some(f) = &mut forward {
                    if f.len() + kid_ids.len() > KEEP_EDGES {
                        forward = None;
                    } else {
                        f.extend_from_slice(&kid_ids);
                    }
                }
                self.call_explored += 1;
                if self.call_explored > self.max_nodes {
                    self.mark_failed(&nodes, &inner);
                    return None;
                }
            }
            i += 1;
        }
        let n = nodes.len();
        self.stats.regions += 1;
        self.stats.largest_region = self.stats.largest_region.max(n);

        // Step 2: the leaves of other materials not yet solved.
        for &id in &to_solve {
            let pos = nodes[id as usize].decode();
            match self.solve_value(&pos) {
                Some(v) => value[id as usize] = v,
                None => {
                    self.mark_failed(&nodes, &inner);
                    return None;
                }
            }
        }

        // Step 3: parents of every node (CSR), by generating the moves again.
        let mut start: Vec<usize> = Vec::with_capacity(n + 1);
        let mut total = 0usize;
        for &d in &in_degree {
            start.push(total);
            total += d as usize;
        }
        start.push(total);
        drop(in_degree);
        let mut fill: Vec<usize> = start[..n].to_vec();
        let mut parents: Vec<u32> = vec![0; total];
        let mut next_edge = 0;
        for i in 0..n {
            if !inner[i] {
                continue;
            }
            let edges = match &forward {
                Some(f) => {
                    next_edge += out_degree[i] as usize;
                    &f[next_edge - out_degree[i] as usize..next_edge]
                }
                None => {
                    let pos = nodes[i].decode();
                    self.children(&pos, &mut kids);
                    kid_ids.clear();
                    kid_ids.extend(
                        kids.iter()
                            .map(|c| ids.get(K::encode(c)).expect("child explored")),
                    );
                    kid_ids.sort_unstable();
                    kid_ids.dedup();
                    assert_eq!(kid_ids.len() as u32, out_degree[i]);
                    &kid_ids[..]
                }
            };
            for &c in edges {
                parents[fill[c as usize]] = i as u32;
                fill[c as usize] += 1;
            }
        }
        drop(forward);
        drop(fill);
        drop(ids);

        // Retrograde solution by increasing distance. levels[d]: nodes decided in d plies.
        let mut levels: Vec<Vec<u32>> = Vec::new();
        let put = |levels: &mut Vec<Vec<u32>>, d: usize, id: u32| {
            if levels.len() <= d {
                levels.resize_with(d + 1, Vec::new);
            }
            levels[d].push(id);
        };
        for i in 0..n {
            if inner[i] {
                if out_degree[i] == 0 {
                    value[i] = 2; // loss in 0
                    put(&mut levels, 0, i as u32);
                }
            } else if value[i] >= 2 {
                put(&mut levels, (value[i] - 2) as usize, i as u32);
            }
        }
        let mut unresolved = out_degree;
        let mut d = 0;
        while d < levels.len() {
            let level = std::mem::take(&mut levels[d]);
            for &x in &level {
                for &p in &parents[start[x as usize]..start[x as usize + 1]] {
                    let p = p as usize;
                    if value[p] != UNKNOWN {
                        continue;
                    }
                    if d % 2 == 0 {
                        // x is lost in d: its parent wins in d + 1 (the nearest such child,
                        // since distances are processed in increasing order).
                        value[p] = d as u32 + 3;
                        put(&mut levels, d + 1, p as u32);
                    } else {
                        // x is won in d: the parent is lost when all its children are won,
                        // in 1 + the distance of the last (farthest) one.
                        unresolved[p] -= 1;
                        if unresolved[p] == 0 {
                            value[p] = d as u32 + 3;
                            put(&mut levels, d + 1, p as u32);
                        }
                    }
                }
            }
            d += 1;
        }

        // Step 4: memoise the region (never resolved: draw).
        let memo = K::memo(self);
        for i in 0..n {
            if inner[i] {
                if value[i] == UNKNOWN {
                    value[i] = DRAW;
                }
                memo.insert(nodes[i], value[i]);
            }
        }
        Some(value[0])
    }
}

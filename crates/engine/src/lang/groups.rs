//! Groups: pieces of one owner joined along the form's lines, their
//! liberties (the empty cells next to them), the captures a placement
//! makes, suicide, and the ko rule's memory of earlier boards.

use crate::base::effect::Effect;
use crate::base::geometry::{Board, Cell};
use crate::base::state::{cell_key, GameState, KindId, PlayerId};
use crate::lang::masks::Adj;
use crate::rules::variant::forms::{Groups, Ko};
use crate::Engine;

const NONE: u16 = u16::MAX;
/// A cell's holder in [`GroupMap::who`]: nobody, or a cell nothing may
/// enter (blocking terrain).
const EMPTY: u8 = u8::MAX;
const BLOCKED: u8 = u8::MAX - 1;

/// Every group on the board, found once for a listing: each cell's holder
/// and group, and each group's owner, number of liberties and key (the
/// XOR of its cells' keys).
pub(super) struct GroupMap<'a> {
    who: Vec<u8>,
    group: Vec<u16>,
    libs: Vec<u16>,
    keys: Vec<u64>,
    owner: Vec<PlayerId>,
    /// Each cell's neighbours along the lines.
    adj: &'a Adj,
    /// The state's earlier boards are sorted (superko alone).
    pub(super) sorted: bool,
}

impl<'a> GroupMap<'a> {
    pub(super) fn new(s: &GameState, b: &Board, adj: &'a Adj) -> GroupMap<'a> {
        let n = b.cell_count();
        let mut who = vec![EMPTY; n];
        for (c, slot) in s.board().iter().enumerate() {
            match slot {
                Some(id) => who[c] = s.pieces[*id as usize].owner,
                None if s.terrain()[c] & b.blocking != 0 => who[c] = BLOCKED,
                None => {}
            }
        }
        let mut m = GroupMap {
            group: vec![NONE; n],
            libs: Vec::with_capacity(n / 2),
            keys: Vec::with_capacity(n / 2),
            owner: Vec::with_capacity(n / 2),
            adj,
            sorted: false,
            who,
        };
        // The last group that counted each empty cell as a liberty.
        let mut counted = vec![NONE; n];
        let mut stack: Vec<Cell> = Vec::with_capacity(n);
        for start in 0..n {
            let owner = m.who[start];
            if owner >= BLOCKED || m.group[start] != NONE {
                continue;
            }
            let g = m.libs.len() as u16;
            let (mut libs, mut key) = (0u16, 0u64);
            m.group[start] = g;
            stack.push(start as Cell);
            while let Some(c) = stack.pop() {
                if let Some(id) = s.board()[c as usize] {
                    key ^= cell_key(c, s.pieces[id as usize].kind, owner);
                }
                for &nb in adj.of(c) {
                    let Some(&h) = m.who.get(nb as usize) else {
                        continue;
                    };
                    if h == EMPTY {
                        if counted[nb as usize] != g {
                            counted[nb as usize] = g;
                            libs += 1;
                        }
                    } else if h == owner && m.group[nb as usize] == NONE {
                        m.group[nb as usize] = g;
                        stack.push(nb);
                    }
                }
            }
            m.libs.push(libs);
            m.keys.push(key);
            m.owner.push(owner);
        }
        m
    }

    /// The board's key after player `p` places a `kind` on the empty
    /// cell `c` (with its captures), or `None` when the placement is
    /// illegal: suicide where it is not allowed, or a board the ko rule
    /// forbids.
    pub(super) fn placement_key(
        &self,
        s: &GameState,
        c: Cell,
        kind: KindId,
        p: PlayerId,
        rule: &Groups,
    ) -> Option<u64> {
        let mut seen = [NONE; 8];
        let mut n = 0;
        let mut key = s.board_key() ^ cell_key(c, kind, p);
        let mut breathes = false;
        let mut captures = false;
        let mut own = 0u64;
        for &nb in self.adj.of(c) {
            let Some(&h) = self.who.get(nb as usize) else {
                continue;
            };
            if h >= BLOCKED {
                breathes |= h == EMPTY;
                continue;
            }
            let g = self.group[nb as usize];
            if seen[..n].contains(&g) {
                continue;
            }
            if n < seen.len() {
                seen[n] = g;
                n += 1;
            }
            let gi = g as usize;
            if self.owner[gi] == p {
                own ^= self.keys[gi];
                breathes |= self.libs[gi] > 1;
            } else if self.libs[gi] == 1 {
                captures = true;
                key ^= self.keys[gi];
            }
        }
        ko_verdict(
            s,
            rule,
            self.sorted,
            c,
            kind,
            p,
            key,
            breathes || captures,
            own,
        )
    }
}

/// The end of a placement's judgement, once its neighbours are known:
/// `key` is the board's key after the placement and its captures, `lives`
/// whether the placed piece keeps a liberty (or captured), `own` the key
/// of the mover's groups next to it. `None` when the placement is
/// suicide where that is not allowed, or brings back a board the ko rule
/// forbids; else the board's key after it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn ko_verdict(
    s: &GameState,
    rule: &Groups,
    sorted: bool,
    c: Cell,
    kind: KindId,
    p: PlayerId,
    mut key: u64,
    lives: bool,
    own: u64,
) -> Option<u64> {
    if !lives {
        if !rule.suicide {
            return None;
        }
        // The placed piece and its group go.
        key ^= cell_key(c, kind, p) ^ own;
    }
    match rule.ko {
        Ko::None => {}
        Ko::Simple => {
            if s.boards.len() >= 2 && s.boards[s.boards.len() - 2] == key {
                return None;
            }
        }
        Ko::Superko => {
            // Kept sorted (see `remember_board`).
            let seen = match sorted {
                true => s.boards.binary_search(&key).is_ok(),
                false => s.boards.contains(&key),
            };
            if key == s.board_key() || seen {
                return None;
            }
        }
    }
    Some(key)
}

/// Buffers for judging one placement by walking only the groups next to
/// it ([`GroupWalk::placement_key`]), kept from judgement to judgement.
#[derive(Clone, Debug, Default)]
pub struct GroupWalk {
    /// Per cell, the walk that last reached it.
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<Cell>,
}

impl GroupWalk {
    /// [`GroupMap::placement_key`] for the one cell `c`, without the map:
    /// each group next to `c` is walked only until it shows a liberty
    /// other than `c` (a group that shows none is walked whole, and its
    /// key is then known). The same answer, for a fraction of the work
    /// when one placement is judged (a random draw).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn placement_key(
        &mut self,
        s: &GameState,
        b: &Board,
        adj: &Adj,
        sorted: bool,
        c: Cell,
        kind: KindId,
        p: PlayerId,
        rule: &Groups,
    ) -> Option<u64> {
        let n = b.cell_count();
        if self.mark.len() != n || self.stamp > u32::MAX - 16 {
            self.mark = vec![0; n];
            self.stamp = 0;
        }
        let base = self.stamp + 1;
        let mut key = s.board_key() ^ cell_key(c, kind, p);
        let (mut breathes, mut captures, mut own) = (false, false, 0u64);
        for &nb in adj.of(c) {
            let Some(slot) = s.board().get(nb as usize) else {
                continue;
            };
            let Some(id) = *slot else {
                breathes |= s.terrain()[nb as usize] & b.blocking == 0;
                continue;
            };
            if self.mark[nb as usize] >= base {
                // Its group was walked from another neighbour.
                continue;
            }
            let owner = s.pieces[id as usize].owner;
            let (free, gkey) = self.walk(s, b, adj, nb, c, owner);
            if owner == p {
                breathes |= free;
                own ^= gkey;
            } else if !free {
                captures = true;
                key ^= gkey;
            }
        }
        ko_verdict(s, rule, sorted, c, kind, p, key, breathes || captures, own)
    }

    /// Walks the group of `owner` on `start`: whether it has a liberty
    /// other than `c` (the walk stops at the first), and the key of the
    /// cells walked (the whole group's when it has none).
    fn walk(
        &mut self,
        s: &GameState,
        b: &Board,
        adj: &Adj,
        start: Cell,
        c: Cell,
        owner: PlayerId,
    ) -> (bool, u64) {
        self.stamp += 1;
        let stamp = self.stamp;
        self.stack.clear();
        self.stack.push(start);
        self.mark[start as usize] = stamp;
        let mut key = 0u64;
        while let Some(x) = self.stack.pop() {
            if let Some(id) = s.board()[x as usize] {
                key ^= cell_key(x, s.pieces[id as usize].kind, owner);
            }
            for &y in adj.of(x) {
                let Some(slot) = s.board().get(y as usize) else {
                    continue;
                };
                match *slot {
                    None if y != c && s.terrain()[y as usize] & b.blocking == 0 => {
                        return (true, key)
                    }
                    Some(o)
                        if s.pieces[o as usize].owner == owner
                            && self.mark[y as usize] != stamp =>
                    {
                        self.mark[y as usize] = stamp;
                        self.stack.push(y);
                    }
                    _ => {}
                }
            }
        }
        (false, key)
    }
}

impl Engine {
    /// After player `p` placed on `at`: the enemy groups next to it left
    /// without liberties are removed, then its own group if it has none.
    pub(super) fn capture_groups(
        &self,
        s: &mut GameState,
        at: Cell,
        p: PlayerId,
        rule: &Groups,
        effects: &mut Vec<Effect>,
    ) {
        let b = &self.variant.board;
        let adj = self.lang.adj(b, &rule.lines);
        let adj = &*adj;
        // Cells already looked at in this action's walks (by walk number).
        let mut mark = vec![0u8; b.cell_count()];
        let mut walk = 0u8;
        let mut group = Vec::new();
        for &nb in adj.of(at) {
            if s.piece_at(nb)
                .is_some_and(|id| s.pieces[id as usize].owner != p)
            {
                walk += 1;
                self.remove_if_breathless(s, nb, adj, &mut mark, walk, &mut group, effects);
            }
        }
        walk += 1;
        self.remove_if_breathless(s, at, adj, &mut mark, walk, &mut group, effects);
    }

    /// Removes the group on `start` when it has no liberty.
    #[allow(clippy::too_many_arguments)]
    fn remove_if_breathless(
        &self,
        s: &mut GameState,
        start: Cell,
        adj: &Adj,
        mark: &mut [u8],
        walk: u8,
        group: &mut Vec<Cell>,
        effects: &mut Vec<Effect>,
    ) {
        let b = &self.variant.board;
        let Some(id) = s.piece_at(start) else { return };
        let owner = s.pieces[id as usize].owner;
        group.clear();
        group.push(start);
        mark[start as usize] = walk;
        let mut i = 0;
        while i < group.len() {
            let c = group[i];
            i += 1;
            for &nb in adj.of(c) {
                let Some(&seen) = mark.get(nb as usize) else {
                    continue;
                };
                match s.board()[nb as usize] {
                    None if s.terrain()[nb as usize] & b.blocking == 0 => return,
                    Some(o) if s.pieces[o as usize].owner == owner && seen != walk => {
                        mark[nb as usize] = walk;
                        group.push(nb)
                    }
                    _ => {}
                }
            }
        }
        for &c in group.iter() {
            if let Some(id) = s.piece_at(c) {
                s.capture(id);
                effects.push(Effect::Captured {
                    piece: id,
                    cell: Some(c),
                });
            }
        }
    }

    /// After an action, the board joins the ko rule's memory (the start
    /// first).
    pub(crate) fn remember_board(&self, s: &mut GameState, before: u64) {
        if self.lang.keeps_boards && s.pending.is_empty() {
            if s.boards.is_empty() {
                s.boards.push(before);
            }
            let key = s.board_key();
            if self.lang.boards_in_order {
                s.boards.push(key);
            } else if let Err(at) = s.boards.binary_search(&key) {
                // Positional superko asks only whether a board was seen:
                // kept sorted, each once.
                s.boards.insert(at, key);
            }
        }
    }
}

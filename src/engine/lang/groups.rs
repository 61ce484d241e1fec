//! Groups: pieces of one owner joined along the form's lines, their
//! liberties (the empty cells next to them), the captures a placement
//! makes, suicide, and the ko rule's memory of earlier boards.

use crate::base::effect::Effect;
use crate::base::geometry::{Board, Cell};
use crate::base::state::{cell_key, GameState, KindId, PlayerId};
use crate::engine::Engine;
use crate::rules::variant::forms::{Groups, Ko};

const NONE: u16 = u16::MAX;

/// Every group on the board, found once for a listing: each occupied
/// cell's group, and each group's owner, number of liberties and key (the
/// XOR of its cells' keys).
pub(super) struct GroupMap {
    group: Vec<u16>,
    libs: Vec<u16>,
    keys: Vec<u64>,
    owner: Vec<PlayerId>,
    /// Each cell's neighbours along the lines.
    lines: Vec<(i8, i8)>,
}

impl GroupMap {
    pub(super) fn new(s: &GameState, b: &Board, lines: &[(i8, i8)]) -> GroupMap {
        let n = b.cell_count();
        let mut m = GroupMap {
            group: vec![NONE; n],
            libs: Vec::new(),
            keys: Vec::new(),
            owner: Vec::new(),
            lines: lines.to_vec(),
        };
        // The last group that counted each empty cell as a liberty.
        let mut counted = vec![NONE; n];
        let mut stack = Vec::new();
        for start in 0..n {
            let Some(id) = s.board[start] else { continue };
            if m.group[start] != NONE {
                continue;
            }
            let g = m.libs.len() as u16;
            let owner = s.pieces[id as usize].owner;
            let (mut libs, mut key) = (0u16, 0u64);
            m.group[start] = g;
            stack.push(start as Cell);
            while let Some(c) = stack.pop() {
                let p = &s.pieces[s.board[c as usize].unwrap_or(id) as usize];
                key ^= cell_key(c, p.kind, p.owner);
                for &d in lines {
                    let Some(nb) = b.offset(c, d) else { continue };
                    match s.board[nb as usize] {
                        None => {
                            if counted[nb as usize] != g && s.terrain[nb as usize] & b.blocking == 0
                            {
                                counted[nb as usize] = g;
                                libs += 1;
                            }
                        }
                        Some(o) if s.pieces[o as usize].owner == owner => {
                            if m.group[nb as usize] == NONE {
                                m.group[nb as usize] = g;
                                stack.push(nb);
                            }
                        }
                        Some(_) => {}
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
        b: &Board,
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
        for &d in &self.lines {
            let Some(nb) = b.offset(c, d) else { continue };
            let g = self.group[nb as usize];
            if g == NONE {
                breathes |=
                    s.board[nb as usize].is_none() && s.terrain[nb as usize] & b.blocking == 0;
                continue;
            }
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
        if !breathes && !captures {
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
                if key == s.board_key() || s.boards.contains(&key) {
                    return None;
                }
            }
        }
        Some(key)
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
        for &d in &rule.lines {
            if let Some(nb) = b.offset(at, d) {
                if s.piece_at(nb)
                    .is_some_and(|id| s.pieces[id as usize].owner != p)
                {
                    self.remove_if_breathless(s, nb, &rule.lines, effects);
                }
            }
        }
        self.remove_if_breathless(s, at, &rule.lines, effects);
    }

    /// Removes the group on `start` when it has no liberty.
    fn remove_if_breathless(
        &self,
        s: &mut GameState,
        start: Cell,
        lines: &[(i8, i8)],
        effects: &mut Vec<Effect>,
    ) {
        let b = &self.variant.board;
        let Some(id) = s.piece_at(start) else { return };
        let owner = s.pieces[id as usize].owner;
        let mut group = vec![start];
        let mut i = 0;
        while i < group.len() {
            let c = group[i];
            i += 1;
            for &d in lines {
                let Some(nb) = b.offset(c, d) else { continue };
                match s.board[nb as usize] {
                    None if s.terrain[nb as usize] & b.blocking == 0 => return,
                    Some(o) if s.pieces[o as usize].owner == owner && !group.contains(&nb) => {
                        group.push(nb)
                    }
                    _ => {}
                }
            }
        }
        for c in group {
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
    pub(in crate::engine) fn remember_board(&self, s: &mut GameState, before: u64) {
        if self.lang.keeps_boards && s.pending.is_empty() {
            if s.boards.is_empty() {
                s.boards.push(before);
            }
            s.boards.push(s.board_key());
        }
    }
}

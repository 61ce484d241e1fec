//! Copying a game state into another's buffers: `Clone::clone_from` for
//! [`GameState`] and [`Container`] reuses the target's allocations, so a
//! search that keeps one spare state per level copies a position without
//! allocating (a derived `clone_from` would allocate a fresh state and
//! drop the old one).
//!
//! Changes when the state gains a field (the destructuring below makes
//! that a compile error here until the field is copied).

use super::{Container, GameState};

impl Clone for Container {
    fn clone(&self) -> Self {
        Container {
            name: self.name.clone(),
            owner: self.owner,
            pieces: self.pieces.clone(),
            items: self.items.clone(),
        }
    }

    #[inline]
    fn clone_from(&mut self, src: &Self) {
        let Container {
            name,
            owner,
            pieces,
            items,
        } = src;
        self.name.clone_from(name);
        self.owner = *owner;
        self.pieces.clone_from(pieces);
        self.items.clone_from(items);
    }
}

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState {
            pieces: self.pieces.clone(),
            piece_attrs: self.piece_attrs.clone(),
            board: self.board.clone(),
            terrain: self.terrain.clone(),
            containers: self.containers.clone(),
            counters: self.counters.clone(),
            players: self.players,
            to_move: self.to_move,
            eliminated: self.eliminated,
            ply: self.ply,
            pending: self.pending.clone(),
            shuttles: self.shuttles.clone(),
            positions: self.positions.clone(),
            boards: self.boards.clone(),
            outcome: self.outcome.clone(),
            seed: self.seed,
            rng: self.rng.clone(),
            marks: self.marks.clone(),
            cell_counters: self.cell_counters.clone(),
            dice: self.dice,
            stacks: self.stacks.clone(),
            hold_turn: self.hold_turn,
            steps: self.steps.clone(),
            windows: self.windows.clone(),
            phase: self.phase,
            phase_turns: self.phase_turns,
            first_player: self.first_player,
            touched: self.touched,
            board_key: self.board_key,
            occupied: self.occupied,
            owned: self.owned.clone(),
            kinds_at: self.kinds_at.clone(),
            kinds_untracked: self.kinds_untracked,
            terrained: self.terrained,
        }
    }

    #[inline]
    fn clone_from(&mut self, src: &Self) {
        let GameState {
            pieces,
            piece_attrs,
            board,
            terrain,
            containers,
            counters,
            players,
            to_move,
            eliminated,
            ply,
            pending,
            shuttles,
            positions,
            boards,
            outcome,
            seed,
            rng,
            marks,
            cell_counters,
            dice,
            stacks,
            hold_turn,
            steps,
            windows,
            phase,
            phase_turns,
            first_player,
            touched,
            board_key,
            occupied,
            owned,
            kinds_at,
            kinds_untracked,
            terrained,
        } = src;
        self.pieces.clone_from(pieces);
        self.piece_attrs.clone_from(piece_attrs);
        self.board.clone_from(board);
        self.terrain.clone_from(terrain);
        self.containers.clone_from(containers);
        self.counters.clone_from(counters);
        self.players = *players;
        self.to_move = *to_move;
        self.eliminated = *eliminated;
        self.ply = *ply;
        self.pending.clone_from(pending);
        self.shuttles.clone_from(shuttles);
        self.positions.clone_from(positions);
        self.boards.clone_from(boards);
        self.outcome.clone_from(outcome);
        self.seed = *seed;
        self.rng.clone_from(rng);
        self.marks.clone_from(marks);
        self.cell_counters.clone_from(cell_counters);
        self.dice = *dice;
        self.stacks.clone_from(stacks);
        self.hold_turn = *hold_turn;
        self.steps.clone_from(steps);
        self.windows.clone_from(windows);
        self.phase = *phase;
        self.phase_turns = *phase_turns;
        self.first_player = *first_player;
        self.touched = *touched;
        self.board_key = *board_key;
        self.occupied = *occupied;
        self.owned.clone_from(owned);
        self.kinds_at.clone_from(kinds_at);
        self.kinds_untracked = *kinds_untracked;
        self.terrained = *terrained;
    }
}

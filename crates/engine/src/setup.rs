//! Setting up a game: the empty board, the army, setup zones and setup
//! strings, random setups and the new game itself.

use crate::rules::lua::RuleHook;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::base::geometry::Cell;
use crate::base::state::{script_setup_rng, setup_rng, GameState, KindId, Outcome, PlayerId};
use crate::turn::Next;
use crate::Engine;

/// How the reason of a game that ended because its scripted setup failed
/// begins (the error follows).
pub const SETUP_FAILED: &str = "the setup failed: ";
/// How the reason of a game that ended at its start because a rule hook
/// failed begins (the error follows).
pub const RULES_FAILED: &str = "the rules failed: ";

/// The error of a game that ended because its rules failed, if it did.
pub fn rules_failure(s: &GameState) -> Option<&str> {
    let reason = &s.outcome.as_ref()?.reason;
    reason
        .strip_prefix(RULES_FAILED)
        .or_else(|| reason.strip_prefix(SETUP_FAILED))
}

impl Engine {
    /// The declared containers of items (`containers:`), filled: one
    /// shared, or one per player; a stack is shuffled with the game's
    /// generator.
    fn fill_containers(&self, s: &mut GameState) {
        use rand::seq::SliceRandom;
        for d in &self.variant.containers {
            let owners: Vec<Option<PlayerId>> = if d.per_player {
                (0..s.players).map(Some).collect()
            } else {
                vec![None]
            };
            for owner in owners {
                let k = s.container_id(&d.name, owner) as usize;
                let items = &mut s.containers[k].items;
                for (face, n) in &d.items {
                    items.extend((0..*n).map(|_| crate::base::state::Item {
                        value: face.clone(),
                        known_by: 0,
                    }));
                }
                if d.order == crate::rules::variant::flow::Order::Stack {
                    items.shuffle(&mut s.rng);
                }
            }
        }
    }

    /// Who plays first (`turn.first`: a seat, or drawn with the game's
    /// generator), and in the first phase's order.
    fn choose_first(&self, s: &mut GameState) {
        use rand::Rng;
        s.first_player = match self.variant.first {
            crate::rules::variant::flow::First::Seat(p) => p.min(s.players.saturating_sub(1)),
            crate::rules::variant::flow::First::Random => s.rng.random_range(0..s.players.max(1)),
        };
        s.to_move = self.phase_first(s);
    }

    /// An empty board (terrain laid, no pieces) with red to move.
    pub fn empty_state(&self, seed: u64) -> GameState {
        let v = &self.variant;
        let mut s = GameState::empty(v.board.cell_count(), v.players.len() as u8, seed);
        s.set_terrain(v.board.terrain.clone());
        if v.stacks > 1 {
            s.enable_stacks();
        }
        s.counters.number(&self.counters.names);
        // Only the royal pieces are looked up by kind.
        s.track_kinds(self.has_royal);
        s
    }

    /// The board's cell counters at the start (`board.counts`).
    pub(super) fn lay_counts(&self, s: &mut GameState) {
        for (name, c, v) in &self.variant.board.counts {
            s.set_cell_counter(name, *c, *v);
        }
    }

    /// The army of a player: kind ids in declaration order, each `count` times.
    pub fn army(&self) -> Vec<KindId> {
        let mut army = Vec::new();
        for (i, k) in self.variant.kinds.iter().enumerate() {
            for _ in 0..k.count {
                army.push(i as KindId);
            }
        }
        army
    }

    /// Cells of a player's setup zone, ordered from the front row (nearest the
    /// middle of the board) to the back, each row left to right as that player
    /// sees the board.
    pub fn setup_cells(&self, player: PlayerId) -> Vec<Cell> {
        let board = &self.variant.board;
        let zone = &self.variant.setup_zones[player as usize];
        let mid = (board.ranks as f64 - 1.0) / 2.0;
        let mean =
            zone.iter().map(|&c| board.coords(c).1 as f64).sum::<f64>() / zone.len().max(1) as f64;
        let faces_up = mean <= mid;
        let mut cells: Vec<Cell> = zone
            .iter()
            .copied()
            .filter(|&c| board.terrain[c as usize] & board.blocking == 0)
            .collect();
        cells.sort_by_key(|&c| {
            let (f, r) = board.coords(c);
            if faces_up {
                (-r, f)
            } else {
                (r, -f)
            }
        });
        cells
    }

    /// Parses a setup string (one kind code per cell of the setup zone, in
    /// [`Engine::setup_cells`] order; `A`, `.` or `_` for an empty cell).
    /// `back_first` reads the rows from the back row instead.
    pub fn parse_setup(
        &self,
        player: PlayerId,
        text: &str,
        back_first: bool,
    ) -> Result<Vec<(Cell, KindId)>, String> {
        let cells = self.setup_cells(player);
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != cells.len() {
            return Err(format!(
                "a setup for {} needs {} letters (one per cell of the setup zone), found {}",
                self.player_name(player),
                cells.len(),
                chars.len()
            ));
        }
        let files = self.variant.board.files as usize;
        let rows = chars.len() / files.max(1);
        let mut out = Vec::new();
        for (i, ch) in chars.iter().enumerate() {
            let idx = if back_first && rows * files == chars.len() {
                let (r, f) = (i / files, i % files);
                (rows - 1 - r) * files + f
            } else {
                i
            };
            if matches!(ch, 'A' | '.' | '_') {
                continue;
            }
            let kind = self
                .variant
                .kinds
                .iter()
                .position(|k| k.code == Some(*ch))
                .ok_or_else(|| format!("setup letter `{ch}` is no piece kind's code"))?;
            out.push((cells[idx], kind as KindId));
        }
        let mut diffs = Vec::new();
        for (k, kind) in self.variant.kinds.iter().enumerate() {
            let got = out.iter().filter(|x| x.1 as usize == k).count();
            if got != kind.count as usize {
                diffs.push(format!("{got} {} instead of {}", kind.display, kind.count));
            }
        }
        if !diffs.is_empty() {
            return Err(format!(
                "the setup for {} does not hold the army of this variant: {}",
                self.player_name(player),
                diffs.join(", ")
            ));
        }
        Ok(out)
    }

    /// A random legal setup for a player, drawn from `rng`.
    pub fn random_setup(&self, player: PlayerId, rng: &mut ChaCha8Rng) -> Vec<(Cell, KindId)> {
        let mut cells = self.setup_cells(player);
        cells.shuffle(rng);
        let mut army = self.army();
        army.shuffle(rng);
        cells.into_iter().zip(army).collect()
    }

    /// A new game: each player's setup given, or random from the seed.
    /// Pieces are numbered in board order, so an id tells nothing of a kind.
    ///
    /// Hidden setups and public chance come from separate streams of the
    /// seed's generator: each player's random setup from its own
    /// ([`setup_rng`]), a script's `rules.setup` from another
    /// ([`script_setup_rng`]), and the state's `rng` (public chance during
    /// play) starts fresh on stream 0. What one stream shows (a player's own
    /// army, a chance draw everyone sees) tells nothing of the others.
    pub fn new_game(&self, seed: u64, setups: &[Option<Vec<(Cell, KindId)>>]) -> GameState {
        if let Some(s) = self.start_line_state(seed) {
            return self.open_start_line(s, seed);
        }
        let mut state = self.empty_state(seed);
        self.lay_counts(&mut state);
        let mut placed: Vec<(Cell, KindId, PlayerId)> = Vec::new();
        for p in 0..self.variant.players.len() as PlayerId {
            if self.variant.setup_zones[p as usize].is_empty() {
                continue;
            }
            let setup = match setups.get(p as usize).cloned().flatten() {
                Some(s) => s,
                None => self.random_setup(p, &mut setup_rng(seed, p)),
            };
            placed.extend(setup.into_iter().map(|(c, k)| (c, k, p)));
        }
        placed.sort_by_key(|x| x.0);
        for (c, k, p) in placed {
            // One piece per cell: a board has far fewer cells than ids.
            let _ = state.add_piece(k, p, c, !self.variant.hidden_identities);
        }
        self.fill_containers(&mut state);
        self.choose_first(&mut state);
        if !self.run_setup_hook(&mut state, seed) {
            return state;
        }
        // The first turn's hooks; a first player who cannot move at all
        // meets the no-move rule at once.
        let mut effects = Vec::new();
        let begun = self.begin_turn(&mut state, !self.variant.phases.is_empty(), &mut effects);
        let stuck = begun.and_then(|()| self.has_legal_action(&state).map(|can| !can));
        let turned = stuck.and_then(|stuck| {
            if stuck {
                state.to_move = state.previous_player(state.to_move);
                self.advance_turn(&mut state, Next::Check, &mut Vec::new())?;
            }
            Ok(())
        });
        if let Err(e) = turned {
            state.outcome = Some(Outcome {
                winners: vec![],
                reason: format!("{RULES_FAILED}{e}"),
            });
        }
        state
    }

    /// The position of the variant's `start:` line for this seed, if it
    /// has one (read once at load when no script can make seeds differ).
    fn start_line_state(&self, seed: u64) -> Option<GameState> {
        if let Some(s) = &self.start {
            // Read at load; only the seed differs.
            let mut s = s.clone();
            s.seed = seed;
            s.rng = rand::SeedableRng::seed_from_u64(seed);
            return Some(s);
        }
        // Checked when the variant loaded.
        let mut s = self.parse_fen(self.variant.start.as_ref()?, seed).ok()?;
        self.lay_counts(&mut s);
        Some(s)
    }

    /// A game from a `start:` line opens as any other does: `rules.setup`
    /// runs on the position, then the first turn's hooks
    /// (`rules.on_phase_start`, `rules.on_turn_start`). The line already
    /// rolled the dice and judged a first player who cannot move; the
    /// judging is done again only when a hook ran.
    fn open_start_line(&self, mut state: GameState, seed: u64) -> GameState {
        let phased = !self.variant.phases.is_empty() && self.rules.has(RuleHook::OnPhaseStart);
        let hooked = phased || self.rules.has(RuleHook::OnTurnStart);
        if !self.rules.has(RuleHook::Setup) && !hooked {
            return state;
        }
        if !self.run_setup_hook(&mut state, seed) {
            return state;
        }
        let mut effects = Vec::new();
        let opened = self.turn_start_hooks(&mut state, phased, &mut effects);
        let judged = opened.map_err(|e| e.to_string()).and_then(|()| {
            let mut judged = state.clone();
            self.judge_loaded(&mut judged)?;
            state = judged;
            Ok(())
        });
        if let Err(e) = judged {
            state.outcome = Some(Outcome {
                winners: vec![],
                reason: format!("{RULES_FAILED}{e}"),
            });
        }
        state
    }

    /// Runs `rules.setup`, if the script defines it, with its own stream of
    /// the seed's generator; false when it failed (the game then ended with
    /// the error as its reason).
    fn run_setup_hook(&self, state: &mut GameState, seed: u64) -> bool {
        if !self.rules.has(RuleHook::Setup) {
            return true;
        }
        let mut effects = Vec::new();
        let chance = std::mem::replace(&mut state.rng, script_setup_rng(seed));
        let done = self.rules.setup(state, &self.variant, &mut effects);
        state.rng = chance;
        match done {
            Ok(()) => true,
            Err(e) => {
                state.outcome = Some(Outcome {
                    winners: vec![],
                    reason: format!("{SETUP_FAILED}{e}"),
                });
                false
            }
        }
    }
}

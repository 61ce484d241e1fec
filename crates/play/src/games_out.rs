//! `simulate --games-out`: each game of a run as one JSON line (index,
//! seed, arm and options, seats with their agents and results, winners,
//! ending, length, and the moves when asked), for notebooks and scripts.

use serde::Serialize;

use crate::base::state::PlayerId;
use crate::simulate::{option_sets, pairs_text, Config, GameResult, RunFile};

/// One seat of a game line: who played it and how it ended for them.
#[derive(Debug, Serialize)]
struct SeatLine<'a> {
    player: &'a str,
    agent: &'a str,
    /// `won`, `lost`, or `draw` (a game without winners).
    result: &'static str,
}

/// One line of `--games-out`.
#[derive(Debug, Serialize)]
struct GameLine<'a> {
    variant: &'a str,
    index: u64,
    seed: u64,
    /// The arm's number in the run (0 first) and its options.
    arm: usize,
    options: &'a [String],
    seats: Vec<SeatLine<'a>>,
    winners: Vec<&'a str>,
    ending: &'a str,
    plies: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<&'a [String]>,
}

/// Writes games as JSON lines (`--games-out`), one per game.
pub struct GameLines<W: std::io::Write> {
    out: W,
    variant: String,
    players: Vec<String>,
    agents: Vec<String>,
    /// Each arm's options, `NAME=VALUE`.
    options: Vec<Vec<String>>,
}

impl<W: std::io::Write> GameLines<W> {
    /// Lines for the games of `cfg`'s run (whose variant has `players`).
    pub fn new(out: W, cfg: &Config, players: &[String]) -> Self {
        GameLines {
            out,
            variant: cfg.variant.clone(),
            players: players.to_vec(),
            agents: cfg.seats.iter().map(|s| s.text()).collect(),
            options: option_sets(cfg).iter().map(|o| pairs_text(o)).collect(),
        }
    }

    /// Lines for the games of a run already played (`simulate merge`).
    pub fn of_run(out: W, run: &RunFile) -> Self {
        GameLines {
            out,
            variant: run.variant.clone(),
            players: run.players.clone(),
            agents: run.seats.clone(),
            options: run.arms.iter().map(|a| a.options.clone()).collect(),
        }
    }

    /// Writes game `g` of arm `arm`.
    pub fn write(
        &mut self,
        arm: usize,
        g: &GameResult,
        moves: Option<&[String]>,
    ) -> std::io::Result<()> {
        let name = |p: &PlayerId| self.players.get(*p as usize).map_or("?", String::as_str);
        let line = GameLine {
            variant: &self.variant,
            index: g.index,
            seed: g.seed,
            arm,
            options: self.options.get(arm).map_or(&[], Vec::as_slice),
            seats: self
                .players
                .iter()
                .enumerate()
                .map(|(p, player)| SeatLine {
                    player,
                    agent: self.agents.get(p).map_or("", String::as_str),
                    result: if g.winners.is_empty() {
                        "draw"
                    } else if g.winners.contains(&(p as PlayerId)) {
                        "won"
                    } else {
                        "lost"
                    },
                })
                .collect(),
            winners: g.winners.iter().map(name).collect(),
            ending: &g.ending,
            plies: g.plies,
            moves,
        };
        serde_json::to_writer(&mut self.out, &line)?;
        self.out.write_all(b"\n")
    }

    /// Writes every game of `run`, in index order (arm order within an
    /// index), as a run streams them.
    pub fn write_run(&mut self, run: &RunFile) -> std::io::Result<()> {
        let mut all: Vec<(u64, usize, &GameResult)> = run
            .arms
            .iter()
            .enumerate()
            .flat_map(|(arm, a)| a.games.iter().map(move |g| (g.index, arm, g)))
            .collect();
        all.sort_by_key(|&(index, arm, _)| (index, arm));
        for (_, arm, g) in all {
            self.write(arm, g, None)?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

//! `play`: how a game in the terminal is seated (humans or bots), prompted
//! and shown.

use std::io::Write;

use super::repl::StdinLines;
use crate::base::state::{GameState, PlayerId};
use crate::engine::{Action, Engine};
use crate::front::clock::Clock;
use crate::front::session::parse_pairs;
use crate::play::agent::{Agent, AgentSpec};
use crate::record::view::Viewer;

#[derive(Clone, PartialEq, Eq)]
enum Seat {
    Human,
    Agent(AgentSpec),
}

pub(super) fn play(
    variant: &str,
    seed: u64,
    clock: Option<&str>,
    options: &[String],
    seats: &[String],
) -> Result<(), String> {
    let mut overrides = parse_pairs(options)?;
    let rest = take_players_flag(seats, &mut overrides)?;
    let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
    let n = engine.variant.players.len();
    let kinds = seat_kinds(&engine, &rest)?;
    let humans: Vec<PlayerId> = (0..n as PlayerId)
        .filter(|&p| kinds[p as usize] == Seat::Human)
        .collect();
    let mut state = engine.new_game(seed, &[]);
    let mut agents: Vec<Option<Box<dyn Agent>>> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| match k {
            Seat::Human => None,
            Seat::Agent(spec) => Some(spec.build(seed.wrapping_add(7 + i as u64))),
        })
        .collect();
    let mut input = StdinLines::new();
    let mut last = None;
    let fixed_viewer = match humans.as_slice() {
        [] => Some(Viewer::Omniscient),
        [one] => Some(Viewer::Player(*one)),
        _ => None,
    };
    let mut clock = clock.map(|c| Clock::parse(c, n)).transpose()?;
    while let Some(p) = engine.acting_player(&state) {
        let viewer = fixed_viewer.unwrap_or(Viewer::Player(p));
        if let Some(c) = &mut clock {
            c.start(p);
        }
        let action = if let Some(agent) = agents[p as usize].as_mut() {
            // The agent sees only what its player knows.
            crate::play::agent::agent_action(&engine, agent.as_mut(), &state)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{} has no legal action", engine.player_name(p)))?
        } else {
            print!("{}", engine.render(&engine.view(&state, viewer), last));
            match human_action(&engine, &state, p, &mut input)? {
                Some(a) => a,
                None => return Ok(()),
            }
        };
        if let Some(c) = &mut clock {
            if let Some(flagged) = c.stop() {
                engine.lose_on_time(&mut state, flagged);
                println!("{} ran out of time", engine.player_name(flagged));
                break;
            }
            println!("clock: {}", c.display(&engine.variant.players));
        }
        let text = engine.action_text(&state, &action);
        let events = engine
            .apply(&mut state, &action)
            .map_err(|e| e.to_string())?;
        if let Action::Move { from, to } = action {
            last = Some((from, to));
        }
        println!("{} {}: {}", state.ply, engine.player_name(p), text);
        for l in engine.event_lines(&state, &events, viewer) {
            println!("   {l}");
        }
    }
    print!(
        "{}",
        engine.render(&engine.view(&state, Viewer::Omniscient), last)
    );
    Ok(())
}

/// Takes `--players N` (which lands among the seats after the variant) into
/// the options; returns the other seat flags.
fn take_players_flag(
    seats: &[String],
    overrides: &mut Vec<(String, String)>,
) -> Result<Vec<String>, String> {
    let mut rest = Vec::new();
    let mut it = seats.iter();
    while let Some(flag) = it.next() {
        if flag == "--players" {
            let n = it.next().ok_or("`--players` needs a number")?;
            overrides.push(("players".into(), n.clone()));
        } else if let Some(n) = flag.strip_prefix("--players=") {
            overrides.push(("players".into(), n.to_string()));
        } else {
            rest.push(flag.clone());
        }
    }
    Ok(rest)
}

/// Who plays each seat, from `--PLAYER human|AGENT` flags (default human).
fn seat_kinds(engine: &Engine, flags: &[String]) -> Result<Vec<Seat>, String> {
    let mut kinds = vec![Seat::Human; engine.variant.players.len()];
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let name = flag
            .strip_prefix("--")
            .ok_or_else(|| format!("expected `--PLAYER human|random`, found `{flag}`"))?;
        let (name, value) = match name.split_once('=') {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => (
                name.to_string(),
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("`--{name}` needs human or random"))?,
            ),
        };
        let p = engine.player_id(&name)?;
        kinds[p as usize] = match value.as_str() {
            "human" => Seat::Human,
            other => Seat::Agent(AgentSpec::parse(other).map_err(|e| format!("{e}; or human"))?),
        };
    }
    Ok(kinds)
}

/// Asks player `p` for a legal action until one comes; `None` when the
/// player leaves (`quit`, `resign`, or the end of the input).
fn human_action(
    engine: &Engine,
    state: &GameState,
    p: PlayerId,
    input: &mut StdinLines,
) -> Result<Option<Action>, String> {
    loop {
        print!("{}> ", engine.player_name(p));
        std::io::stdout().flush().ok();
        let Some(line) = input.next_line()? else {
            println!();
            return Ok(None);
        };
        let line = line.trim();
        if line == "quit" || line == "resign" {
            println!("{} leaves the game", engine.player_name(p));
            return Ok(None);
        }
        if line == "actions" {
            let t: Vec<String> = engine
                .try_legal_actions(state)
                .map_err(|e| e.to_string())?
                .iter()
                .map(|a| engine.action_text(state, a))
                .collect();
            println!("{}", t.join(" "));
            continue;
        }
        match engine.parse_action(state, line) {
            Ok(a) if engine.legal_actions(state).contains(&a) => return Ok(Some(a)),
            Ok(a) => println!("illegal: {}", engine.explain_illegal(state, &a)),
            Err(e) => println!("{e}  (type `actions` for the legal ones)"),
        }
    }
}

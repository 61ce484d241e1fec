//! `play`: how a game in the terminal is seated (humans or bots), prompted
//! and shown.

use crate::record::view::Views;
use std::io::Write;

use super::repl::StdinLines;
use crate::base::state::{GameState, PlayerId};
use crate::clock::Clock;
use crate::engine::{Action, Engine};
use crate::play::agent::{Agent, AgentSpec};
use crate::record::view::Viewer;
use crate::session::parse_pairs;

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
    let mut late = LateFlags {
        seed,
        clock: clock.map(str::to_string),
    };
    let rest = take_late_flags(seats, &mut overrides, &mut late)?;
    let (seed, clock) = (late.seed, late.clock.as_deref());
    let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
    let n = engine.variant.players.len();
    let kinds = seat_kinds(&engine, &rest)?;
    let humans: Vec<PlayerId> = (0..n as PlayerId)
        .filter(|&p| kinds[p as usize] == Seat::Human)
        .collect();
    let mut input = StdinLines::new();
    let Some(setups) = super::play_setup::human_setups(&engine, &humans, &mut input)? else {
        return Ok(());
    };
    let mut state = engine.new_game(seed, &setups);
    let mut agents: Vec<Option<Box<dyn Agent>>> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| match k {
            Seat::Human => None,
            Seat::Agent(spec) => Some(spec.build(seed.wrapping_add(7 + i as u64))),
        })
        .collect();
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
            print!("{}", board(&engine, &state, viewer, last));
            match human_action(&engine, &state, p, clock.as_ref(), &mut input)? {
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
        // Another player's hidden answer to a choice shows as `(choice)`.
        let text = Views::new(&engine).action_text_for(&state, &action, viewer);
        let events = engine
            .apply(&mut state, &action)
            .map_err(|e| e.to_string())?;
        if let Action::Move { from, to } = action {
            last = Some((from, to));
        }
        println!("{} {}: {}", state.ply, engine.player_name(p), text);
        for l in Views::new(&engine).event_lines(&state, &events, viewer) {
            println!("   {l}");
        }
    }
    print!("{}", board(&engine, &state, Viewer::Omniscient, last));
    Ok(())
}

/// The board as `viewer` sees it, then the captured pile and the other
/// containers the picture does not already list (as the REPL's `show`).
fn board(engine: &Engine, state: &GameState, viewer: Viewer, last: Option<(u16, u16)>) -> String {
    let mut out = Views::new(engine).render(&Views::new(engine).view(state, viewer), last);
    for line in Views::new(engine).captured_summary(state, viewer) {
        let key = line.split(':').next().unwrap_or_default();
        if !out.contains(&format!("  {key}:")) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// `play`'s own flags written after a seat flag (`--red human --clock 15m`):
/// clap hands everything after the first seat to the seats.
struct LateFlags {
    seed: u64,
    clock: Option<String>,
}

/// Takes `play`'s own flags that landed among the seats (`--players N`,
/// `--clock C`, `--seed N`, `-o NAME=VALUE`, each also as `--flag=value`)
/// into the options and `late`; returns the seat flags.
fn take_late_flags(
    seats: &[String],
    overrides: &mut Vec<(String, String)>,
    late: &mut LateFlags,
) -> Result<Vec<String>, String> {
    let mut rest = Vec::new();
    let mut it = seats.iter();
    while let Some(flag) = it.next() {
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v.to_string())),
            _ => (flag.as_str(), None),
        };
        if !matches!(name, "--players" | "--clock" | "--seed" | "-o" | "--option") {
            rest.push(flag.clone());
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .cloned()
                .ok_or_else(|| format!("`{name}` needs a value"))?,
        };
        match name {
            "--players" => overrides.push(("players".into(), value)),
            "--clock" => late.clock = Some(value),
            "--seed" => {
                late.seed = value
                    .parse()
                    .map_err(|_| format!("`--seed {value}`: not a whole number"))?
            }
            _ => overrides.extend(parse_pairs(&[value])?),
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
    clock: Option<&Clock>,
    input: &mut StdinLines,
) -> Result<Option<Action>, String> {
    loop {
        // A pending choice says what is asked, of whom, and the options.
        let view = Views::new(engine).view(state, Viewer::Player(p));
        match &view.pending {
            Some(c) => print!(
                "{}> ",
                crate::base::limits::escape_controls(&crate::record::view::choice_prompt(
                    &engine.variant.words,
                    c
                ))
            ),
            None => print!(
                "{}> ",
                crate::base::limits::escape_controls(engine.player_name(p))
            ),
        }
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
        if line == "help" || line == "?" {
            println!(
                "type an action to play it (`actions` lists the legal ones), `board` to see the board again, `clock` for the time left, or `quit`"
            );
            continue;
        }
        if line == "board" {
            print!("{}", board(engine, state, Viewer::Player(p), None));
            continue;
        }
        if line == "clock" {
            match clock {
                Some(c) => println!("clock: {}", c.display(&engine.variant.players)),
                None => println!(
                    "no clock in this game (start it with `--clock 15m` or `--clock 15m+5s`)"
                ),
            }
            continue;
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

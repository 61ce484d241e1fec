//! `check`: how problems found in variant files are reported, including
//! the rule errors that only show when the rules run.

use crate::rules::lua::RuleHook;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::base::limits::escape_controls;
use crate::engine::setup::rules_failure;
use crate::engine::Engine;
use crate::rules::variant::Value;
use crate::session::parse_pairs;

/// Random games `check` plays under the variant's options as given.
const GAMES: u64 = 3;
/// Their length at most, in plies: enough to reach the rules that fire
/// mid-game (strikes, promotions, rescues), short enough to stay quick.
const PLIES: u32 = 300;

/// Checks each variant; with `notes`, also prints advice that is no
/// problem (what a variant without `rules.evaluate` leaves to the bots).
pub(super) fn check(variants: &[String], options: &[String], notes: bool) -> i32 {
    let overrides = match parse_pairs(options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {}", escape_controls(&e));
            return 2;
        }
    };
    let mut bad = false;
    for v in variants {
        match Engine::load(v, &overrides) {
            Ok(e) => match play_some(v, &e, &overrides) {
                Ok(games) => {
                    println!(
                        "{}",
                        escape_controls(&format!(
                            "{}: ok ({}; {games} random games played)",
                            v, e.variant.name
                        ))
                    );
                    if let Some(note) =
                        crate::play::agent::default_evaluation_note(&e).filter(|_| notes)
                    {
                        println!("{v}: {}", escape_controls(&note));
                    }
                    if let Some(note) = unread_strike_note(&e) {
                        println!("{v}: {}", escape_controls(&note));
                    }
                    if let Some(warning) = pieceless_player_warning(&e) {
                        println!("{v}: {}", escape_controls(&warning));
                    }
                }
                Err(m) => {
                    bad = true;
                    println!("{}", escape_controls(&m));
                }
            },
            Err(err) => {
                bad = true;
                for d in err.0 {
                    println!("{}", escape_controls(&d.to_string()));
                }
            }
        }
    }
    i32::from(bad)
}

/// Plays a few short seeded random games under the options as given, and
/// one more with each yes/no option flipped, so that a hook that fails, loops
/// or answers nonsense is found before anyone plays. Returns how many games
/// were played, or the first rule error with the option set and seed that
/// found it.
pub(crate) fn play_some(
    variant: &str,
    engine: &Engine,
    overrides: &[(String, String)],
) -> Result<u64, String> {
    let mut played = 0;
    for seed in 1..=GAMES {
        play_one(engine, seed, &[])?;
        played += 1;
    }
    for o in &engine.variant.options {
        let Value::Bool(b) = o.value else { continue };
        let mut flipped = overrides.to_vec();
        flipped.retain(|(k, _)| k != &o.name);
        flipped.push((o.name.clone(), (!b).to_string()));
        let set = [(o.name.clone(), (!b).to_string())];
        let e = Engine::load(variant, &flipped).map_err(|e| e.to_string())?;
        play_one(&e, 1, &set)?;
        played += 1;
    }
    Ok(played)
}

fn play_one(engine: &Engine, seed: u64, set: &[(String, String)]) -> Result<(), String> {
    let mut s = engine.new_game(seed, &[]);
    let start = s.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let played = engine
        .random_playout(&mut s, &mut rng, PLIES)
        .map(|_| ())
        .map_err(|e| e.to_string())
        // The hooks only bots ask, on the first and the last position.
        .and_then(|()| ask_bot_hooks(engine, &start))
        .and_then(|()| ask_bot_hooks(engine, &s))
        // A game the rules ended by failing (at its start) failed too.
        .and_then(|()| match rules_failure(&s) {
            Some(e) => Err(e.to_string()),
            None => Ok(()),
        });
    played.map_err(|e| {
        let with: Vec<String> = set.iter().map(|(k, v)| format!(" -o {k}={v}")).collect();
        format!(
            "{}: a random game (seed {seed}{}) hit a rule error at ply {}: {e}",
            crate::rules::variant::display_path(&engine.variant.path),
            with.concat(),
            s.ply
        )
    })
}

/// A declared `strike:` table that the script's `rules.strike` overrides,
/// so that the host never reads it: worth saying, since a designer who
/// edits the table would see no change.
fn unread_strike_note(engine: &Engine) -> Option<String> {
    (engine.variant.strike.is_some() && engine.rules.has(RuleHook::Strike)).then(|| {
        "note: the script defines `rules.strike`, so the declared `strike:` table is not read \
         (ask it with `g:declared_strike`, or remove the hook with `rules.strike = nil`)"
            .to_string()
    })
}

/// A player who owns no piece when the game starts while another owns
/// some: legitimate in a game of placing pieces, but most often a slip (a
/// `start:` line written all in one case gives the first player every
/// piece), so a warning, not an error.
fn pieceless_player_warning(engine: &Engine) -> Option<String> {
    let s = engine.new_game(1, &[]);
    let players = &engine.variant.players;
    let owned = |p: usize| s.pieces.iter().filter(|x| x.owner as usize == p).count();
    let counts: Vec<usize> = (0..players.len()).map(owned).collect();
    let (holder, held) = counts.iter().enumerate().max_by_key(|(_, n)| **n)?;
    let empty: Vec<&str> = (0..players.len())
        .filter(|&p| counts[p] == 0)
        .map(|p| players[p].as_str())
        .collect();
    if *held == 0 || empty.is_empty() {
        return None;
    }
    let hint = match engine.variant.start {
        Some(_) => " (in `start:`, upper case letters are the first player's pieces, lower case the second's)",
        None => "",
    };
    Some(format!(
        "warning: {} {} no piece at the start, while {} owns {held}: a slip?{hint}",
        empty.join(" and "),
        if empty.len() == 1 { "owns" } else { "own" },
        players[holder],
    ))
}

/// Asks the hooks that only bots call (`rules.evaluate` for each player,
/// `rules.consistent` for each piece on the board) about a position, so
/// that one that fails is found by `check` too.
fn ask_bot_hooks(engine: &Engine, s: &crate::base::state::GameState) -> Result<(), String> {
    if engine.rules.has(RuleHook::Evaluate) {
        for p in 0..engine.variant.players.len() {
            engine.rules.evaluate(s, &engine.variant, p as _)?;
        }
    }
    if engine.rules.has(RuleHook::Consistent) {
        for id in s.board().iter().flatten() {
            engine.rules.consistent(s, &engine.variant, *id)?;
        }
    }
    Ok(())
}

//! `play`: a human seat arranges its own army before the game, as over the
//! network: a setup string, FILE, FILE:LINE, `random`, or piece by piece.

use std::io::Write;

use super::repl::StdinLines;
use crate::base::geometry::Cell;
use crate::base::state::{KindId, PlayerId};
use crate::engine::Engine;
use crate::placement::{Placement, Step, HELP};
use crate::session::{read_setup_spec, setup_prompt, setup_seats};

/// A player's army by cell (`None`: dealt from the seed).
type Setup = Option<Vec<(Cell, KindId)>>;

/// The armies of the human seats (`None`: dealt from the seed), asked in
/// turn; `None` overall when the input ends.
pub(super) fn human_setups(
    engine: &Engine,
    humans: &[PlayerId],
    input: &mut StdinLines,
) -> Result<Option<Vec<Setup>>, String> {
    let mut setups = vec![None; engine.variant.players.len()];
    for p in setup_seats(engine) {
        if !humans.contains(&p) {
            continue;
        }
        match ask(engine, p, input)? {
            Some(s) => setups[p as usize] = s,
            None => return Ok(None),
        }
    }
    Ok(Some(setups))
}

/// What can be typed at the setup prompt.
fn setup_help(name: &str) -> String {
    format!(
        "{name}: type a setup string (one letter per cell of your setup zone), \
         FILE or FILE:LINE (a file of such strings, one per line), \
         `random` or an empty line (dealt from the seed), `place` to place piece by piece, \
         or `quit`"
    )
}

/// One player's army; `Some(None)`: random.
fn ask(engine: &Engine, p: PlayerId, input: &mut StdinLines) -> Result<Option<Setup>, String> {
    let name = engine.player_name(p).to_string();
    println!(
        "{name}: set up your army: a setup string, FILE, FILE:LINE, `random` (or an empty line), or `place` to place it piece by piece (`quit` leaves)"
    );
    let mut placing: Option<Placement> = None;
    loop {
        print!("{name} setup> ");
        std::io::stdout().flush().ok();
        let Some(line) = input.next_line()? else {
            return Ok(None);
        };
        let line = line.trim();
        if line == "quit" {
            // As at the game's prompt: leave (a setup string is never `quit`).
            return Ok(None);
        }
        let spec = if let Some(pl) = placing.as_mut() {
            match pl.command(line) {
                Ok(Step::Show(text)) => {
                    println!("{text}");
                    continue;
                }
                Ok(Step::Done(text)) => text,
                Err(e) => {
                    println!("{e}");
                    continue;
                }
            }
        } else if line == "help" || line == "?" {
            println!("{}", setup_help(&name));
            continue;
        } else if line == "place" {
            let pl = Placement::new(setup_prompt(engine, p));
            println!("{HELP}\n{}", pl.show());
            placing = Some(pl);
            continue;
        } else if line.is_empty() {
            "random".to_string()
        } else {
            line.to_string()
        };
        match read_setup_spec(engine, p, &spec, false) {
            Ok(s) => return Ok(Some(s)),
            Err(e) => println!("{e}"),
        }
    }
}

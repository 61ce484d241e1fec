//! The REPL's command table: which commands there are, their syntax and
//! help, and how a line is read as a command or an action. What a command
//! does lives with its group (`game`, `inspect`, `records`, `reload`).

use crate::rules::variant::NotationStyle;
use clap::{CommandFactory, Parser};

use super::{Flow, Session};
use crate::record::view::Viewer;

/// The REPL's commands (also used to generate `help`).
#[derive(Parser, Debug)]
#[command(multicall = true, disable_help_subcommand = true)]
pub enum Command {
    /// Load a variant by bundled name or YAML path, and start a new game
    Load {
        variant: String,
        /// Set an option: NAME=VALUE (repeatable)
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Start a new game: random setups from a seed, or setups from text or files
    New {
        /// Seed for random setups and every chance event (default: a secret one from the OS)
        #[arg(long)]
        seed: Option<u64>,
        /// PLAYER=SETUP: a string of piece codes, FILE, FILE:LINE, or `random`
        #[arg(long = "setup")]
        setups: Vec<String>,
        /// Setup strings start at the back row (Gravon's board field); by
        /// default they start at the front row, as everywhere else: each row
        /// left to right as the player sees the board, the front row first
        #[arg(long, conflicts_with = "front_first")]
        back_first: bool,
        /// The default order, front row first (accepted for older scripts)
        #[arg(long, hide = true)]
        front_first: bool,
    },
    /// Show the board as a player, `public`, or `all` (omniscient)
    Show { viewer: Option<String> },
    /// Set the default viewpoint for `show` and events
    #[command(name = "as")]
    ViewAs { viewer: String },
    /// List the legal actions of the position
    Actions,
    /// Play one or more actions (an action alone on a line also plays it)
    Play { actions: Vec<String> },
    /// Play N random legal actions (default 1), drawn from the game's seed
    Random { n: Option<u32> },
    /// Let a bot play for the side to act: AGENT is random, mcts (default),
    /// mcts:ITERATIONS or mcts:MSms; the bot sees only what its player knows
    Bot { agent: Option<String> },
    /// Take back the last N turns (default 1), each with the choices that
    /// completed it; `undo step [N]` takes back N single actions
    Undo {
        /// N, or `step` then N
        #[arg(num_args = 0..=2)]
        args: Vec<String>,
    },
    /// List the actions played so far
    History,
    /// List the variant's options and their values
    Options,
    /// Describe the variant's pieces
    Pieces,
    /// Print the variant's rules in Markdown, generated from its declarations
    Rules,
    /// Set up a position from a FEN-like line (`clxwkxli/pppppppp/8/8/8/8/PPPPPPPP/ILXKWXLC w`)
    Position {
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Print the position as a FEN-like line
    Fen,
    /// Save the current position to a YAML file
    SavePosition { file: String },
    /// Load a position from a YAML file (the history starts there)
    LoadPosition { file: String },
    /// Save the game record (start position and actions) to a YAML file,
    /// or as PGN, SGF or PDN by the file's extension or --format; with
    /// --as, only what that player saw
    SaveRecord {
        file: String,
        #[arg(long = "as")]
        as_viewer: Option<String>,
        /// yaml, pgn, sgf or pdn (default: by the extension, else yaml)
        #[arg(long)]
        format: Option<String>,
    },
    /// Save the board as an SVG picture, as a viewer sees it
    Svg {
        file: String,
        #[arg(long = "as")]
        as_viewer: Option<String>,
    },
    /// Load a game record (YAML, or PGN, SGF, PDN by extension) and replay it
    LoadRecord {
        file: String,
        /// The variant of a PGN, SGF or PDN file (default: from its tags)
        #[arg(long)]
        variant: Option<String>,
        /// yaml, pgn, sgf or pdn (default: by the extension, else yaml)
        #[arg(long)]
        format: Option<String>,
    },
    /// Evaluate Lua against the current state (read-only; `lua! CODE` or `=! EXPR` applies it); `g` is the game
    Lua { code: Vec<String> },
    /// Show the clocks, or set them: `clock 15m`, `clock 15m+5s`, `clock off`
    Clock { spec: Option<String> },
    /// Re-read the variant's YAML and Lua and replay the game under the new rules
    Reload,
    /// Reload whenever the variant's YAML or Lua files are saved (`watch off` stops)
    Watch { off: Option<String> },
    /// Change an option and reload: `set rescues 2`
    Set { name: String, value: String },
    /// Show help for all commands, or one
    Help { command: Option<String> },
    /// Leave the REPL
    #[command(alias = "exit")]
    Quit,
}

/// A line of input: a command, or an action to play.
enum Line {
    Command(Command),
    Action(String),
}

impl Session {
    /// Runs one command line.
    pub fn execute(&mut self, line: &str) -> Result<(String, Flow), String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok((String::new(), Flow::Continue));
        }
        if let Some(code) = line
            .strip_prefix("=!")
            .or_else(|| line.strip_prefix("lua! "))
        {
            return self.apply_lua(code).map(|s| (s, Flow::Continue));
        }
        if let Some(code) = line.strip_prefix('=').or_else(|| line.strip_prefix("lua ")) {
            return self.eval_lua(code).map(|s| (s, Flow::Continue));
        }
        let line = without_comment(line);
        if line.is_empty() {
            return Ok((String::new(), Flow::Continue));
        }
        let (out, flow, plays) = match self.parse_line(line)? {
            Line::Command(cmd) => {
                let plays = matches!(
                    cmd,
                    Command::Play { .. }
                        | Command::Random { .. }
                        | Command::Bot { .. }
                        | Command::Undo { .. }
                );
                let (out, flow) = self.run_command(cmd)?;
                (out, flow, plays)
            }
            Line::Action(text) => (self.play(&text)?, Flow::Continue, true),
        };
        if plays && self.interactive {
            // At a terminal the board is drawn again after a move, as the
            // viewer sees it now.
            return Ok((format!("{out}\n{}", self.board(self.viewer)), flow));
        }
        Ok((out, flow))
    }

    /// Opens the session for a person at a terminal: the banner, and the
    /// board as the player to act sees it when the game hides anything
    /// from its players (`as all` shows every piece); a line that plays
    /// redraws the board from then on.
    pub fn open_interactive(&mut self, seed: u64) -> String {
        self.interactive = true;
        let mut out = format!(
            "sandtable — {} (seed {seed}). Type `help` for commands, an action such as {} to play it.\n",
            self.engine.variant.name,
            self.example_action()
        );
        if let Some(note) = self.view_from_a_seat() {
            out.push_str(&note);
            out.push('\n');
        }
        out.push_str(&self.board(self.viewer));
        out
    }

    /// In a game that hides anything from its players, the session's
    /// viewer becomes the player to act (the first player), with a line
    /// that says so; otherwise nothing changes.
    pub(super) fn view_from_a_seat(&mut self) -> Option<String> {
        let player = self.engine.acting_player(&self.state).unwrap_or(0);
        let hides = {
            let views = self.views();
            let everything = views.view(&self.state, Viewer::Omniscient);
            let mut seat = views.view(&self.state, Viewer::Player(player));
            seat.viewer.clone_from(&everything.viewer);
            seat != everything
        };
        if !hides {
            return None;
        }
        self.viewer = Viewer::Player(player);
        Some(format!(
            "This game hides pieces from its players: you see the board as {} does; `as all` shows everything, `as PLAYER` another side's view.",
            self.engine.player_name(player)
        ))
    }

    /// A legal action of the position, as the banner's example (the first
    /// listed), or the one the REPL has always shown.
    fn example_action(&self) -> String {
        let first = self.engine.try_legal_actions(&self.state).ok();
        first
            .and_then(|acts| {
                acts.first()
                    .map(|a| self.engine.action_text(&self.state, a))
            })
            .unwrap_or_else(|| "a4-a5".to_string())
    }

    /// Reads a line as a command, else as an action to play.
    fn parse_line(&self, line: &str) -> Result<Line, String> {
        let words = split_words(line);
        let e = match Command::try_parse_from(&words) {
            Ok(c) => return Ok(Line::Command(c)),
            Err(e) => e,
        };
        // Once the game is over no action is read: say so, not why the
        // move would be illegal or that no command has the name.
        if self.state.outcome.is_some() && e.kind() == clap::error::ErrorKind::InvalidSubcommand {
            return Err(self.not_a_command(&words[0], line.trim()));
        }
        // A bare action plays it.
        if words.len() == 1 {
            match self.engine.parse_turn(&self.state, &words[0]) {
                Ok(_) => return Ok(Line::Action(words[0].clone())),
                // A word written like a move (`Nf3`, `e8=K`) that is no
                // legal one here says why.
                Err(crate::engine::ActionError::Illegal(m))
                    if self.engine.variant.notation.style != NotationStyle::Coordinates
                        && self.state.pending.is_empty()
                        && (words[0].ends_with(|c: char| c.is_ascii_digit())
                            || self
                                .engine
                                .variant
                                .notation
                                .promotion_mark
                                .chars()
                                .next()
                                .is_some_and(|c| words[0].contains(c))) =>
                {
                    return Err(m)
                }
                Err(_) => {}
            }
        }
        // So does a whole line that is an action's label (`flip c3`).
        let whole = line.trim();
        if words.len() > 1 && self.engine.parse_action(&self.state, whole).is_ok() {
            return Ok(Line::Action(whole.to_string()));
        }
        if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
            return Err(self.not_a_command(&words[0], whole));
        }
        // clap's message begins `error: ` (the REPL adds its own) and
        // points at `--help` (the REPL's is `help COMMAND`).
        let text = e.render().to_string();
        let text = text.trim_end().trim_start_matches("error: ");
        Err(text.replace(
            "For more information, try '--help'.",
            &format!("For more, try `help {}`.", words[0]),
        ))
    }

    /// Why a line that names no command and plays no action was refused:
    /// the choice it does not answer, the game that is over, or the
    /// command it may misspell.
    fn not_a_command(&self, word: &str, whole: &str) -> String {
        // A choice is pending: the answer must be one of its options.
        if let Some(prompt) = self.pending_text() {
            return format!("`{whole}` is not an answer: {prompt}");
        }
        let names = command_names();
        let guess = crate::base::suggest::closest(word, names.iter().map(String::as_str));
        if let Some(o) = &self.state.outcome {
            let guess = guess
                .map(|c| format!(" (or did you mean the command `{c}`?)"))
                .unwrap_or_default();
            return format!(
                "`{whole}`: the game is over: {}; `undo` takes back the last turn, `new` starts another game{guess}",
                self.views().outcome_text(o)
            );
        }
        match guess {
            Some(c) => format!(
                "unknown command `{word}` (and not an action); did you mean `{c}`? (`help` lists the commands)"
            ),
            None => format!("unknown command `{word}` (and not an action); try `help`"),
        }
    }

    /// Runs a parsed command: each command's body is a method of its group.
    fn run_command(&mut self, cmd: Command) -> Result<(String, Flow), String> {
        let out = match cmd {
            Command::Quit => return Ok((String::new(), Flow::Quit)),
            Command::Watch { off } => return Ok(self.watch(off.as_deref())),
            Command::Help { command } => help_text(command.as_deref())?,
            Command::Load {
                variant,
                options,
                seed,
            } => self.load_variant(&variant, &options, seed)?,
            Command::New {
                seed,
                setups,
                back_first,
                front_first: _,
            } => self.new_game(seed, &setups, back_first)?,
            Command::Show { viewer } => self.show(viewer.as_deref())?,
            Command::ViewAs { viewer } => self.view_as(&viewer)?,
            Command::Actions => self.actions_text()?,
            Command::Play { actions } => self.play_words(&actions)?,
            Command::Random { n } => self.play_random(n.unwrap_or(1))?,
            Command::Bot { agent } => self.play_bot(agent.as_deref())?,
            Command::Undo { args } => self.undo_command(&args)?,
            Command::History => self.history_text(),
            Command::Options => self.options_text(),
            Command::Pieces => self.pieces_text(),
            Command::Rules => crate::rules::variant::describe::rules_markdown(&self.engine.variant)
                .trim_end()
                .to_string(),
            Command::Position { fen } => self.set_position(&fen.join(" "))?,
            Command::Fen => self.engine.to_fen(&self.state),
            Command::SavePosition { file } => self.save_position(&file)?,
            Command::LoadPosition { file } => self.load_position(&file)?,
            Command::Svg { file, as_viewer } => self.save_svg(&file, as_viewer.as_deref())?,
            Command::SaveRecord {
                file,
                as_viewer,
                format,
            } => self.save_record(&file, as_viewer.as_deref(), format.as_deref())?,
            Command::LoadRecord {
                file,
                variant,
                format,
            } => self.load_record_file(&file, variant.as_deref(), format.as_deref())?,
            Command::Reload => self.reload_text()?,
            Command::Set { name, value } => self.set_text(&name, &value)?,
            Command::Clock { spec } => self.clock_command(spec.as_deref())?,
            Command::Lua { code } => self.eval_lua(&code.join(" "))?,
        };
        Ok((out, Flow::Continue))
    }
}

/// Help for every command, or for one, from the command table.
pub fn help_text(command: Option<&str>) -> Result<String, String> {
    let mut cmd = Command::command();
    match command {
        None => {
            let mut out = String::from("Commands (an action such as a4-a5 alone on a line plays it; `=EXPR` evaluates Lua):\n");
            for sub in cmd.get_subcommands() {
                out.push_str(&format!(
                    "  {:<14} {}\n",
                    sub.get_name(),
                    sub.get_about().map(|a| a.to_string()).unwrap_or_default()
                ));
            }
            Ok(out)
        }
        Some(name) => {
            let sub = cmd
                .find_subcommand_mut(name)
                .ok_or_else(|| format!("no command `{name}`; try `help`"))?;
            Ok(sub.render_long_help().to_string())
        }
    }
}

/// Names of the REPL commands (for completion).
pub fn command_names() -> Vec<String> {
    Command::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

/// The line without a trailing comment: ` #` (a `#` after a space,
/// outside quotes) and what follows. A `#` inside a word (`Qxf7#`, mate)
/// is kept.
fn without_comment(line: &str) -> &str {
    let mut quote = None;
    let mut after_space = false;
    for (i, ch) in line.char_indices() {
        match (quote, ch) {
            (None, '"' | '\'') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if after_space => return line[..i].trim_end(),
            _ => {}
        }
        after_space = ch.is_whitespace();
    }
    line
}

fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    for ch in line.chars() {
        match (quote, ch) {
            (None, '"' | '\'') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            (_, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

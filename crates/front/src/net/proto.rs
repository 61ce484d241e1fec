//! The wire: what a client sends, what the host sends (one JSON object per
//! line; see docs/protocol.md), and the text hygiene both ends apply.

use serde::{Deserialize, Serialize};

use crate::session::SetupPrompt;

pub const PROTOCOL_VERSION: u32 = 2;
/// The longest message a client may send, in bytes.
pub const MAX_LINE: usize = 16 * 1024;

/// What a client sends.
#[derive(Debug, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    Hello {
        version: u32,
        name: String,
        #[serde(default)]
        seat: Option<String>,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        spectator: bool,
    },
    /// The seat's arrangement during the setup phase.
    Setup {
        text: String,
        /// The string starts at the back row (Gravon's board order).
        #[serde(default)]
        back_first: bool,
    },
    Action {
        text: String,
    },
    Chat {
        text: String,
    },
    Bye,
}

/// What the host sends.
#[derive(Debug, Deserialize, Serialize, Clone)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMsg {
    Welcome {
        version: u32,
        variant: String,
        players: Vec<String>,
        /// The seat taken, or none for a spectator.
        seat: Option<String>,
        /// Give it back in `hello` to take the seat again after a disconnect.
        token: Option<String>,
    },
    /// This seat must arrange its army: the cells in setup-string order and
    /// the army.
    SetupRequest {
        #[serde(flatten)]
        prompt: SetupPrompt,
    },
    /// Who has arranged their army and who is still arranging.
    SetupStatus {
        ready: Vec<String>,
        waiting: Vec<String>,
    },
    /// On joining or coming back: what the last actions did, oldest first,
    /// as this seat may know it.
    CatchUp {
        events: Vec<String>,
    },
    State {
        /// How many actions have been played; `events` are those since the
        /// previous `state` this connection received.
        seq: usize,
        view: Box<crate::record::view::View>,
        /// The view drawn as text (from the same view), with captured piles.
        board: String,
        events: Vec<String>,
        /// This seat's legal actions, when it must act.
        legal: Vec<String>,
        clock: Option<String>,
    },
    Chat {
        from: String,
        text: String,
    },
    /// A seat's player left or came back.
    Presence {
        seat: String,
        name: String,
        here: bool,
    },
    /// Another connection took this seat with its token; this one closes.
    Replaced {
        reason: String,
    },
    Error {
        message: String,
    },
    End {
        outcome: String,
    },
    Closing {
        reason: String,
    },
}

pub(crate) fn line(msg: &HostMsg) -> String {
    let mut s = serde_json::to_string(msg).expect("host messages serialize");
    s.push('\n');
    s
}

/// Whether a character may reach a terminal: no C0 or C1 control, no
/// bidirectional override or zero-width format character.
fn printable(c: char) -> bool {
    !c.is_control()
        && !matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// A one-line text from the wire made safe to print: every control or
/// format character (escape sequences included) becomes `?`.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if printable(c) { c } else { '?' })
        .collect()
}

/// Like [`clean`] for text of several lines (boards): keeps newlines.
pub fn clean_lines(text: &str) -> String {
    text.split('\n').map(clean).collect::<Vec<_>>().join("\n")
}

/// Whether a name is acceptable: 1 to `max` characters, none of them a
/// control or format character, not only spaces.
pub fn name_problem(name: &str, max: usize) -> Option<String> {
    if name.trim().is_empty() {
        return Some("a name cannot be empty".into());
    }
    if name.chars().count() > max {
        return Some(format!("a name has at most {max} characters"));
    }
    if !name.chars().all(printable) {
        return Some("a name cannot hold control characters".into());
    }
    None
}

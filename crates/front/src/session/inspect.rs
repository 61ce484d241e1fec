//! What the REPL shows without changing the game: the board from a
//! viewpoint, the legal actions, the history, the variant's options and
//! pieces, and Lua read-only.

use super::Session;

impl Session {
    /// `show [VIEWER]`: the board as a viewer sees it.
    pub(super) fn show(&self, viewer: Option<&str>) -> Result<String, String> {
        let v = self.views().viewer_or(viewer, self.viewer)?;
        Ok(self.board(v))
    }

    /// `as VIEWER`: sets the default viewpoint and shows the board.
    pub(super) fn view_as(&mut self, viewer: &str) -> Result<String, String> {
        self.viewer = self.views().viewer_or(Some(viewer), self.viewer)?;
        Ok(self.board(self.viewer))
    }

    /// `actions`: the legal actions of the position.
    pub(super) fn actions_text(&self) -> Result<String, String> {
        let acts = self
            .engine
            .try_legal_actions(&self.state)
            .map_err(|e| e.to_string())?;
        let texts: Vec<String> = acts
            .iter()
            .map(|a| self.engine.action_text(&self.state, a))
            .collect();
        Ok(match self.engine.acting_player(&self.state) {
            None => "the game is over".to_string(),
            Some(p) => format!(
                "{} actions for {}:\n{}",
                texts.len(),
                self.engine.player_name(p),
                wrap(&texts)
            ),
        })
    }

    /// The pending choice as the current viewer may see it (`red must
    /// choose: which piece? [OPTION …]`), if one is pending.
    pub fn pending_text(&self) -> Option<String> {
        if self.state.outcome.is_some() {
            return None;
        }
        let view = self.views().view(&self.state, self.viewer);
        view.pending
            .as_ref()
            .map(|c| crate::record::view::choice_prompt(&self.engine.variant.words, c))
    }

    /// `history`: the actions played so far, as the variant writes them
    /// (a move completed by a promotion choice as one, `e8=Q`; the choice
    /// after it by its label).
    pub(super) fn history_text(&self) -> String {
        let e = &self.engine;
        let texts: Vec<String> = self
            .history
            .iter()
            .enumerate()
            .map(|(i, p)| {
                // Under fog, another player's action as the viewer saw it.
                if self.views().hides_action(&p.before, self.viewer) {
                    return format!("{}. {}", i + 1, crate::record::fog::HIDDEN_ACTION);
                }
                let Ok(a) = e.parse_action(&p.before, &p.text) else {
                    return format!("{}. {}", i + 1, p.text);
                };
                if matches!(a, crate::engine::Action::Choose { .. }) {
                    return format!("{}. {}", i + 1, p.text);
                }
                let then = self.history.get(i + 1).and_then(|n| {
                    n.before.pending.first().filter(|c| c.piece.is_some())?;
                    e.parse_action(&n.before, &n.text).ok()
                });
                format!("{}. {}", i + 1, e.move_text(&p.before, &a, then.as_ref()))
            })
            .collect();
        if texts.is_empty() {
            "no actions yet".into()
        } else {
            texts.join("\n")
        }
    }

    /// `options`: the variant's options and their values.
    pub(super) fn options_text(&self) -> String {
        let v = &self.engine.variant;
        if v.options.is_empty() {
            "this variant has no options".into()
        } else {
            v.options
                .iter()
                .map(|o| {
                    format!(
                        "{} = {} (default {}): {}",
                        o.name, o.value, o.default, o.doc
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    }

    /// `pieces`: the variant's pieces.
    pub(super) fn pieces_text(&self) -> String {
        let v = &self.engine.variant;
        v.show_order
            .iter()
            .map(|&i| &v.kinds[i])
            .map(|k| {
                format!(
                    "{:<12} {:>3}  rank {:>2}  x{}  {}",
                    k.name,
                    k.symbol,
                    k.rank,
                    k.count,
                    if k.is_mobile() {
                        "moves"
                    } else {
                        "never moves"
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `= EXPR`, `lua CODE`: evaluates Lua against the state, read-only.
    pub(super) fn eval_lua(&self, code: &str) -> Result<String, String> {
        self.engine
            .rules
            .eval(&self.state, &self.engine.variant, code)
    }
}

fn wrap(items: &[String]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for it in items {
        if width + it.len() + 1 > 78 && width > 0 {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(it);
        width += it.len();
    }
    out
}

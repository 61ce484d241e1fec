//! The turn flow of a position as saved to a file: container items (with
//! who knows each face), open reaction windows, the phase and the first
//! player. Read back by [`Positions::read_flow`].

use crate::game::Positions;
use serde::{Deserialize, Serialize};

use crate::base::state::{GameState, Item, Plain, PlayerId, Window};

/// The items of one container.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemsPos {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The faces, top or front first, each with who knows it.
    pub items: Vec<(String, Vec<String>)>,
}

/// An open reaction window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowPos {
    pub name: String,
    pub asked: Vec<String>,
    #[serde(default)]
    pub hold: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<(String, Plain)>,
}

/// The turn flow of a position.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowPos {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemsPos>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<WindowPos>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default)]
    pub phase_turns: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_player: Option<String>,
}

impl FlowPos {
    pub fn is_empty(&self) -> bool {
        *self == FlowPos::default()
    }
}

impl<'e> Positions<'e> {
    /// The turn flow of a state, as saved.
    pub(super) fn flow_pos(&self, s: &GameState) -> FlowPos {
        let name = |p: PlayerId| self.engine.player_name(p).to_string();
        FlowPos {
            items: s
                .containers
                .iter()
                .filter(|c| !c.items.is_empty())
                .map(|c| ItemsPos {
                    name: c.name.clone(),
                    owner: c.owner.map(name),
                    items: c
                        .items
                        .iter()
                        .map(|i| (i.value.clone(), self.players_of(i.known_by)))
                        .collect(),
                })
                .collect(),
            windows: s
                .windows
                .iter()
                .map(|w| WindowPos {
                    name: self.engine.variant.reactions[w.kind as usize].name.clone(),
                    asked: w.asked.iter().map(|&p| name(p)).collect(),
                    hold: w.hold,
                    data: w.data.clone(),
                })
                .collect(),
            phase: self
                .engine
                .variant
                .phases
                .get(s.phase as usize)
                .filter(|_| s.phase > 0)
                .map(|p| p.name.clone()),
            phase_turns: s.phase_turns,
            first_player: (s.first_player != 0).then(|| name(s.first_player)),
        }
    }

    /// Puts a position's turn flow into `s` (checked against the variant).
    pub(super) fn read_flow(&self, f: &FlowPos, s: &mut GameState) -> Result<(), String> {
        for c in &f.items {
            let owner = c
                .owner
                .as_deref()
                .map(|o| self.engine.player_id(o))
                .transpose()?;
            if !self
                .engine
                .variant
                .containers
                .iter()
                .any(|d| d.name == c.name)
            {
                return Err(format!("items: `{}` is not a declared container", c.name));
            }
            let k = s.container_id(&c.name, owner) as usize;
            s.containers[k].items = c
                .items
                .iter()
                .map(|(v, k)| {
                    Ok(Item {
                        value: v.clone(),
                        known_by: self.player_set(k)?,
                    })
                })
                .collect::<Result<_, String>>()?;
        }
        for w in &f.windows {
            let kind = self
                .engine
                .variant
                .reactions
                .iter()
                .position(|r| r.name == w.name)
                .ok_or_else(|| format!("windows: `{}` is not a declared reaction", w.name))?;
            let asked = w
                .asked
                .iter()
                .map(|p| self.engine.player_id(p))
                .collect::<Result<Vec<_>, _>>()?;
            if asked.is_empty() {
                return Err(format!("windows: `{}` asks nobody", w.name));
            }
            s.windows.push(Window {
                kind: kind as u8,
                asked,
                hold: w.hold,
                fresh: false,
                data: w.data.clone(),
            });
        }
        if let Some(p) = &f.phase {
            let i = self.engine.variant.phases.iter().position(|q| q.name == *p);
            s.phase = i.ok_or_else(|| format!("phase: `{p}` is not a declared phase"))? as u8;
        }
        s.phase_turns = f.phase_turns;
        if let Some(p) = &f.first_player {
            s.first_player = self.engine.player_id(p)?;
        }
        Ok(())
    }
}

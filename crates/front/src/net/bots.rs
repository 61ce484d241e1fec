//! The seats the host plays with agents: a thread of their own that copies
//! the state, searches without holding the game, and plays the answer if
//! nothing was played meanwhile. Other clients are never kept waiting.

use std::sync::mpsc::channel;
use std::sync::Arc;

use rand::Rng;

use super::host::{lock, SharedRef};
use crate::play::searcher::Searcher;

/// Starts the agents' thread; it wakes after every broadcast.
pub(super) fn spawn(shared: &SharedRef, searcher: Searcher) {
    let (kick, wake) = channel::<()>();
    lock(shared).bot_kick = Some(kick.clone());
    let weak = Arc::downgrade(shared);
    let _ = kick.send(());
    std::thread::spawn(move || {
        let mut rng = rand::rng();
        while wake.recv().is_ok() {
            // Every kick queued so far is answered by this round.
            while wake.try_recv().is_ok() {}
            loop {
                let Some(sh) = weak.upgrade() else { return };
                let job = {
                    let g = lock(&sh);
                    let s = &g.session;
                    let acting = s.acting_player();
                    match acting.and_then(|p| g.seats[p as usize].agent.clone()) {
                        Some(spec) if g.begun() && !g.closed => {
                            Some((s.state_copy(), s.ply(), spec))
                        }
                        _ => None,
                    }
                };
                let Some((state, ply, spec)) = job else { break };
                drop(sh);
                // The search, with the game free for everyone else.
                let choice = searcher.choose(&state, &spec, rng.random());
                let Some(sh) = weak.upgrade() else { return };
                let mut g = lock(&sh);
                let Some(text) = choice else { break };
                if g.session.ply() != ply {
                    continue;
                }
                if g.play(&text).is_err() {
                    break;
                }
            }
        }
    });
}

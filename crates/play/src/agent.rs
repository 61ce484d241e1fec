//! Agents: players the host runs (random, Monte Carlo tree search).
//!
//! An agent chooses from an [`Observation`], never from the true state: it
//! sees only what its player knows. Hidden information is handled by search
//! over determinizations ([`Determinizer::determinize`]): each MCTS iteration
//! samples a complete state consistent with the observation and descends one
//! shared tree keyed by actions (single-observer information-set MCTS); with
//! nothing hidden this is plain UCT.
//!
//! Agents are deterministic given their seed (a millisecond budget is not).

use crate::determinize::Determinizer;
use crate::rules::lua::RuleHook;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::base::state::{GameState, Loc, PlayerId};
use crate::determinize::Observation;
use crate::engine::{Action, ActionError, Engine, PlayoutBuffers};

/// A player the host runs.
pub trait Agent: Send {
    /// The spec it was built from (`random`, `mcts:200`).
    fn name(&self) -> String;
    /// Chooses an action for the observing player, who must act now; `None`
    /// when there is nothing to do. Draw offers are left to humans.
    fn choose(&mut self, engine: &Engine, obs: &Observation) -> Option<Action>;
    /// Search iterations run so far and the seconds they took (0 for
    /// agents that do not search).
    fn searched(&self) -> (u64, f64) {
        (0, 0.0)
    }
}

/// How long MCTS searches per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Budget {
    Iterations(u32),
    Millis(u64),
}

/// A parsed agent spec: `random`, `mcts`, `mcts:200` (iterations) or
/// `mcts:500ms` (time per decision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    Random,
    Mcts(Budget),
}

/// Iterations of `mcts` without a budget.
pub const DEFAULT_ITERATIONS: u32 = 200;

impl AgentSpec {
    pub fn parse(text: &str) -> Result<AgentSpec, String> {
        let t = text.trim();
        let bad = || {
            format!("unknown agent `{t}` (random, mcts, mcts:ITERATIONS or mcts:MILLISECONDSms)")
        };
        match t.split_once(':') {
            None if t == "random" => Ok(AgentSpec::Random),
            None if t == "mcts" => Ok(AgentSpec::Mcts(Budget::Iterations(DEFAULT_ITERATIONS))),
            Some(("mcts", b)) => {
                let budget = if let Some(ms) = b.strip_suffix("ms") {
                    Budget::Millis(ms.parse().map_err(|_| bad())?)
                } else {
                    Budget::Iterations(b.parse().map_err(|_| bad())?)
                };
                match budget {
                    Budget::Iterations(0) | Budget::Millis(0) => {
                        Err(format!("`{t}`: the budget must be positive"))
                    }
                    _ => Ok(AgentSpec::Mcts(budget)),
                }
            }
            _ => Err(bad()),
        }
    }

    pub fn text(&self) -> String {
        match self {
            AgentSpec::Random => "random".into(),
            AgentSpec::Mcts(Budget::Iterations(n)) => format!("mcts:{n}"),
            AgentSpec::Mcts(Budget::Millis(n)) => format!("mcts:{n}ms"),
        }
    }

    /// An agent of this spec, seeded.
    pub fn build(&self, seed: u64) -> Box<dyn Agent> {
        match *self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Mcts(budget) => Box::new(Mcts::new(budget, seed)),
        }
    }
}

/// The action an agent takes for the acting player of `s`: the agent sees
/// only that player's observation. `None` when the game is over or the
/// agent has nothing to do. An action the agent picks that is not legal in
/// the true state (a rule filter that depends on hidden kinds) is replaced
/// by the first legal one. A query hook that fails while the true state's
/// actions are listed stops the agent with that error.
pub fn agent_action(
    engine: &Engine,
    agent: &mut dyn Agent,
    s: &GameState,
) -> Result<Option<Action>, ActionError> {
    let Some(p) = engine.acting_player(s) else {
        return Ok(None);
    };
    let legal = engine.try_legal_actions(s)?;
    let obs = Determinizer::new(engine).observe(s, p);
    let Some(a) = agent.choose(engine, &obs) else {
        return Ok(None);
    };
    if legal.contains(&a) {
        Ok(Some(a))
    } else {
        Ok(legal.into_iter().find(|a| !a.is_social()))
    }
}

fn playable(engine: &Engine, s: &GameState, out: &mut Vec<Action>) {
    engine.legal_actions_into(s, out);
    out.retain(|a| !a.is_social());
}

/// Plays a uniformly random legal action.
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, engine: &Engine, obs: &Observation) -> Option<Action> {
        // The player's own actions do not depend on hidden kinds, but a rule
        // filter might: list them in a sample.
        let s = Determinizer::new(engine).determinize(obs, &mut self.rng);
        let mut acts = Vec::new();
        playable(engine, &s, &mut acts);
        if acts.is_empty() {
            return None;
        }
        Some(acts[self.rng.random_range(0..acts.len())])
    }
}

/// A note for a variant whose bots fall back on the default evaluation
/// (material, `1 + rank` per piece), which rewards capturing pieces whose
/// rank means nothing to the game; `None` when it has `rules.evaluate`.
pub fn default_evaluation_note(engine: &Engine) -> Option<String> {
    (!engine.rules.has(RuleHook::Evaluate)).then(|| {
        "note: no `rules.evaluate`: the bots score positions by material (1 + rank per piece \
         in play); if rank is not what matters in this game, define rules.evaluate \
         (docs/lua-api.md)"
            .to_string()
    })
}

/// How a position is scored for each player when a playout stops before
/// the end: `rules.evaluate(g, player)` when the variant defines it, else
/// material (the sum of `1 + rank` over a player's pieces in play), turned
/// into a chance of winning by a logistic of the lead over the average.
pub fn evaluate(engine: &Engine, s: &GameState) -> Vec<f64> {
    let n = s.players as usize;
    if let Some(o) = &s.outcome {
        let mut r = vec![0.0; n];
        if o.winners.is_empty() {
            r.iter_mut().for_each(|x| *x = 1.0 / n.max(1) as f64);
        } else {
            for &w in &o.winners {
                if let Some(x) = r.get_mut(w as usize) {
                    *x = 1.0 / o.winners.len() as f64;
                }
            }
        }
        return r;
    }
    if engine.rules.has(RuleHook::Evaluate) {
        return (0..n as PlayerId)
            .map(|p| engine.rules.evaluate(s, &engine.variant, p).unwrap_or(0.5))
            .collect();
    }
    let mut mat = vec![0.0f64; n];
    for p in &s.pieces {
        if matches!(p.loc, Loc::Container(_)) || s.eliminated & (1 << p.owner) != 0 {
            continue;
        }
        let rank = engine
            .variant
            .kinds
            .get(p.kind as usize)
            .map_or(0, |k| k.rank.max(0));
        if let Some(m) = mat.get_mut(p.owner as usize) {
            *m += 1.0 + rank as f64;
        }
    }
    let total: f64 = mat.iter().sum();
    if total <= 0.0 {
        return vec![1.0 / n.max(1) as f64; n];
    }
    let avg = total / n as f64;
    mat.iter()
        .map(|&m| 1.0 / (1.0 + (-MATERIAL_SCALE * (m - avg) / avg).exp()))
        .collect()
}

/// How sharply a material lead turns into a chance of winning.
const MATERIAL_SCALE: f64 = 8.0;
/// UCT exploration constant (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.5;
/// Random plies played after the tree before the position is evaluated.
pub const ROLLOUT_DEPTH: u32 = 8;

struct Node {
    /// The player who chose the action leading here (rewards are theirs).
    mover: PlayerId,
    visits: u32,
    /// How often this node's action was legal when its parent was visited.
    avail: u32,
    reward: f64,
    /// The actions tried here and their nodes, sorted by action.
    children: Vec<(Action, usize)>,
}

/// The UCT score of a child (by availability: a child counts the visits
/// in which it was legal).
fn uct(ch: &Node) -> f64 {
    ch.reward / ch.visits.max(1) as f64
        + EXPLORATION * (ln(ch.avail.max(1)) / ch.visits.max(1) as f64).sqrt()
}

/// `ln n`, from a table made once for the counts a search mostly meets
/// (the logarithm was a twentieth of a search's time).
fn ln(n: u32) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| (0..4096).map(|i| (i as f64).ln()).collect());
    match table.get(n as usize) {
        Some(&x) => x,
        None => (n as f64).ln(),
    }
}

/// One step of the descent at `node`, whose legal actions are `acts`
/// (sorted, each once): each child legal here counts one more time
/// available, `untried` gets the legal actions without a child, and the
/// legal child with the best UCT score is returned. The node's children
/// are kept sorted by action, so this is one merge of two sorted lists.
fn merge_children(
    tree: &mut [Node],
    node: usize,
    acts: &[Action],
    untried: &mut Vec<Action>,
) -> Option<(Action, usize)> {
    untried.clear();
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    let mut i = 0;
    for k in 0..tree[node].children.len() {
        let (a, c) = tree[node].children[k];
        while i < acts.len() && acts[i] < a {
            untried.push(acts[i]);
            i += 1;
        }
        if i < acts.len() && acts[i] == a {
            i += 1;
            tree[c].avail += 1;
            let score = uct(&tree[c]);
            if score > best_score {
                best_score = score;
                best = Some((a, c));
            }
        }
    }
    untried.extend_from_slice(&acts[i..]);
    best
}

/// `acts` sorted, each once. Listings come sorted when every action is a
/// move (pieces and their targets in cell order): then a pass over them
/// will do.
fn sort_once(acts: &mut Vec<Action>) {
    if !acts.windows(2).all(|w| w[0] < w[1]) {
        acts.sort_unstable();
        acts.dedup();
    }
}

/// The playable actions at a node of the descent into `acts`, sorted, each
/// once: those `acts` holds when `listed` (the last apply listed them), the
/// `fixed` list (the root's, sorted when the decision began), else a
/// listing of `s`.
fn node_actions(
    engine: &Engine,
    s: &GameState,
    listed: bool,
    fixed: Option<&[Action]>,
    acts: &mut Vec<Action>,
) {
    match fixed {
        _ if listed => {
            acts.retain(|a| !a.is_social());
            sort_once(acts);
        }
        Some(r) => {
            acts.clear();
            acts.extend_from_slice(r);
        }
        None => {
            playable(engine, s, acts);
            sort_once(acts);
        }
    }
}

/// Monte Carlo tree search (UCT) over determinizations.
pub struct Mcts {
    budget: Budget,
    rng: ChaCha8Rng,
    pub rollout_depth: u32,
    /// Iterations run and seconds spent searching, over all decisions.
    searched: (u64, f64),
    /// What each iteration reuses: the last iteration's state (a new
    /// determinization is copied into its memory), the playout's buffers
    /// and the path down the tree.
    spare: Option<GameState>,
    playout: PlayoutBuffers,
    path: Vec<usize>,
}

impl Mcts {
    pub fn new(budget: Budget, seed: u64) -> Mcts {
        Mcts {
            budget,
            rng: ChaCha8Rng::seed_from_u64(seed),
            rollout_depth: ROLLOUT_DEPTH,
            searched: (0, 0.0),
            spare: None,
            playout: PlayoutBuffers::default(),
            path: Vec::new(),
        }
    }

    fn iterate(
        &mut self,
        engine: &Engine,
        obs: &Observation,
        tree: &mut Vec<Node>,
        (acts, root): (&mut Vec<Action>, Option<&[Action]>),
        untried: &mut Vec<Action>,
    ) {
        let det = Determinizer::new(engine);
        let mut s = match self.spare.take() {
            Some(mut s) => {
                det.determinize_into(obs, &mut self.rng, &mut s);
                s
            }
            None => det.determinize(obs, &mut self.rng),
        };
        let path = &mut self.path;
        path.clear();
        path.push(0);
        let mut node = 0usize;
        let mut failed = false;
        // Whether `acts` already holds the legal actions of `s` (the last
        // apply listed them while checking that the game goes on).
        let mut listed = false;
        loop {
            if s.outcome.is_some() {
                break;
            }
            let Some(mover) = engine.acting_player(&s) else {
                break;
            };
            node_actions(engine, &s, listed, root.filter(|_| node == 0), acts);
            if acts.is_empty() {
                break;
            }
            let best = merge_children(tree, node, acts, untried);
            let (a, next) = if !untried.is_empty() {
                let a = untried[self.rng.random_range(0..untried.len())];
                tree.push(Node {
                    mover,
                    visits: 0,
                    avail: 1,
                    reward: 0.0,
                    children: Vec::new(),
                });
                let c = tree.len() - 1;
                let children = &mut tree[node].children;
                let at = children.partition_point(|x| x.0 < a);
                children.insert(at, (a, c));
                (a, c)
            } else {
                match best {
                    Some(x) => x,
                    None => break,
                }
            };
            // A new node ends the descent: the rollout draws its own moves,
            // so only a node already visited needs the next list.
            let list = if tree[next].visits == 0 {
                None
            } else {
                Some(&mut *acts)
            };
            match engine.apply_listing(&mut s, &a, list) {
                Ok((_, l)) => listed = l,
                Err(_) => {
                    failed = true;
                    path.push(next);
                    break;
                }
            }
            path.push(next);
            node = next;
            if tree[next].visits == 0 {
                break;
            }
        }
        // The rollout: uniformly random legal plays (drawn without listing
        // the moves where the variant allows it), then the evaluation. A
        // rule error scores the iteration as a draw.
        let failed = failed
            || engine
                .random_playout_in(
                    &mut s,
                    &mut self.rng,
                    self.rollout_depth,
                    &mut self.playout,
                    None,
                )
                .is_err();
        let rewards = if failed {
            vec![1.0 / s.players.max(1) as f64; s.players as usize]
        } else {
            evaluate(engine, &s)
        };
        for &n in &self.path {
            let nd = &mut tree[n];
            nd.visits += 1;
            nd.reward += rewards.get(nd.mover as usize).copied().unwrap_or(0.0);
        }
        self.spare = Some(s);
    }
}

impl Agent for Mcts {
    fn name(&self) -> String {
        AgentSpec::Mcts(self.budget).text()
    }

    fn searched(&self) -> (u64, f64) {
        self.searched
    }

    fn choose(&mut self, engine: &Engine, obs: &Observation) -> Option<Action> {
        let me = obs.player();
        let first = Determinizer::new(engine).determinize(obs, &mut self.rng);
        let mut acts = Vec::new();
        playable(engine, &first, &mut acts);
        match acts.len() {
            0 => return None,
            1 => return Some(acts[0]),
            _ => {}
        }
        let root_acts = acts.clone();
        // The root's moves are the same in every determinization when they
        // cannot depend on the kinds dealt: listed once, not per iteration.
        let fixed_root = (obs.hides_only_others_kinds() && engine.moves_ignore_hidden_kinds())
            .then(|| {
                let mut r = root_acts.clone();
                sort_once(&mut r);
                r
            });
        let mut untried = Vec::new();
        let mut tree = vec![Node {
            mover: me,
            visits: 0,
            avail: 0,
            reward: 0.0,
            children: Vec::new(),
        }];
        let start = Instant::now();
        let mut i = 0u32;
        loop {
            match self.budget {
                Budget::Iterations(n) if i >= n => break,
                Budget::Millis(ms) if start.elapsed() >= Duration::from_millis(ms) && i > 0 => {
                    break
                }
                _ => {}
            }
            let root = fixed_root.as_deref();
            self.iterate(engine, obs, &mut tree, (&mut acts, root), &mut untried);
            i += 1;
        }
        self.searched.0 += i as u64;
        self.searched.1 += start.elapsed().as_secs_f64();
        let best = tree[0]
            .children
            .iter()
            .filter(|(a, _)| root_acts.contains(a))
            .max_by(|x, y| {
                let (a, b) = (&tree[x.1], &tree[y.1]);
                a.visits.cmp(&b.visits).then(
                    a.reward
                        .partial_cmp(&b.reward)
                        .unwrap_or(std::cmp::Ordering::Equal),
                )
            })
            .map(|(a, _)| *a);
        best.or(Some(root_acts[0]))
    }
}

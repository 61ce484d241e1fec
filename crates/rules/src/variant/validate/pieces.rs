//! The `pieces:` section: each kind of piece, its moves and its promotion.
//!
//! Changes when what a kind or a move may declare changes.

use serde_saphyr::{Location, Spanned};

use super::{player_zones, Ctx};
use crate::base::cell_set::CellSet;
use crate::base::geometry::{Board, Cell};
use crate::base::limits::{MAX_ARMY, MAX_COUNT, MAX_FORMS, MAX_FORMS_PER_KIND};
use crate::base::state::KindId;
use crate::variant::image::{read_image, PieceImage};
use crate::variant::raw::{RawFreeze, RawMove, RawPiece, RawPromote, RawRoyal, RawVariant};
use crate::variant::{Freeze, Jump, Kind, MovePattern, Promote, Target, Value, When};

/// What the checks of one kind need besides the context.
pub(super) struct Scope<'a> {
    /// The kind's key in `pieces:`.
    pub(super) name: &'a str,
    pub(super) board: &'a Board,
    pub(super) players: &'a [String],
    /// Every kind's key, in order (a kind's id is its place here).
    pub(super) kind_names: &'a [&'a String],
}

impl Scope<'_> {
    /// The ids of the kinds named in `list` (`what` names the field in
    /// messages); unknown names are reported at `loc` and left out.
    pub(super) fn kind_ids(
        &self,
        cx: &mut Ctx,
        loc: Location,
        list: &[String],
        what: &str,
    ) -> Vec<KindId> {
        let mut ids = Vec::new();
        for k in list {
            match self.kind_names.iter().position(|n| *n == k) {
                Some(i) => ids.push(i as KindId),
                None => cx.err_at(
                    loc,
                    format!(
                        "piece `{}`: `{what}` names `{k}`, which is no piece kind",
                        self.name
                    ),
                ),
            }
        }
        ids
    }
}

/// The piece kinds, in the order written (`~` removes a base kind).
pub(super) fn kinds(
    raw: &RawVariant,
    board: &Board,
    players: &[String],
    cx: &mut Ctx,
) -> Vec<Kind> {
    let kind_names: Vec<&String> = raw
        .pieces
        .iter()
        .filter(|(_, p)| p.is_some())
        .map(|(k, _)| k)
        .collect();
    let mut kinds: Vec<Kind> = Vec::new();
    let mut army = 0;
    let mut forms = 0;
    for (name, p) in &raw.pieces {
        let Some(p) = p else { continue };
        // The file that declared this kind, for the message's place.
        cx.from(&format!("pieces.{name}"));
        if let Some(c) = p.value.code {
            let mark = p.value.code_mark;
            if let Some(other) = kinds
                .iter()
                .find(|k| k.code == Some(c) && k.code_mark == mark)
            {
                cx.err_at(
                    p.referenced,
                    format!(
                        "piece `{name}`: `code: {c}` is already the code of piece `{}` (each kind needs its own code, or a `code_mark` beside it)",
                        other.name
                    ),
                );
            }
        }
        let s = Scope {
            name,
            board,
            players,
            kind_names: &kind_names,
        };
        let listed = p.value.moves.as_ref().map_or(0, Vec::len);
        // (A kind over its own limit is reported by itself.)
        if listed <= MAX_FORMS_PER_KIND && forms <= MAX_FORMS && forms + listed > MAX_FORMS {
            cx.err_at(
                p.referenced,
                format!(
                    "piece `{name}`: a variant's kinds declare at most {MAX_FORMS} moves together (with this kind's, {})",
                    forms + listed
                ),
            );
        }
        forms += listed;
        let k = kind(&s, p, cx);
        if army <= MAX_ARMY && army + k.count > MAX_ARMY {
            cx.err_at(
                p.referenced,
                format!(
                    "piece `{name}`: an army is at most {MAX_ARMY} pieces (with this kind it is {})",
                    army + k.count
                ),
            );
        }
        army += k.count;
        kinds.push(k);
    }
    supplies(raw, &mut kinds, cx);
    let royal = raw
        .pieces
        .iter()
        .flat_map(|(_, p)| p)
        .find(|p| matches!(royalty(&p.value.royal), Some(Royalty::Checked)));
    for (name, p) in raw
        .pieces
        .iter()
        .filter_map(|(n, p)| Some((n, p.as_ref()?)))
    {
        let Some(b) = p.value.barred.as_ref().or(p.value.no_stop.as_ref()) else {
            continue;
        };
        let forms = kinds
            .iter()
            .find(|k| &k.name == name)
            .is_some_and(|k| !k.forms.is_empty());
        if royal.is_some() || forms {
            cx.err_at(
                b.referenced,
                format!(
                    "piece `{name}`: `barred` and `no_stop` are not yet supported {}",
                    if forms {
                        "with placements or jumps (only steps, slides and paths)"
                    } else {
                        "in a variant with a royal kind"
                    }
                ),
            );
        }
    }
    kinds
}

/// One kind of piece.
fn kind(s: &Scope, p: &Spanned<RawPiece>, cx: &mut Ctx) -> Kind {
    let name = s.name;
    cx.from(&format!("pieces.{name}"));
    let loc = p.referenced;
    let p = &p.value;
    let display = p.name.as_deref().unwrap_or(name);
    for text in [name, display, p.symbol.as_deref().unwrap_or("")] {
        if super::players::has_controls(text) {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `{}` holds control characters",
                    crate::base::limits::escape_controls(name),
                    crate::base::limits::escape_controls(text)
                ),
            );
        }
    }
    let symbol = match &p.symbol {
        Some(sym) if !sym.is_empty() && sym.chars().count() <= 3 => sym.clone(),
        _ => {
            cx.err_at(
                loc,
                format!("piece `{name}`: `symbol` must be 1 to 3 characters"),
            );
            String::new()
        }
    };
    // Problems with the moves, and then with the promotion, are placed in
    // the file that last set the moves.
    cx.from(&format!("pieces.{name}.moves"));
    let (moves, forms) = kind_moves(s, name, p, cx);
    cx.from(&format!("pieces.{name}"));
    let freezes = p.freezes.as_ref().and_then(|f| freeze(s, f, cx));
    let custody = p
        .custody
        .as_ref()
        .and_then(|c| super::forms::custody(s, c, cx));
    let barred = p
        .barred
        .as_ref()
        .map_or(0, |b| super::forms::terrain_bits(s, b, "barred", cx));
    let no_stop = p
        .no_stop
        .as_ref()
        .map_or(0, |b| super::forms::terrain_bits(s, b, "no_stop", cx));
    cx.from(&format!("pieces.{name}.moves"));
    for (k, v) in p.attrs.iter().filter(|(_, v)| !v.is_scalar()) {
        cx.err_at(
            loc,
            format!(
                "pieces.{name}.attrs.{k}: an attribute is a boolean, an integer or a string, found {}",
                v.type_name()
            ),
        );
    }
    let royal = royalty(&p.royal);
    if let (Some(RawRoyal::Word(w)), None) = (&p.royal, royal) {
        cx.err_at(
            loc,
            format!("piece `{name}`: `royal: {w}`: expected true, false, checked or captured"),
        );
    }
    Kind {
        name: name.to_string(),
        display: p.name.clone().unwrap_or_else(|| name.to_string()),
        symbol,
        code: p.code,
        code_mark: super::hands::code_mark(s, p, loc, cx),
        demotes_to: (p.demotes_to.as_ref()).and_then(|d| {
            s.kind_ids(cx, loc, std::slice::from_ref(d), "demotes_to")
                .pop()
        }),
        rank: p.rank.unwrap_or(0),
        count: count(name, p.count, loc, cx),
        conditioned: moves.iter().any(|m| m.target().conditioned()),
        moves,
        forms,
        attrs: p
            .attrs
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        letter: p.letter.clone(),
        royal: royal == Some(Royalty::Checked),
        royal_captured: royal == Some(Royalty::Captured),
        not_facing: not_facing(s, p, royal, loc, cx),
        promote: p.promote.as_ref().and_then(|pr| promote(s, pr, loc, cx)),
        freezes,
        custody,
        barred,
        no_stop,
        image: image(name, p, cx),
    }
}

/// A kind's `moves:`, read into its move patterns and its forms; a move
/// listed twice, or more than [`MAX_FORMS_PER_KIND`] moves, is refused.
fn kind_moves(
    s: &Scope,
    name: &str,
    p: &RawPiece,
    cx: &mut Ctx,
) -> (Vec<MovePattern>, Vec<crate::variant::forms::Form>) {
    let mut moves = Vec::new();
    let mut forms = Vec::new();
    let listed = p.moves.as_deref().unwrap_or_default();
    if listed.len() > MAX_FORMS_PER_KIND {
        // Each form builds tables: none of them is read.
        cx.err_at(
            listed[MAX_FORMS_PER_KIND].referenced,
            format!(
                "piece `{name}`: a kind declares at most {MAX_FORMS_PER_KIND} moves, found {}",
                listed.len()
            ),
        );
    } else {
        // Where each move read so far was written, for a repeated one.
        let (mut moves_at, mut forms_at) = (Vec::new(), Vec::new());
        for m in listed {
            if !super::keys::keys_fit(s, &m.value, m.referenced, cx) {
                continue;
            }
            let (at, seen) = if super::forms::is_form(&m.value) {
                let Some(f) = super::forms::form(s, &m.value, m.referenced, cx) else {
                    continue;
                };
                let seen = forms.iter().position(|g| *g == f).map(|i| forms_at[i]);
                if seen.is_none() {
                    forms.push(f);
                    forms_at.push(m.referenced);
                }
                (m.referenced, seen)
            } else {
                let Some(p) = move_pattern(s, &m.value, m.referenced, cx) else {
                    continue;
                };
                let seen = moves.iter().position(|q| *q == p).map(|i| moves_at[i]);
                if seen.is_none() {
                    moves.push(p);
                    moves_at.push(m.referenced);
                }
                (m.referenced, seen)
            };
            if let Some(first) = seen {
                cx.err_at(
                    at,
                    format!(
                        "piece `{name}`: this move is the same as the one at line {}, column {}; a kind lists each move once",
                        first.line(),
                        first.column()
                    ),
                );
            }
        }
    }
    (moves, forms)
}

/// The kind's `image:`, read from beside the file that names it, else from
/// the bundled variants' folder; like scripts, it must lie in the variant's
/// folder tree or the bundled folders.
fn image(name: &str, p: &RawPiece, cx: &mut Ctx) -> Option<PieceImage> {
    use crate::variant::load::{allowed, outside, variant_tree};
    let img = p.image.as_ref()?;
    cx.from(&format!("pieces.{name}.image"));
    let dir = cx.paths[cx.file]
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let mut path = dir.join(&img.value);
    if !path.is_file() {
        // As with `extends`, the bundled variants' folder next: a copy of
        // a bundled variant keeps its pictures.
        let bundled = crate::base::bundled::variants();
        path = bundled.join(&img.value);
    }
    let tree = variant_tree(cx.paths.last().map_or(dir, |p| p.as_path()));
    let found = if !path.is_file() {
        Err(format!("image `{}` not found", img.value))
    } else {
        let path = path.canonicalize().unwrap_or(path);
        if allowed(&tree, &path) {
            read_image(&path, &img.value).map_err(|e| format!("image {e}"))
        } else {
            Err(outside("image", &img.value, &tree))
        }
    };
    found
        .map_err(|e| cx.err_at(img.referenced, format!("piece `{name}`: {e}")))
        .ok()
}

/// Each `when: { placed_all: KIND }` gets the kind's supply size; a kind
/// without a finite supply is reported at the move.
fn supplies(raw: &RawVariant, kinds: &mut [Kind], cx: &mut Ctx) {
    let sizes: Vec<Option<u16>> = kinds
        .iter()
        .map(|k| {
            k.forms.iter().find_map(|f| match f {
                crate::variant::forms::Form::Place(p) => p.supply,
                _ => None,
            })
        })
        .collect();
    let names: Vec<String> = kinds.iter().map(|k| k.name.clone()).collect();
    let royal = kinds.iter().any(|k| k.royal);
    for k in kinds.iter_mut() {
        let at = raw
            .pieces
            .get(&k.name)
            .and_then(|p| p.as_ref())
            .and_then(|p| p.value.moves.as_ref())
            .and_then(|m| m.iter().find(|m| m.value.when.is_some()))
            .map(|m| m.referenced);
        for pat in k.moves.iter_mut() {
            let (MovePattern::Step { target, .. }
            | MovePattern::Slide { target, .. }
            | MovePattern::Path { target, .. }) = pat;
            let Some(When::PlacedAll { kind, supply, .. }) = &mut target.when else {
                continue;
            };
            if let (true, Some(loc)) = (royal, at) {
                cx.err_at(
                    loc,
                    format!(
                        "piece `{}`: `when` is not yet supported in a variant with a royal kind",
                        k.name
                    ),
                );
            }
            match sizes[*kind as usize] {
                Some(n) => *supply = n,
                None => {
                    let kind = &names[*kind as usize];
                    if let Some(loc) = at {
                        cx.err_at(
                            loc,
                            format!(
                                "piece `{}`: `when.placed_all: {kind}`: `{kind}` has no placement with a `supply`",
                                k.name
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// A kind's `freezes:`; `None` when it names what does not exist
/// (reported) or its exception is off.
fn freeze(s: &Scope, f: &Spanned<RawFreeze>, cx: &mut Ctx) -> Option<Freeze> {
    let loc = f.referenced;
    let f = &f.value;
    let dir_name = f.near.as_deref().unwrap_or("all");
    let Some(directions) = s.board.directions(dir_name) else {
        let known: Vec<_> = s.board.directions.iter().map(|d| d.name.as_str()).collect();
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `freezes.near`: unknown direction set `{dir_name}` (expected one of: {})",
                s.name,
                known.join(", ")
            ),
        );
        return None;
    };
    if directions.relative {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `freezes.near` must be a direction set that is the same for every player, not `{dir_name}`",
                s.name
            ),
        );
        return None;
    }
    let kinds = f
        .kinds
        .as_ref()
        .map(|l| s.kind_ids(cx, loc, l, "freezes.kinds"));
    let unless_beside = match &f.unless_beside {
        Some(u) => {
            let (loc, u) = (u.referenced, &u.value);
            let ids = s.kind_ids(cx, loc, &u.kinds, "freezes.unless_beside.kinds");
            let on = cx.enabled(u.enabled.as_ref(), loc);
            if on {
                ids
            } else {
                Vec::new()
            }
        }
        None => Vec::new(),
    };
    Some(Freeze {
        near: directions.deltas.clone(),
        kinds,
        unless_beside,
    })
}

/// A kind's `count:` (1 when not given), at most [`MAX_COUNT`]; 0 when
/// over it (reported), so that sums stay small.
fn count(name: &str, count: Option<u32>, loc: Location, cx: &mut Ctx) -> u32 {
    match count.unwrap_or(1) {
        n if n > MAX_COUNT => {
            cx.err_at(
                loc,
                format!("piece `{name}`: `count` is {n}; it may be at most {MAX_COUNT}"),
            );
            0
        }
        n => n,
    }
}

/// One move of a kind: a `step`, a `slide` or a `path` in a set of
/// directions, with what it may end on.
fn move_pattern(s: &Scope, m: &RawMove, mloc: Location, cx: &mut Ctx) -> Option<MovePattern> {
    let name = s.name;
    let forms = [&m.step, &m.slide, &m.path]
        .iter()
        .filter(|x| x.is_some())
        .count();
    if forms != 1 {
        cx.err_at(
            mloc,
            format!("piece `{name}`: a move needs exactly one of `step`, `slide`, `path`"),
        );
        return None;
    }
    let dir_name = m
        .step
        .as_ref()
        .or(m.slide.as_ref())
        .or(m.path.as_ref())
        .unwrap();
    let Some(directions) = s.board.directions(dir_name) else {
        let known: Vec<_> = s.board.directions.iter().map(|d| d.name.as_str()).collect();
        cx.err_at(
            mloc,
            format!(
                "piece `{name}`: unknown direction set `{dir_name}` (expected one of: {})",
                known.join(", ")
            ),
        );
        return None;
    };
    let deltas = directions.deltas.clone();
    let relative = directions.relative;
    let enemy_kinds = m
        .onto_kinds
        .as_ref()
        .map(|l| s.kind_ids(cx, mloc, l, "onto_kinds"));
    let over_kinds = m
        .over_kinds
        .as_ref()
        .filter(|_| m.slide.is_some())
        .map(|l| s.kind_ids(cx, mloc, l, "over_kinds"));
    let target = target(s, m, mloc, enemy_kinds, relative, cx);
    if m.slide.is_none() && m.strike_at_range.is_some() {
        cx.err_at(
            mloc,
            format!("piece `{name}`: `strike_at_range` is for a slide only"),
        );
        return None;
    }
    Some(if m.step.is_some() {
        MovePattern::Step {
            deltas,
            target,
            lame: m.lame.unwrap_or(false),
        }
    } else if m.slide.is_some() {
        let jump = jump(s, m, mloc, over_kinds, cx);
        let strike_at_range = strike_at_range(m, mloc, cx);
        if m.screens == Some(0) || (m.screens.is_some() && m.over.is_some()) {
            cx.err_at(
                mloc,
                format!("piece `{name}`: `screens` is at least 1, and not with `over`"),
            );
            return None;
        }
        MovePattern::Slide {
            deltas,
            max: m.max.unwrap_or(u8::MAX),
            strike_at_range,
            reveal_beyond: m.reveal_beyond,
            target,
            jump,
            screens: m.screens.unwrap_or(0),
        }
    } else {
        MovePattern::Path {
            deltas,
            steps: m.steps.unwrap_or(1),
            target,
        }
    })
}

/// What a move may end on (`onto`, `onto_kinds`) and where it may start
/// (`from_zone`).
fn target(
    s: &Scope,
    m: &RawMove,
    mloc: Location,
    enemy_kinds: Option<Vec<KindId>>,
    relative: bool,
    cx: &mut Ctx,
) -> Target {
    let name = s.name;
    let (empty, enemy) = match m.onto.as_deref() {
        None | Some("any") => (true, true),
        Some("empty") => (true, false),
        Some("enemy") => (false, true),
        Some(other) => {
            cx.err_at(
                mloc,
                format!("piece `{name}`: `onto: {other}`: expected empty, enemy or any"),
            );
            (true, true)
        }
    };
    let from_zone = m.from_zone.as_ref().and_then(|z| {
        let zones = player_zones(s.board, s.players, z);
        if zones.is_none() {
            cx.err_at(
                mloc,
                format!("piece `{name}`: `from_zone: {z}` names no zone"),
            );
        }
        zones
    });
    let to_zone = m.to_zone.as_ref().and_then(|z| {
        let zones = player_zones(s.board, s.players, z);
        if zones.is_none() {
            cx.err_at(
                mloc,
                format!("piece `{name}`: `to_zone: {z}` names no zone"),
            );
        }
        let cells = s.board.cell_count();
        zones.map(|zones| {
            (zones.iter())
                .map(|z| (0..cells).map(|c| z.contains(&(c as Cell))).collect())
                .collect()
        })
    });
    let when = m.when.as_ref().and_then(|w| match &w.placed_all {
        // The supply's size is set once every kind is read (`kinds`).
        Some(k) if s.kind_names.contains(&k) => Some(When::PlacedAll {
            kind: s.kind_names.iter().position(|n| *n == k).unwrap_or(0) as KindId,
            counter: crate::variant::forms::placed_counter(k),
            supply: 0,
        }),
        Some(k) => {
            cx.err_at(
                mloc,
                format!("piece `{name}`: `when.placed_all: {k}` names no piece kind"),
            );
            None
        }
        None => {
            cx.err_at(
                mloc,
                format!("piece `{name}`: `when` needs a condition (`placed_all: KIND`)"),
            );
            None
        }
    });
    let names = (s.board, s.players);
    Target {
        empty,
        enemy,
        enemy_kinds,
        relative,
        from_zone,
        to_zone,
        when,
        landing: super::conditions::cell_conditions(&m.landing, "where", names, cx),
        through: super::conditions::cell_conditions(&m.through, "through", names, cx),
    }
}

/// A slide's `over` (with `over_kinds` and `max_over`).
fn jump(
    s: &Scope,
    m: &RawMove,
    mloc: Location,
    kinds: Option<Vec<KindId>>,
    cx: &mut Ctx,
) -> Option<Jump> {
    match m.over.as_deref() {
        None => None,
        Some("enemy") => {
            let max = match &m.max_over {
                None => Some(u8::MAX as i64),
                Some(pv) => cx.resolve(
                    pv,
                    mloc,
                    |v| match v {
                        Value::Int(i) => Some(*i),
                        _ => None,
                    },
                    "an integer",
                ),
            };
            Some(Jump {
                kinds,
                max: max.unwrap_or(0).clamp(0, 255) as u8,
            })
        }
        Some(other) => {
            cx.err_at(
                mloc,
                format!(
                    "piece `{}`: a slide's `over: {other}`: expected `enemy`",
                    s.name
                ),
            );
            None
        }
    }
}

/// A slide's `strike_at_range` (a boolean or a boolean option).
fn strike_at_range(m: &RawMove, mloc: Location, cx: &mut Ctx) -> bool {
    match &m.strike_at_range {
        None => false,
        Some(pv) => cx
            .resolve(
                pv,
                mloc,
                |v| match v {
                    Value::Bool(b) => Some(*b),
                    _ => None,
                },
                "a boolean",
            )
            .unwrap_or(false),
    }
}

/// A kind's `promote`: the zone where it promotes and the kinds it may
/// become.
fn promote(s: &Scope, pr: &RawPromote, loc: Location, cx: &mut Ctx) -> Option<Promote> {
    let zone = player_zones(s.board, s.players, &pr.zone);
    if zone.is_none() {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `promote.zone: {}` names no zone",
                s.name, pr.zone
            ),
        );
    }
    let to = s.kind_ids(cx, loc, &pr.to, "promote.to");
    zone.map(|zone| Promote {
        zone_set: zone.iter().map(|z| CellSet::of(z)).collect(),
        zone,
        to,
        optional: pr.optional.unwrap_or(false),
        leaving: pr.leaving.unwrap_or(false),
    })
}

/// What a kind's `royal:` says.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Royalty {
    /// `true` or `checked`.
    Checked,
    /// `captured`.
    Captured,
}

/// A kind's `royal:` read (`None`: not royal, or a word that is none of
/// the known ones).
fn royalty(r: &Option<RawRoyal>) -> Option<Royalty> {
    match r {
        Some(RawRoyal::Flag(true)) => Some(Royalty::Checked),
        Some(RawRoyal::Word(w)) if w == "checked" => Some(Royalty::Checked),
        Some(RawRoyal::Word(w)) if w == "captured" => Some(Royalty::Captured),
        _ => None,
    }
}

/// A royal kind's `not_facing`: the directions of its direction set.
fn not_facing(
    s: &Scope,
    p: &RawPiece,
    royal: Option<Royalty>,
    loc: Location,
    cx: &mut Ctx,
) -> Vec<(i8, i8)> {
    let Some(set) = &p.not_facing else {
        return Vec::new();
    };
    let name = s.name;
    if royal != Some(Royalty::Checked) {
        cx.err_at(
            loc,
            format!("piece `{name}`: `not_facing` is for a checked royal kind (`royal: true`)"),
        );
        return Vec::new();
    }
    match s.board.directions(set) {
        Some(d) if !d.relative => d.deltas.clone(),
        Some(_) => {
            cx.err_at(
                loc,
                format!("piece `{name}`: `not_facing: {set}`: a direction set the same for every player (not relative)"),
            );
            Vec::new()
        }
        None => {
            let known: Vec<_> = s.board.directions.iter().map(|d| d.name.as_str()).collect();
            cx.err_at(
                loc,
                format!(
                    "piece `{name}`: `not_facing: {set}`: unknown direction set (expected one of: {})",
                    known.join(", ")
                ),
            );
            Vec::new()
        }
    }
}

//! The designer's workbench (issue 35) in real Chromium: every bundled
//! variant's pieces readable (the contrast of each glyph on its piece,
//! computed from the colours the browser draws), everything the state
//! holds drawn (Lost Island's tiles, stones and bags), the page on a
//! phone, a first paint and a dropped socket, placements by a column and
//! the rule editor (diagnostics at their line, reload on save, restore,
//! completion, strict paths) beside the rules summary.

use std::time::Instant;

use serde_json::{json, Value};

use super::browser::{screenshot_path, Browser, Page};
use super::{host_of, next_of, socket, web};

/// The contrast of every piece's letter on its face, from the computed
/// fills: `[cell, ratio, letter, face, edge]` for each piece on the board.
/// A piece drawn as its kind's picture (`<use>`) is measured by the
/// picture's fill against its outline, and `edge` is how well the picture
/// (its fill or its outline, the better) stands out from its cell.
const CONTRASTS: &str = r#"(() => {
  const rgb = (c) => (c.match(/\d+(\.\d+)?/g) || [0, 0, 0]).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)]; return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
  return Array.from(document.querySelectorAll('#board g.piece')).map((g) => {
    const cell = g.getAttribute('data-cell');
    const use = g.querySelector('use');
    if (use) {
      const face = getComputedStyle(use).fill, line = getComputedStyle(use).stroke;
      const under = getComputedStyle(document.querySelector('#board rect[data-cell="' + cell + '"]')).fill;
      return [cell, ratio(face, line), line, face, Math.max(ratio(face, under), ratio(line, under))];
    }
    const face = getComputedStyle(g.querySelector('rect')).fill;
    const letter = getComputedStyle(g.querySelector('text')).fill;
    return [cell, ratio(face, letter), letter, face, 21];
  });
})()"#;

/// Waits for a console line's output, then for the frame it caused.
fn run(b: &mut Browser, page: &Page, line: &str) {
    b.eval(
        page,
        "window.__board = document.querySelector('#board svg'); document.querySelector('#console-output').textContent = ''",
    );
    b.type_line(page, "#console-input", line);
    b.wait(
        page,
        "document.querySelector('#console-output').textContent.length > 0",
        20,
    );
}

/// Runs a line that changes the board and waits for the new board.
fn run_and_redraw(b: &mut Browser, page: &Page, line: &str) {
    run(b, page, line);
    b.wait(
        page,
        "document.querySelector('#board svg') !== window.__board",
        20,
    );
}

/// Asserts every glyph on the board contrasts at least 4.5:1; how many.
fn assert_contrast(b: &mut Browser, page: &Page, what: &str) -> usize {
    let all = b.eval(page, CONTRASTS);
    let all = all.as_array().unwrap();
    for c in all {
        let ratio = c[1].as_f64().unwrap();
        assert!(
            ratio >= 4.5,
            "{what}: the piece on {c} reads at {ratio:.2}:1"
        );
        let edge = c[4].as_f64().unwrap();
        assert!(
            edge >= 3.0,
            "{what}: the picture on {c} stands out at {edge:.2}:1"
        );
    }
    all.len()
}

#[test]
fn every_bundled_variants_pieces_read_at_a_glance() {
    let Some(mut b) = Browser::launch("every_bundled_variants_pieces_read_at_a_glance") else {
        return;
    };
    let t0 = Instant::now();
    let (_srv, url) = web(&["chess", "--seed", "2"]);
    let page = b.open(&url, "");
    b.wait(&page, "document.querySelector('#board g.piece')", 20);
    // The board fills the window's height or the play column's width.
    let fit = b.eval(&page, "(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return [r.width, r.height, innerWidth, innerHeight]; })()");
    let (w, h) = (fit[0].as_f64().unwrap(), fit[1].as_f64().unwrap());
    let (ww, wh) = (fit[2].as_f64().unwrap(), fit[3].as_f64().unwrap());
    assert!(
        w >= 0.5 * ww || h >= 0.75 * wh,
        "the board is {w}×{h} in {ww}×{wh}"
    );
    assert!(h <= wh, "the board is taller than the window: {h} > {wh}");
    for name in sandtable::rules::variant::bundled_variants() {
        let e = super::common::engine(&name, &[]);
        run_and_redraw(&mut b, &page, &format!("load {name}"));
        // A few plies, so that boards that start empty hold pieces.
        run_and_redraw(&mut b, &page, "random 6");
        let seen = assert_contrast(&mut b, &page, &name);
        assert!(seen > 0, "{name}: no piece on the board");
        // Kinds that declare a picture are drawn as it, one symbol each.
        let pictures = e.variant.kinds.iter().filter(|k| k.image.is_some()).count();
        let drawn = b.eval(
            &page,
            "document.querySelectorAll('#board g.piece use').length",
        );
        let symbols = b.eval(&page, "document.querySelectorAll('#board symbol').length");
        assert_eq!(
            pictures > 0,
            drawn.as_u64().unwrap() > 0,
            "{name}: {drawn} pictures"
        );
        assert!(
            symbols.as_u64().unwrap() as usize <= pictures,
            "{name}: {symbols}"
        );
        if let Some(path) = screenshot_path(&format!("variant_{name}.png")) {
            b.screenshot(&page, &path);
        }
        // The second player sees the first one's hidden pieces as backs.
        let other = &e.variant.players[1];
        run_and_redraw(&mut b, &page, &format!("as {other}"));
        assert_contrast(&mut b, &page, &format!("{name} seen by {other}"));
        run_and_redraw(&mut b, &page, "as all");
    }
    // The last move is outlined and a selected piece's targets are lit.
    run_and_redraw(&mut b, &page, "load chess");
    b.click(&page, "#board g[data-cell=e2]");
    assert_eq!(
        super::cells_marked(&mut b, &page, "#board rect.target"),
        "e3,e4"
    );
    b.click(&page, "#board rect[data-cell=e4]");
    b.wait(
        &page,
        "document.querySelectorAll('#board rect.last').length === 2",
        10,
    );
    eprintln!(
        "every_bundled_variants_pieces_read_at_a_glance: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

/// How many items a `show all` line `  NAME shared: a b c` lists.
fn items_in(show: &str, container: &str) -> usize {
    show.lines()
        .find(|l| l.trim_start().starts_with(&format!("{container} ")))
        .map(|l| {
            l.split(':')
                .nth(1)
                .unwrap_or("")
                .split_whitespace()
                .filter(|w| *w != "-")
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn lost_islands_tiles_stones_and_bags_are_drawn_as_the_state_holds_them() {
    let Some(mut b) =
        Browser::launch("lost_islands_tiles_stones_and_bags_are_drawn_as_the_state_holds_them")
    else {
        return;
    };
    let (_srv, url) = web(&["lost_island", "--seed", "4"]);
    let page = b.open(&url, "");
    b.wait(
        &page,
        "document.querySelector('#board svg [data-cell=a1]')",
        20,
    );
    // What the state holds, as the omniscient REPL shows it.
    let mut s = sandtable::front::session::Session::new("lost_island", &[], 4).unwrap();
    let show = s.execute("show all").unwrap().0;
    let view = sandtable::record::view::Views::new(&s.engine)
        .view(&s.state, sandtable::record::view::Viewer::Omniscient);
    let count = |value: &str| {
        view.marks
            .iter()
            .filter(|m| m.name == "tile" && m.value == value)
            .count()
    };
    let (down, stones) = (count("down"), count("stone"));
    assert!(down > 0 && stones > 0, "{show}");
    // The text board shows the same: one `#` or `S` for each cell that is
    // not covered by a piece.
    let covered = |value: &str| {
        view.marks
            .iter()
            .filter(|m| m.name == "tile" && m.value == value)
            .filter(|m| {
                let c = s.engine.variant.board.parse_cell(&m.cell).unwrap();
                view.cells[c as usize].is_some()
            })
            .count()
    };
    let board_rows: String = show
        .lines()
        .take_while(|l| !l.trim_start().starts_with('a'))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        board_rows.matches(" #").count() + covered("down"),
        down,
        "{show}"
    );
    assert_eq!(
        board_rows.matches(" S").count() + covered("stone"),
        stones,
        "{show}"
    );
    let on_page = |b: &mut Browser, sel: &str| {
        b.eval(
            &page,
            &format!("document.querySelectorAll({}).length", json!(sel)),
        )
        .as_u64()
        .unwrap() as usize
    };
    assert_eq!(on_page(&mut b, "#board [data-mark='tile=down']"), down);
    assert_eq!(on_page(&mut b, "#board [data-mark='tile=stone']"), stones);
    // The bags: as many items as `show all` lists, face down.
    for bag in ["tiles", "stones"] {
        let n = items_in(&show, bag);
        assert!(n > 0, "{bag}: {show}");
        let li = b.eval(
            &page,
            &format!("(() => {{ const e = document.querySelector('#containers li[data-container={bag}]'); return e && [e.dataset.count, e.textContent]; }})()"),
        );
        assert_eq!(li[0], json!(n.to_string()), "{bag}: {li}");
        assert!(
            li[1].as_str().unwrap().contains(&format!("{bag}: {n} ")),
            "{li}"
        );
    }
    run_and_redraw(&mut b, &page, "as red");
    for bag in ["tiles", "stones"] {
        let n = items_in(&show, bag);
        let li = b.eval(
            &page,
            &format!("(() => {{ const e = document.querySelector('#containers li[data-container={bag}]'); return e && [e.dataset.count, e.textContent]; }})()"),
        );
        assert_eq!(li[0], json!(n.to_string()), "red's {bag}: {li}");
        assert!(
            li[1].as_str().unwrap().contains(&format!("{n} face down")),
            "red's {bag}: {li}"
        );
    }
    assert_eq!(
        on_page(&mut b, "#board [data-mark='tile=down']"),
        down,
        "red sees the tiles"
    );
    if let Some(path) = screenshot_path("web_lost_island.png") {
        b.screenshot(&page, &path);
    }
}

#[test]
fn the_page_fits_a_phone_paints_first_and_says_when_the_socket_drops() {
    let Some(mut b) =
        Browser::launch("the_page_fits_a_phone_paints_first_and_says_when_the_socket_drops")
    else {
        return;
    };
    let (mut srv, url) = web(&["classic_stratego", "--seed", "3"]);
    // The first paint is in the page itself, before any socket.
    let page_html = super::get_from(None, &host_of(&url), "/");
    assert!(page_html.contains("connecting…"), "no first paint");
    assert!(page_html.contains("name=\"viewport\""));
    let page = b.open("about:blank", "");
    b.resize(&page, 390, 844, true);
    b.eval(&page, &format!("location.href = {}", json!(url)));
    b.wait(&page, "document.querySelector('#board g.piece')", 20);
    let m = b.eval(&page, "(() => { const r = document.querySelector('#board svg').getBoundingClientRect(); return [document.documentElement.scrollWidth, innerWidth, r.left, r.right, r.width]; })()");
    let f = |i: usize| m[i].as_f64().unwrap();
    assert_eq!(f(1), 390.0, "{m}");
    assert!(f(0) <= f(1), "horizontal scroll: {m}");
    assert!(
        f(2) >= 0.0 && f(3) <= f(1) && f(4) >= 300.0,
        "the board does not fit: {m}"
    );
    // Touch targets: the buttons under the board are at least 44 px.
    let small = b.eval(&page, "Array.from(document.querySelectorAll('.history-bar button, .tab')).filter((e) => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; }).length");
    assert_eq!(small, json!(0));
    if let Some(path) = screenshot_path("web_phone.png") {
        b.screenshot(&page, &path);
    }
    // The server goes away: the page says so.
    srv.child.kill().unwrap();
    srv.child.wait().unwrap();
    let said = b.wait(&page, "!document.querySelector('#connection').hidden && document.querySelector('#connection').textContent", 20);
    assert!(said.as_str().unwrap().contains("connection lost"), "{said}");
}

#[test]
fn a_disc_is_dropped_by_a_click_anywhere_in_its_column() {
    let Some(mut b) = Browser::launch("a_disc_is_dropped_by_a_click_anywhere_in_its_column") else {
        return;
    };
    let (_srv, url) = web(&["connect_four", "--seed", "1"]);
    let page = b.open(&url, "");
    b.wait(&page, "document.querySelector('#board rect.place')", 20);
    assert_eq!(
        super::cells_marked(&mut b, &page, "#board rect.place"),
        "a1,b1,c1,d1,e1,f1,g1"
    );
    assert_eq!(
        b.eval(&page, "document.querySelectorAll('#buttons button').length"),
        0
    );
    // A click at the top of column d drops a disc to d1, the next to d2.
    b.click(&page, "#board rect[data-cell=d6]");
    b.wait(&page, "document.querySelector('#plies').textContent === '1 / 1' && document.querySelector('#board g[data-cell=d1]')", 10);
    b.click(&page, "#board rect[data-cell=d4]");
    b.wait(&page, "document.querySelector('#plies').textContent === '2 / 2' && document.querySelector('#board g[data-cell=d2]')", 10);
    let titles = b.eval(&page, "['d1', 'd2'].map((c) => document.querySelector('#board g[data-cell=' + c + '] title').textContent)");
    assert_eq!(titles, json!(["red disc", "yellow disc"]));
    let log = b.eval(&page, "document.querySelector('#log').textContent");
    assert!(log.as_str().unwrap().contains("d2"), "{log}");
}

/// Sets the editor's text as typing would (an input event follows).
fn set_editor_text(b: &mut Browser, page: &Page, text: &str) {
    b.eval(
        page,
        &format!(
            "(() => {{ const t = document.querySelector('#edit-text'); t.value = {}; t.dispatchEvent(new Event('input')); }})()",
            json!(text)
        ),
    );
}

/// Opens a file in the editor by its name and waits for its text.
fn open_in_editor(b: &mut Browser, page: &Page, name: &str) -> String {
    b.eval(
        page,
        &format!(
            "(() => {{ const s = document.querySelector('#edit-file'); s.value = {n}; s.dispatchEvent(new Event('change')); }})()",
            n = json!(name)
        ),
    );
    let v = b.wait(
        page,
        &format!("document.querySelector('#edit-file').value === {} && document.querySelector('#edit-state').textContent.endsWith({}) && document.querySelector('#edit-text').value", json!(name), json!(name.rsplit('/').next().unwrap())),
        10,
    );
    v.as_str().unwrap().to_string()
}

#[test]
fn rules_are_edited_beside_the_board_checked_at_their_line_and_reloaded() {
    let Some(mut b) =
        Browser::launch("rules_are_edited_beside_the_board_checked_at_their_line_and_reloaded")
    else {
        return;
    };
    let t0 = Instant::now();
    let f = super::ReloadFixture::new();
    let (yaml, pos_file) = (f.yaml.as_path(), f.pos_file.as_path());
    let script = f.tmp.path().join("scripts/classic_stratego.lua");
    let page = b.open(&f.url, "");
    b.wait(
        &page,
        "document.querySelector('#board svg [data-cell=a4]')",
        20,
    );

    // The rules summary is a tab beside the board.
    b.click(&page, "#tab-rules");
    let rules = b.wait(&page, "!document.querySelector('#pane-rules').hidden && document.querySelector('#rules h3, #rules h4') && document.querySelector('#rules').textContent", 10);
    let md = sandtable::rules::variant::describe::rules_markdown(
        &super::common::engine(yaml.to_str().unwrap(), &[]).variant,
    );
    let first_heading = md.lines().find_map(|l| l.strip_prefix("# ")).unwrap_or("");
    assert!(
        rules.as_str().unwrap().contains(first_heading.trim()),
        "{rules}"
    );
    if let Some(path) = screenshot_path("web_rules.png") {
        b.screenshot(&page, &path);
    }
    assert!(!b
        .eval(&page, "document.querySelector('#board svg') !== null")
        .is_null());

    // The editor opens the variant's YAML.
    b.click(&page, "#tab-editor");
    let text = b.wait(
        &page,
        "document.querySelector('#edit-text').value.includes('hidden_identities')",
        10,
    );
    assert_eq!(text, json!(true));
    let original = b.eval(&page, "document.querySelector('#edit-text').value");
    let original = original.as_str().unwrap().to_string();
    assert_eq!(original, std::fs::read_to_string(yaml).unwrap());
    let files = b.eval(
        &page,
        "Array.from(document.querySelectorAll('#edit-file option')).map((o) => o.value)",
    );
    assert!(
        files
            .as_array()
            .unwrap()
            .contains(&json!("../scripts/classic_stratego.lua")),
        "{files}"
    );
    // It is highlighted.
    assert!(
        b.eval(
            &page,
            "document.querySelectorAll('#edit-shadow .t-key').length"
        )
        .as_u64()
        .unwrap()
            > 10
    );

    // A YAML error is marked at its line with `check`'s message as you
    // type, and again on save (the old rules stay).
    let line = original
        .lines()
        .position(|l| l.starts_with("hidden_identities:"))
        .unwrap()
        + 1;
    let broken = original.replace("hidden_identities: true", "hidden_identities: maybe");
    set_editor_text(&mut b, &page, &broken);
    let marked = b.wait(&page, "document.querySelector('#edit-shadow .diag-line') && [document.querySelector('#edit-shadow .diag-line').dataset.line, document.querySelector('#edit-diagnostics li').textContent]", 10);
    assert_eq!(marked[0], json!(line.to_string()), "{marked}");
    let expected = match sandtable::rules::variant::Variant::from_str(&broken, yaml, &[]) {
        Err(e) => e.0[0].clone(),
        Ok(_) => panic!("the broken YAML loads"),
    };
    assert_eq!(expected.line as usize, line);
    let diag = marked[1].as_str().unwrap();
    assert!(
        diag.contains(&format!(
            "{}:{}: {}",
            expected.line, expected.column, expected.message
        )),
        "{diag}"
    );
    b.click(&page, "#edit-save");
    b.wait(&page, "document.querySelector('#edit-state').textContent.includes('old rules stay') && document.querySelector('#edit-shadow .diag-line')", 10);
    assert_eq!(std::fs::read_to_string(yaml).unwrap(), broken);
    // Restore writes back the version before the save, which loads.
    b.click(&page, "#edit-restore");
    b.wait(&page, "document.querySelector('#edit-state').textContent.startsWith('saved: reloaded') && !document.querySelector('#edit-shadow .diag-line')", 10);
    assert_eq!(std::fs::read_to_string(yaml).unwrap(), original);
    assert_eq!(
        b.eval(&page, "document.querySelector('#edit-text').value"),
        json!(original)
    );

    // A rule changed in the Lua: the board shows the reload report.
    b.click(&page, "#tab-game");
    b.type_line(
        &page,
        "#console-input",
        &format!("load-position {}", pos_file.display()),
    );
    b.wait(&page, "document.querySelector('#board g[data-cell=e7]') && !document.querySelector('#board g[data-cell=b1]')", 10);
    b.type_line(
        &page,
        "#console-input",
        "play a4-a5 e7-e6 a5-a6 e6-e5 e4-e5",
    );
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '5 / 5'",
        10,
    );
    b.click(&page, "#tab-editor");
    let lua = open_in_editor(&mut b, &page, "../scripts/classic_stratego.lua");
    assert!(lua.contains("return \"both\""));
    assert!(
        b.eval(
            &page,
            "document.querySelectorAll('#edit-shadow .t-keyword').length"
        )
        .as_u64()
        .unwrap()
            > 10
    );
    // Completion of `g:` methods from the API's declarations.
    b.eval(&page, "(() => { const t = document.querySelector('#edit-text'); t.focus(); t.setSelectionRange(0, 0); })()");
    b.insert_text(&page, "g:pl");
    let offered = b.wait(&page, "!document.querySelector('#edit-completions').hidden && Array.from(document.querySelectorAll('#edit-completions li')).map((l) => l.firstChild.textContent).join(',')", 10);
    assert!(offered.as_str().unwrap().contains("player"), "{offered}");
    // And the hooks a script may define, with their arguments.
    b.insert_text(&page, "\nrules.st");
    let offered = b.wait(&page, "!document.querySelector('#edit-completions').hidden && document.querySelector('#edit-completions li').textContent", 10);
    assert!(
        offered
            .as_str()
            .unwrap()
            .starts_with("strike function rules.strike(g: Game"),
        "{offered}"
    );
    set_editor_text(
        &mut b,
        &page,
        &lua.replace("return \"both\"", "return \"attacker\""),
    );
    b.click(&page, "#edit-save");
    let report = b.wait(&page, "!document.querySelector('#report-box').hidden && document.querySelector('#report').textContent.includes('now plays') && document.querySelector('#report').textContent", 20);
    let report = report.as_str().unwrap();
    assert!(
        report.contains("action 5 (e4-e5) now plays differently"),
        "{report}"
    );
    b.wait(
        &page,
        "document.querySelector('#board g[data-cell=e5]')",
        10,
    );
    assert!(std::fs::read_to_string(&script)
        .unwrap()
        .contains("return \"attacker\""));
    if let Some(path) = screenshot_path("web_editor.png") {
        b.screenshot(&page, &path);
    }
    b.click(&page, "#edit-restore");
    b.wait(
        &page,
        "document.querySelector('#edit-text').value.includes('return \"both\"')",
        10,
    );
    assert_eq!(std::fs::read_to_string(&script).unwrap(), lua);

    // A rule error that shows only when the rules run: `check`'s random
    // games find it, and it is marked at the script's line.
    let boom = lua.replacen(
        "function rules.resolve(attacker, defender)\n",
        "function rules.resolve(attacker, defender)\n  local boom = attacker.nothing + 1\n",
        1,
    );
    let line = boom.lines().position(|l| l.contains("local boom")).unwrap() + 1;
    set_editor_text(&mut b, &page, &boom);
    b.click(&page, "#edit-save");
    let marked = b.wait(&page, "document.querySelector('#edit-diagnostics li') && document.querySelector('#edit-shadow .diag-line') && [document.querySelector('#edit-shadow .diag-line').dataset.line, document.querySelector('#edit-diagnostics li').textContent]", 20);
    assert_eq!(marked[0], json!(line.to_string()), "{marked}");
    assert!(
        marked[1].as_str().unwrap().contains("rule error"),
        "{marked}"
    );
    b.click(&page, "#edit-restore");
    b.wait(&page, "!document.querySelector('#edit-text').value.includes('local boom') && !document.querySelector('#edit-shadow .diag-line')", 10);
    assert_eq!(std::fs::read_to_string(&script).unwrap(), lua);

    // YAML keys complete from the host's schema.
    open_in_editor(&mut b, &page, "classic_stratego.yaml");
    b.eval(&page, "(() => { const t = document.querySelector('#edit-text'); t.focus(); t.setSelectionRange(0, 0); })()");
    b.insert_text(&page, "hidden_");
    let offered = b.wait(&page, "!document.querySelector('#edit-completions').hidden && document.querySelector('#edit-completions li').firstChild.textContent", 10);
    assert_eq!(offered, json!("hidden_identities"));

    // Through the editor's API, nothing but the variant's files.
    let mut ws = socket(&host_of(&f.url));
    next_of(&mut ws, "frame");
    for msg in [
        json!({ "type": "open", "name": "../../etc/passwd" }),
        json!({ "type": "open", "name": "../../../../../../etc/passwd" }),
        json!({ "type": "save", "name": "../../etc/passwd", "text": "x" }),
        json!({ "type": "restore", "name": "/etc/passwd" }),
        json!({ "type": "open", "name": "../pos.yaml" }),
    ] {
        ws.send(tungstenite::Message::text(msg.to_string()))
            .unwrap();
        let e: Value = next_of(&mut ws, "edit_error");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("is not one of this variant's files"),
            "{msg}: {e}"
        );
    }
    assert!(std::fs::read_to_string("/etc/passwd").map_or(true, |t| t != "x"));
    eprintln!(
        "rules_are_edited_beside_the_board_checked_at_their_line_and_reloaded: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn play_by_url_has_no_editor() {
    let mut srv = super::serve_web(&[]);
    let host = host_of(&srv.url("browsers join at"));
    let page = super::get_from(None, &host, "/");
    assert!(page.starts_with("HTTP/1.1 200"));
    assert!(
        !page.contains("editor") && !page.contains("edit-text"),
        "{page}"
    );
    let mut ws = super::socket_from("127.0.0.1", &host, "/ws");
    for msg in [
        json!({ "type": "hello", "version": 2, "name": "zed" }),
        json!({ "type": "open", "name": "classic_stratego.yaml" }),
        json!({ "type": "save", "name": "classic_stratego.yaml", "text": "x" }),
    ] {
        ws.send(tungstenite::Message::text(msg.to_string()))
            .unwrap();
    }
    // The host knows no such messages: errors, and never a file.
    let mut errors = 0;
    while errors < 2 {
        let m = ws.read().expect("a message");
        let tungstenite::Message::Text(t) = m else {
            continue;
        };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        assert!(v["type"] != "file" && v["type"] != "saved", "{v}");
        if v["type"] == "error" {
            errors += 1;
        }
    }
    srv.say("quit");
}

#[test]
fn a_kind_is_picked_from_the_palette_then_placed_by_a_click() {
    let Some(mut b) = Browser::launch("a_kind_is_picked_from_the_palette_then_placed_by_a_click")
    else {
        return;
    };
    let (_srv, url) = web(&["tests/variants/two_supplies.yaml", "--seed", "1"]);
    let page = b.open(&url, "");
    b.wait(
        &page,
        "document.querySelectorAll('#buttons button.kind').length === 2",
        20,
    );
    // No button per placement: one per kind, and every free cell lit.
    assert_eq!(
        b.eval(
            &page,
            "document.querySelectorAll('#buttons button.action').length"
        ),
        0
    );
    let kinds = b.eval(
        &page,
        "Array.from(document.querySelectorAll('#buttons button.kind')).map((b) => b.textContent)",
    );
    assert_eq!(kinds, json!(["Stone", "Tower"]));
    assert_eq!(
        b.eval(
            &page,
            "document.querySelectorAll('#board rect.place').length"
        ),
        16
    );
    // A cell where either kind may go does nothing until a kind is picked.
    b.click(&page, "#board rect[data-cell=a1]");
    assert_eq!(
        b.eval(&page, "document.querySelector('#plies').textContent"),
        json!("0 / 0")
    );
    b.click(&page, "#buttons button.kind[data-kind=T]");
    b.wait(
        &page,
        "document.querySelector('#buttons button.kind.picked').dataset.kind === 'T'",
        10,
    );
    b.click(&page, "#board rect[data-cell=a1]");
    b.wait(&page, "document.querySelector('#plies').textContent === '1 / 1' && document.querySelector('#board g[data-cell=a1]')", 10);
    // The kind stays picked for the next placement; another is one click.
    b.click(&page, "#board rect[data-cell=b1]");
    b.wait(&page, "document.querySelector('#plies').textContent === '2 / 2' && document.querySelector('#board g[data-cell=b1]')", 10);
    b.click(&page, "#buttons button.kind[data-kind=S]");
    b.wait(
        &page,
        "document.querySelector('#buttons button.kind.picked').dataset.kind === 'S'",
        10,
    );
    b.click(&page, "#board rect[data-cell=c1]");
    b.wait(&page, "document.querySelector('#plies').textContent === '3 / 3' && document.querySelector('#board g[data-cell=c1]')", 10);
    let log = b.eval(&page, "document.querySelector('#log').textContent");
    let log = log.as_str().unwrap();
    for t in ["T@a1", "T@b1", "S@c1"] {
        assert!(log.contains(t), "{t}: {log}");
    }
    let titles = b.eval(&page, "['a1', 'b1', 'c1'].map((c) => document.querySelector('#board g[data-cell=' + c + '] title').textContent)");
    assert_eq!(titles, json!(["black tower", "white tower", "black stone"]));
}

// The rule editor of the session page: the variant's YAML and Lua in a
// textarea over a highlighted copy of its text (hand-written, no library),
// the load's problems marked at their line and column, completion of YAML
// keys (from the host's schema), `g:` methods and `rules.` hooks (from the
// Lua API's declarations), save (which reloads the game in place) and restore. The
// host decides which files may be opened; the page only names them.
"use strict";

const Editor = (() => {
  const $ = (id) => document.getElementById(id);
  let send = () => {};
  let files = [];
  let yamlKeys = [];
  let luaMethods = [];
  let luaHooks = [];
  let current = null;      // { name, shown, lang }
  let diagnostics = [];    // of the current file: { line, column, message }
  let offered = [];        // the completions shown
  let pick = 0;
  let checkTimer = null;
  let asked = false;

  const LUA_WORDS = new Set(["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while", "continue", "type", "export"]);

  // One line of text as highlighted spans: [class, text] pairs.
  function tokens(line, lang) {
    const out = [];
    const rules = lang === "lua" ? [
      ["comment", /^--.*/],
      ["string", /^("([^"\\]|\\.)*"?|'([^'\\]|\\.)*'?|\[\[.*?(\]\]|$))/],
      ["number", /^\d+(\.\d+)?/],
      ["method", /^g:[A-Za-z_]\w*/],
      ["word", /^[A-Za-z_]\w*/],
      ["plain", /^[^A-Za-z_\d"'\-[]+|^./],
    ] : [
      ["comment", /^#.*/],
      ["key", /^(\s*-?\s*)[\w$.\-]+(?=\s*:(\s|$))/],
      ["string", /^("([^"\\]|\\.)*"?|'[^']*'?)/],
      ["number", /^-?\d+(\.\d+)?(?=[\s,\]}]|$)/],
      ["bool", /^(true|false|null|~)(?=[\s,\]}]|$)/],
      ["option", /^\$\w+/],
      ["plain", /^[^#"'$\w]+|^[\w.]+|^./],
    ];
    let rest = line;
    let atStart = true;
    while (rest.length) {
      for (const [cls, re] of rules) {
        if (cls === "key" && !atStart) continue;
        const m = re.exec(rest);
        if (!m || !m[0].length) continue;
        let c = cls;
        if (cls === "word") c = LUA_WORDS.has(m[0]) ? "keyword" : "plain";
        if (cls === "comment" && lang !== "lua" && !/^#/.test(rest)) continue;
        out.push([c, m[0]]);
        rest = rest.slice(m[0].length);
        break;
      }
      atStart = false;
    }
    return out;
  }

  function highlight() {
    const text = $("edit-text").value;
    const lang = current ? current.lang : "yaml";
    const byLine = new Map();
    for (const d of diagnostics) {
      if (!byLine.has(d.line)) byLine.set(d.line, []);
      byLine.get(d.line).push(d);
    }
    const lines = text.split("\n");
    const shadow = $("edit-shadow");
    shadow.replaceChildren(...lines.map((line, i) => {
      const row = document.createElement("span");
      row.className = "row";
      row.dataset.line = String(i + 1);
      const here = byLine.get(i + 1);
      if (here) {
        row.classList.add("diag-line");
        row.title = here.map((d) => d.line + ":" + d.column + ": " + d.message).join("\n");
      }
      for (const [cls, t] of tokens(line, lang)) {
        const s = document.createElement("span");
        s.className = "t-" + cls;
        s.textContent = t;
        row.append(s);
      }
      row.append("\n");
      return row;
    }));
    scrollShadow();
  }

  function scrollShadow() {
    const t = $("edit-text");
    $("edit-shadow").scrollTop = t.scrollTop;
    $("edit-shadow").scrollLeft = t.scrollLeft;
  }

  function state(text, bad) {
    const s = $("edit-state");
    s.textContent = text;
    s.classList.toggle("bad", !!bad);
  }

  // The problems of the file open: a list under the editor (a click goes
  // to the place) and marks on their lines.
  function showDiagnostics(all) {
    const base = (p) => p.split("/").pop();
    const mine = (all || []).filter((d) => current && d.file && (d.file === current.shown || base(d.file) === base(current.name)));
    diagnostics = mine;
    const list = $("edit-diagnostics");
    list.replaceChildren(...(all || []).map((d) => {
      const li = Board.el("li", (d.file ? d.file + ":" : "") + d.line + ":" + d.column + ": " + d.message, "diagnostic");
      li.dataset.line = String(d.line);
      li.dataset.column = String(d.column);
      li.addEventListener("click", () => goTo(d.line, d.column));
      return li;
    }));
    highlight();
  }

  function goTo(line, column) {
    const t = $("edit-text");
    const lines = t.value.split("\n");
    let at = 0;
    for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
    at += Math.max(0, column - 1);
    t.focus();
    t.setSelectionRange(at, at);
  }

  // The word being typed and what it may complete to.
  function completions() {
    const t = $("edit-text");
    const before = t.value.slice(0, t.selectionStart);
    const line = before.slice(before.lastIndexOf("\n") + 1);
    if (current && current.lang === "lua") {
      const m = /g:(\w*)$/.exec(line);
      const r = /rules\.(\w*)$/.exec(line);
      if (r) return { word: r[1], items: luaHooks.filter(([n]) => n.startsWith(r[1]) && n !== r[1]).map(([n, sig]) => ({ text: n, doc: sig })) };
      if (!m) return { word: "", items: [] };
      return { word: m[1], items: luaMethods.filter(([n]) => n.startsWith(m[1])).map(([n, sig]) => ({ text: n, doc: sig })) };
    }
    const m = /^\s*(-\s+)?([\w]*)$/.exec(line);
    if (!m || !m[2]) return { word: "", items: [] };
    return { word: m[2], items: yamlKeys.filter(([k]) => k.startsWith(m[2]) && k !== m[2]).map(([k, doc]) => ({ text: k, doc, suffix: ": " })) };
  }

  function offer() {
    const { items } = completions();
    offered = items.slice(0, 8);
    pick = 0;
    drawOffer();
  }

  function drawOffer() {
    const box = $("edit-completions");
    box.hidden = offered.length === 0;
    box.replaceChildren(...offered.map((c, i) => {
      const li = Board.el("li", c.text, i === pick ? "picked" : "");
      if (c.doc) li.append(Board.el("span", " " + c.doc.split("\n")[0], "doc"));
      li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick = i; accept(); });
      return li;
    }));
  }

  function accept() {
    const c = offered[pick];
    if (!c) return;
    const t = $("edit-text");
    const { word } = completions();
    const at = t.selectionStart;
    const add = c.text.slice(word.length) + (c.suffix || "");
    t.setRangeText(add, at, at, "end");
    offered = [];
    drawOffer();
    changed();
  }

  function changed() {
    highlight();
    if (current && current.lang === "yaml") {
      clearTimeout(checkTimer);
      checkTimer = setTimeout(() => send({ type: "check", name: current.name, text: $("edit-text").value }), 500);
    }
    state("edited, not saved");
  }

  function save() {
    if (!current) return;
    state("saving…");
    send({ type: "save", name: current.name, text: $("edit-text").value });
  }

  function open(name) {
    send({ type: "open", name });
  }

  function onMessage(msg) {
    if (msg.type === "files") {
      files = msg.files;
      yamlKeys = msg.yaml_keys || [];
      luaMethods = msg.lua_methods || [];
      luaHooks = msg.lua_hooks || [];
      const sel = $("edit-file");
      sel.replaceChildren(...files.map((f) => {
        const o = Board.el("option", f.name + (f.own ? "" : " (folder)"));
        o.value = f.name;
        return o;
      }));
      // The variant's own YAML first (not a base it extends).
      const first = files.find((f) => f.main) || files[0];
      if (!current && first) open(first.name);
    } else if (msg.type === "file") {
      current = { name: msg.name, shown: msg.shown, lang: msg.lang };
      $("edit-file").value = msg.name;
      $("edit-text").value = msg.text;
      $("edit-text").scrollTop = 0;
      $("editor").dataset.lang = msg.lang;
      $("edit-restore").disabled = !msg.versions;
      showDiagnostics([]);
      state(msg.shown);
    } else if (msg.type === "checked") {
      if (current && msg.name === current.name) showDiagnostics(msg.diagnostics);
    } else if (msg.type === "saved") {
      if (msg.text !== null && msg.text !== undefined) $("edit-text").value = msg.text;
      $("edit-restore").disabled = !msg.versions;
      showDiagnostics(msg.diagnostics);
      const first = msg.report.split("\n")[0];
      state(!msg.loaded ? "saved, with problems: the old rules stay"
        : msg.diagnostics.length ? "saved and reloaded, but check found a rule error: " + first
        : "saved: " + first, !msg.loaded || msg.diagnostics.length > 0);
    } else if (msg.type === "edit_error") {
      state(msg.message, true);
    }
  }

  function init(sendFn) {
    send = sendFn;
    const t = $("edit-text");
    t.addEventListener("input", () => { changed(); offer(); });
    t.addEventListener("scroll", scrollShadow);
    t.addEventListener("click", () => { offered = []; drawOffer(); });
    t.addEventListener("keydown", (ev) => {
      if ((ev.ctrlKey || ev.metaKey) && ev.key === "s") { ev.preventDefault(); save(); return; }
      if (offered.length) {
        if (ev.key === "ArrowDown") { ev.preventDefault(); pick = (pick + 1) % offered.length; return drawOffer(); }
        if (ev.key === "ArrowUp") { ev.preventDefault(); pick = (pick + offered.length - 1) % offered.length; return drawOffer(); }
        if (ev.key === "Tab" || ev.key === "Enter") { ev.preventDefault(); return accept(); }
        if (ev.key === "Escape") { offered = []; return drawOffer(); }
      } else if (ev.key === "Tab") {
        ev.preventDefault();
        t.setRangeText("  ", t.selectionStart, t.selectionEnd, "end");
        changed();
      }
    });
    $("edit-save").addEventListener("click", save);
    $("edit-restore").addEventListener("click", () => current && send({ type: "restore", name: current.name }));
    $("edit-file").addEventListener("change", (ev) => open(ev.target.value));
  }

  // The editor's tab was opened: the files are asked for once.
  function opened() {
    if (!asked) {
      asked = true;
      send({ type: "files" });
    }
  }

  // A new socket: what the editor knew is asked for again when it is open.
  function connected() {
    if (asked) send({ type: "files" });
  }

  return { init, onMessage, opened, connected, tokens };
})();

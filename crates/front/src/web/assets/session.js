// The session page (`sandtable web`): one REPL session. Every control is a
// message on the WebSocket: a REPL line, an action, a ply to show, the
// rules summary, or the editor's (editor.js).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let socket = null;
  let frame = null;
  let rulesFor = null;
  let everConnected = false;

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  }

  function say(line, text, ok) {
    const out = $("console-output");
    if (line !== null) out.append(Board.el("span", "> " + line + "\n", "line"));
    if (text) out.append(Board.el("span", text.replace(/\n?$/, "\n"), ok ? "ok" : "err"));
    while (out.childNodes.length > 400) out.firstChild.remove();
    out.scrollTop = out.scrollHeight;
  }

  function drawFrame(f) {
    frame = f;
    document.title = "sandtable: " + f.variant;
    $("variant").textContent = f.variant;
    const sel = $("viewer");
    if (sel.options.length !== f.viewers.length) {
      sel.replaceChildren(...f.viewers.map((v) => Board.el("option", v)));
    }
    sel.value = f.viewer === "omniscient" ? "all" : f.viewer;
    const v = f.view;
    $("status").textContent = v.outcome ? "game over: " + v.outcome
      : (f.browsing ? "showing ply " + f.ply + " of " + f.plies : "ply " + f.plies + ", " + (v.acting || v.to_move) + " to act");
    $("clock").textContent = f.clock || "";
    $("watching").hidden = !f.watching;
    $("plies").textContent = f.ply + " / " + f.plies;
    Board.draw(f, (text) => send({ type: "act", text }));
    Board.drawSide(v, f.uncounted);
    $("log").replaceChildren(...f.log.map((e) => {
      const li = Board.el("li", e.text);
      li.value = e.ply;
      li.addEventListener("click", () => send({ type: "goto", ply: e.ply }));
      if (e.events.length) li.append(Board.el("div", e.events.join("; "), "events"));
      return li;
    }));
    $("log").scrollTop = $("log").scrollHeight;
    $("report-box").hidden = !f.report;
    $("report").textContent = f.report || "";
    // The rules summary follows the rules: asked again after a reload.
    const key = f.variant + "\u0000" + (f.report || "");
    if (key !== rulesFor) {
      rulesFor = key;
      send({ type: "rules" });
    }
  }

  // The rules summary's Markdown, drawn as headings, lists and paragraphs
  // (text only: nothing from the wire is written as HTML).
  function drawRules(text) {
    const out = [];
    let list = null;
    let table = null;
    const plain = (t) => t.replace(/\*\*|`/g, "").replace(/^\*(.*)\*$/, "$1");
    for (const line of text.split("\n")) {
      const h = /^(#{1,4})\s+(.*)$/.exec(line);
      const li = /^\s*[-*]\s+(.*)$/.exec(line);
      if (/^\s*\|/.test(line)) {
        list = null;
        const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((c) => plain(c.trim()));
        if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
        if (!table) { table = Board.el("table", null, "rules-table"); out.push(table); }
        const row = Board.el("tr");
        const tag = table.rows.length ? "td" : "th";
        row.append(...cells.map((c) => Board.el(tag, c)));
        table.append(row);
        continue;
      }
      table = null;
      if (h) {
        list = null;
        out.push(Board.el("h" + Math.min(6, h[1].length + 2), h[2]));
      } else if (li) {
        if (!list) { list = Board.el("ul"); out.push(list); }
        list.append(Board.el("li", plain(li[1])));
      } else if (line.trim()) {
        list = null;
        out.push(Board.el("p", plain(line)));
      } else {
        list = null;
      }
    }
    $("rules").replaceChildren(...out);
  }

  function showPane(id) {
    document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.pane === id));
    document.querySelectorAll(".pane").forEach((p) => { p.hidden = p.id !== id; });
    if (id === "pane-editor") Editor.opened();
  }

  function connect() {
    const secret = document.querySelector('meta[name="sandtable-secret"]').content;
    socket = new WebSocket("ws://" + location.host + "/ws?secret=" + encodeURIComponent(secret));
    socket.addEventListener("open", () => {
      $("connection").hidden = true;
      everConnected = true;
      Editor.connected();
    });
    socket.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "frame") drawFrame(msg);
      else if (msg.type === "output") say(msg.line, msg.text, msg.ok);
      else if (msg.type === "error") say(null, msg.message, false);
      else if (msg.type === "rules") drawRules(msg.text);
      else Editor.onMessage(msg);
    });
    socket.addEventListener("close", () => {
      const banner = $("connection");
      banner.textContent = everConnected
        ? "connection lost: the server stopped or the network dropped; trying again… (what you see may be out of date)"
        : "cannot reach the server; trying again…";
      banner.hidden = false;
      document.body.classList.add("offline");
      if (!frame) $("first-paint").textContent = "cannot reach the server; trying again…";
      setTimeout(connect, 1500);
    });
    socket.addEventListener("open", () => document.body.classList.remove("offline"));
  }

  function goto(ply) {
    if (!frame) return;
    send({ type: "goto", ply: ply >= frame.plies ? null : Math.max(0, ply) });
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("viewer").addEventListener("change", (ev) => send({ type: "command", line: "as " + ev.target.value }));
    $("first").addEventListener("click", () => goto(0));
    $("back").addEventListener("click", () => frame && goto(frame.ply - 1));
    $("forward").addEventListener("click", () => frame && goto(frame.ply + 1));
    $("present").addEventListener("click", () => goto(Infinity));
    $("undo").addEventListener("click", () => send({ type: "command", line: "undo" }));
    $("console").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const line = $("console-input").value;
      $("console-input").value = "";
      if (line.trim()) send({ type: "command", line });
    });
    $("files").addEventListener("submit", (ev) => ev.preventDefault());
    $("files").querySelectorAll("button").forEach((b) => b.addEventListener("click", () => {
      const name = $("file-name").value.trim();
      if (name) send({ type: "command", line: b.dataset.cmd + " \"" + name.replace(/"/g, "") + "\"" });
    }));
    document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showPane(t.dataset.pane)));
    Editor.init(send);
    setInterval(() => { if (frame && frame.clock) send({ type: "refresh" }); }, 1000);
    connect();
  });
})();

// Arranging one's own army on the play page (protocol 2's setup phase).
// The host sends `setup_request` (the zone's cells in setup-string order,
// the army, and the seat's empty board as SVG); the page answers with the
// same `setup` message `join` sends: `random`, a pasted string (optionally
// read from the back row, as a Gravon line), or the string of a placement
// made by clicks. Nothing from the wire is written as HTML.
"use strict";

const Setup = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  let req = null;
  let placed = [];
  let pick = null;
  let picked = -1;
  let submit = () => {};
  const $ = (id) => document.getElementById(id);

  function left(code) {
    const k = req.army.find((a) => a.code === code);
    return (k ? k.count : 0) - placed.filter((c) => c === code).length;
  }

  function text() { return placed.map((c) => c || ".").join(""); }

  function nameOf(code) {
    const k = req.army.find((a) => a.code === code);
    return k ? k.name : code;
  }

  function click(cell) {
    const i = req.cells.indexOf(cell);
    if (i < 0) return;
    if (picked >= 0) {
      [placed[i], placed[picked]] = [placed[picked], placed[i]];
      picked = -1;
    } else if (!placed[i] && pick && left(pick) > 0) {
      placed[i] = pick;
      if (left(pick) === 0) {
        const next = req.army.find((a) => left(a.code) > 0);
        pick = next ? next.code : null;
      }
    } else if (placed[i]) {
      picked = i;
    }
    draw();
  }

  function drawBoard() {
    const doc = new DOMParser().parseFromString(req.svg || "<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    req.cells.forEach((cell, i) => {
      const rect = svg.querySelector("rect[data-cell='" + cell + "']");
      if (!rect) return;
      rect.classList.add("zone");
      if (i === picked) rect.classList.add("selected");
      if (!placed[i]) return;
      const g = document.createElementNS(SVG, "g");
      g.setAttribute("data-cell", cell);
      g.setAttribute("class", "placed");
      const x = Number(rect.getAttribute("x")), y = Number(rect.getAttribute("y"));
      const w = Number(rect.getAttribute("width"));
      const title = document.createElementNS(SVG, "title");
      title.textContent = nameOf(placed[i]);
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("x", x + w / 2);
      t.setAttribute("y", y + w / 2 + 6);
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("font-size", "18");
      t.setAttribute("font-weight", "bold");
      t.textContent = placed[i];
      g.append(title, t);
      svg.append(g);
    });
    svg.addEventListener("click", (ev) => {
      const hit = ev.target.closest("[data-cell]");
      if (hit) click(hit.getAttribute("data-cell"));
    });
    $("board").replaceChildren(svg);
  }

  function draw() {
    drawBoard();
    $("palette").replaceChildren(...req.army.map((k) => {
      const b = Board.el("button", k.code + " " + k.name + " \u00d7" + left(k.code), k.code === pick ? "kind picked" : "kind");
      b.type = "button";
      b.dataset.code = k.code;
      b.disabled = left(k.code) === 0;
      b.addEventListener("click", () => { pick = k.code; picked = -1; draw(); });
      return b;
    }));
    const rest = req.army.reduce((n, k) => n + left(k.code), 0);
    $("setup-left").textContent = rest ? rest + " pieces to place" : "every piece stands";
    $("setup-done").disabled = rest > 0;
  }

  // Shows the setup panel for `msg` (a setup_request); `send(msg)` sends.
  function ask(msg, send) {
    req = msg;
    submit = send;
    placed = req.cells.map(() => null);
    pick = req.army.length ? req.army[0].code : null;
    picked = -1;
    $("setup").hidden = false;
    $("setup-sent").textContent = "";
    draw();
  }

  function sent(what) {
    $("setup-sent").textContent = "sent (" + what + "): waiting for the host";
  }

  function hide() { $("setup").hidden = true; req = null; }

  document.addEventListener("DOMContentLoaded", () => {
    $("setup-random").addEventListener("click", () => { submit({ type: "setup", text: "random" }); sent("random"); });
    $("setup-clear").addEventListener("click", () => { if (req) { placed = req.cells.map(() => null); picked = -1; draw(); } });
    $("setup-done").addEventListener("click", () => { if (req) { submit({ type: "setup", text: text() }); sent("your placement"); } });
    $("setup-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const line = $("setup-text").value.trim();
      if (!line) return;
      submit({ type: "setup", text: line, back_first: $("setup-back").checked });
      sent("pasted");
    });
  });

  // The host refused the setup (nothing changed): say why, keep the zone.
  function refused(why) { $("setup-sent").textContent = "refused: " + why; }

  return { ask, hide, refused, active: () => req !== null };
})();

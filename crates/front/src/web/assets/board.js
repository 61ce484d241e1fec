// The board as both pages draw it: the SVG the host rendered (for this
// viewer only), clicks that select a piece and light up its legal targets
// (a jump sequence: each next landing in turn, or the last one when only
// one sequence ends there), clicks on the cells a piece may be placed on
// (lit up while no piece is selected; a falling piece's by any cell of
// the column it falls down), and buttons for every other legal
// action. Nothing from the wire is ever
// written as HTML: the SVG is parsed as XML, and text goes in textContent.
"use strict";

const Board = (() => {
  let selected = null;   // the cell of the piece selected
  let via = [];          // the landings of a jump sequence clicked so far
  let moves = [];
  let places = [];
  let jumps = [];
  let kind = null;       // the kind picked in the palette, to be placed
  let act = () => {};

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function cellsOf(svg, name) {
    return Array.from(svg.querySelectorAll("[data-cell]")).filter((e) => e.getAttribute("data-cell") === name);
  }

  // Whether a piece on `cell` has a move or a jump sequence.
  function movable(cell) {
    return moves.some((m) => m.from === cell) || jumps.some((j) => j.path[0] === cell);
  }

  // The jump sequences of the selected piece that go through `via` and on.
  function live() {
    if (!selected) return [];
    return jumps.filter((j) => j.path[0] === selected && j.path.length > via.length + 1
      && via.every((c, i) => j.path[i + 1] === c));
  }

  // What a click on `cell` does with a piece selected: the text of the
  // action it plays, "on" (one more landing of a sequence), or null.
  function outcome(cell) {
    if (!via.length) {
      const m = moves.find((m) => m.from === selected && m.to === cell);
      if (m) return m.text;
    }
    const seqs = live();
    const next = seqs.filter((j) => j.path[via.length + 1] === cell);
    if (next.length) {
      const ends = next.filter((j) => j.path.length === via.length + 2);
      return ends.length === 1 && next.length === 1 ? ends[0].text : "on";
    }
    // The last landing alone, when only one sequence ends there.
    const last = seqs.filter((j) => j.path[j.path.length - 1] === cell);
    return last.length === 1 ? last[0].text : null;
  }

  // The cells a click on would do something, with a piece selected.
  function targets() {
    const out = new Set();
    if (!selected) return out;
    if (!via.length) for (const m of moves) if (m.from === selected) out.add(m.to);
    for (const j of live()) {
      out.add(j.path[via.length + 1]);
      const end = j.path[j.path.length - 1];
      if (outcome(end) !== null) out.add(end);
    }
    return out;
  }

  function mark(svg) {
    svg.querySelectorAll(".selected, .target, .place, .via, .drop").forEach((e) => e.classList.remove("selected", "target", "place", "via", "drop"));
    if (!selected) {
      for (const p of places.filter((p) => !kind || p.kind === kind)) {
        cellsOf(svg, p.at).forEach((e) => e.classList.add("place"));
        for (const c of p.line || []) cellsOf(svg, c).forEach((e) => e.classList.add("drop"));
      }
      return;
    }
    cellsOf(svg, selected).forEach((e) => e.classList.add("selected"));
    for (const c of via) cellsOf(svg, c).forEach((e) => e.classList.add("via"));
    for (const c of targets()) cellsOf(svg, c).forEach((e) => e.classList.add("target"));
  }

  function play(svg, text) {
    selected = null;
    via = [];
    mark(svg);
    act(text);
  }

  function click(svg, cell) {
    if (selected && cell !== selected) {
      const r = outcome(cell);
      if (r === "on") {
        via.push(cell);
        mark(svg);
        return;
      }
      if (r !== null) return play(svg, r);
    }
    // A placement by its cell, or (a falling piece) by any empty cell it
    // falls through: a disc dropped into its column.
    const here = places.filter((p) => (p.at === cell || (p.line || []).includes(cell)) && (!kind || p.kind === kind));
    // Several kinds may go there: the palette says which.
    const place = here.length === 1 ? here[0] : null;
    if (place && !movable(cell)) return play(svg, place.text);
    selected = movable(cell) && selected !== cell ? cell : null;
    via = [];
    mark(svg);
  }

  // Draws `frame` (svg, moves, buttons, question) into the page's #board,
  // #question and #buttons; `onAct(text)` plays an action.
  function draw(frame, onAct) {
    act = onAct;
    moves = frame.moves || [];
    places = frame.places || [];
    jumps = frame.jumps || [];
    if (!movable(selected)) selected = null;
    if (!live().length) via = [];
    const holder = document.getElementById("board");
    const doc = new DOMParser().parseFromString(frame.svg || "<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml");
    const svg = document.importNode(doc.documentElement, true);
    svg.addEventListener("click", (ev) => {
      const hit = ev.target.closest("[data-cell]");
      if (hit) click(svg, hit.getAttribute("data-cell"));
    });
    holder.replaceChildren(svg);
    mark(svg);
    const q = document.getElementById("question");
    q.textContent = frame.question || "";
    q.hidden = !frame.question;
    const box = document.getElementById("buttons");
    box.replaceChildren(...palette(svg), ...(frame.buttons || []).map((label) => {
      const b = el("button", label, "action");
      b.addEventListener("click", () => act(label));
      return b;
    }));
  }

  // Where placements name more than one kind (a hand, a supply of
  // several kinds): a button per kind; the one picked lights up the cells
  // it may go to, and a click on one places it.
  function palette(svg) {
    const kinds = [];
    for (const p of places) if (p.kind && !kinds.some((k) => k.kind === p.kind)) kinds.push(p);
    if (kinds.length < 2) {
      kind = null;
      return [];
    }
    if (!kinds.some((k) => k.kind === kind)) kind = null;
    return kinds.map((k) => {
      const b = el("button", k.kind_name || k.kind, "kind" + (k.kind === kind ? " picked" : ""));
      b.dataset.kind = k.kind;
      b.title = "place " + (k.kind_name || k.kind) + ": then click a lit cell";
      b.addEventListener("click", () => {
        kind = kind === k.kind ? null : k.kind;
        selected = null;
        via = [];
        b.parentNode.querySelectorAll("button.kind").forEach((x) => x.classList.toggle("picked", x.dataset.kind === kind));
        mark(svg);
      });
      return b;
    });
  }

  // The captured piles and containers, and the counters, of a view. A
  // container says how many it holds (pieces and items, as this viewer may
  // count them) and what of it this viewer knows: faces by name, the rest
  // as face down.
  function drawSide(view, uncounted) {
    const piles = document.getElementById("containers");
    piles.replaceChildren(...(view.containers || []).map((c) => {
      const names = c.pieces.map((p) => (p.kind || "?") + (c.owner ? "" : " (" + p.owner + ")"));
      const items = c.items || [];
      const hidden = items.filter((i) => i === null).length;
      const faces = {};
      for (const i of items) if (i !== null) faces[i] = (faces[i] || 0) + 1;
      const parts = names.slice();
      for (const [face, n] of Object.entries(faces)) parts.push(n > 1 ? face + " ×" + n : face);
      if (hidden) parts.push(hidden + " face down");
      const count = c.pieces.length + items.length;
      const title = c.name + (c.owner ? " (" + c.owner + ")" : "");
      if ((uncounted || []).includes(c.name) && !c.pieces.length) {
        const li = el("li", title + ": how many is hidden from this view");
        li.dataset.container = c.name;
        return li;
      }
      const li = el("li", title + ": " + (count ? count + " — " + parts.join(", ") : "empty"));
      li.dataset.container = c.name;
      if (c.owner) li.dataset.owner = c.owner;
      li.dataset.count = String(count);
      return li;
    }));
    const counters = document.getElementById("counters");
    counters.replaceChildren(...(view.counters || []).map(([name, owner, value]) =>
      el("li", name + (owner ? " (" + owner + ")" : "") + " = " + value)));
  }

  return { draw, drawSide, el };
})();

// The board as both pages draw it: the SVG the host rendered (for this
// viewer only), clicks that select a piece and light up its legal targets,
// and buttons for every other legal action. Nothing from the wire is ever
// written as HTML: the SVG is parsed as XML, and text goes in textContent.
"use strict";

const Board = (() => {
  let selected = null;
  let moves = [];
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

  function mark(svg) {
    svg.querySelectorAll(".selected, .target").forEach((e) => e.classList.remove("selected", "target"));
    if (!selected) return;
    cellsOf(svg, selected).forEach((e) => e.classList.add("selected"));
    for (const m of moves) if (m.from === selected) cellsOf(svg, m.to).forEach((e) => e.classList.add("target"));
  }

  function click(svg, cell) {
    const move = moves.find((m) => m.from === selected && m.to === cell);
    if (move) {
      selected = null;
      mark(svg);
      act(move.text);
      return;
    }
    selected = moves.some((m) => m.from === cell) && selected !== cell ? cell : null;
    mark(svg);
  }

  // Draws `frame` (svg, moves, buttons, question) into the page's #board,
  // #question and #buttons; `onAct(text)` plays an action.
  function draw(frame, onAct) {
    act = onAct;
    moves = frame.moves || [];
    if (!moves.some((m) => m.from === selected)) selected = null;
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
    box.replaceChildren(...(frame.buttons || []).map((label) => {
      const b = el("button", label, "action");
      b.addEventListener("click", () => act(label));
      return b;
    }));
  }

  // The captured piles and containers, and the counters, of a view.
  function drawSide(view) {
    const piles = document.getElementById("containers");
    piles.replaceChildren(...(view.containers || []).map((c) => {
      const names = c.pieces.map((p) => (p.kind || "?") + (c.owner ? "" : " (" + p.owner + ")"));
      const title = c.name + (c.owner ? " (" + c.owner + ")" : "");
      return el("li", title + ": " + (names.length ? names.join(", ") : "empty"));
    }));
    const counters = document.getElementById("counters");
    counters.replaceChildren(...(view.counters || []).map(([name, owner, value]) =>
      el("li", name + (owner ? " (" + owner + ")" : "") + " = " + value)));
  }

  return { draw, drawSide, el };
})();

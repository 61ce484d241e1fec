// The play-by-URL page (`sandtable serve --web`): a client of the game host
// speaking docs/protocol.md over a WebSocket (one JSON message per
// WebSocket message). The seat's token is kept in this browser so that a
// reload of the page takes the seat back.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = "sandtable-seat:" + location.host;
  let socket = null;
  let hello = null;
  let joined = false;
  let replaced = false;
  let seq = -1;
  const VERSION = 2;

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
  }

  function remembered() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }

  function logLine(list, text, cls) {
    const ul = $(list);
    ul.append(Board.el("li", text, cls));
    while (ul.childNodes.length > 500) ul.firstChild.remove();
    ul.scrollTop = ul.scrollHeight;
  }

  function onState(msg) {
    if (typeof msg.seq === "number") {
      if (msg.seq < seq) return;
      seq = msg.seq;
    }
    Setup.hide();
    $("setup-status").hidden = true;
    const v = msg.view;
    $("status").textContent = v.outcome ? "game over: " + v.outcome
      : "ply " + v.ply + ", " + (v.acting || v.to_move) + " to act" + (msg.legal.length ? ": your turn" : "");
    $("clock").textContent = msg.clock || "";
    Board.draw(msg, (text) => { $("error").textContent = ""; send({ type: "action", text }); });
    Board.drawSide(v, msg.uncounted);
    if (msg.events.length) logLine("log", msg.events.join("; "));
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        joined = true;
        $("variant").textContent = msg.variant;
        $("seat").textContent = msg.seat ? "you play " + msg.seat : "you watch";
        if (msg.token) localStorage.setItem(KEY, JSON.stringify({ name: hello.name, token: msg.token }));
        $("join").hidden = true;
        $("game").hidden = false;
        break;
      case "state": onState(msg); break;
      case "setup_request":
        $("status").textContent = "setting up";
        Setup.ask(msg, send);
        break;
      case "setup_status":
        $("setup-status").textContent = "armies ready: " + (msg.ready.join(", ") || "none")
          + (msg.waiting.length ? "; waiting for " + msg.waiting.join(", ") : "");
        $("setup-status").hidden = false;
        if (!Setup.active() && msg.waiting.length) $("status").textContent = "setting up";
        break;
      case "catch_up":
        $("log").replaceChildren();
        for (const line of msg.events) logLine("log", line);
        break;
      case "presence":
        logLine("chat", msg.name + " (" + msg.seat + ") " + (msg.here ? "is here" : "left: the seat waits"), "presence");
        break;
      case "replaced":
        replaced = true;
        $("replaced").hidden = false;
        logLine("chat", "this tab was replaced: " + msg.reason, "error");
        break;
      case "chat": logLine("chat", msg.from + ": " + msg.text); break;
      case "end":
        $("outcome").textContent = "game over: " + msg.outcome;
        $("outcome").hidden = false;
        break;
      case "closing": logLine("chat", "the host is closing: " + msg.reason, "error"); break;
      case "error":
        if (!joined) {
          if (hello && hello.token) localStorage.removeItem(KEY);
          $("join-error").textContent = msg.message;
          $("join").hidden = false;
        } else if (Setup.active()) {
          Setup.refused(msg.message);
        } else {
          $("error").textContent = msg.message;
        }
        break;
      default: break;
    }
  }

  function connect(then) {
    socket = new WebSocket("ws://" + location.host + "/ws");
    socket.addEventListener("open", () => { $("connection").hidden = true; then(); });
    socket.addEventListener("message", (ev) => {
      try { onMessage(JSON.parse(ev.data)); } catch (e) { /* not ours */ }
    });
    socket.addEventListener("close", () => {
      $("connection").hidden = false;
      const back = remembered();
      if (joined && back && !replaced) {
        joined = false;
        setTimeout(() => join({ type: "hello", version: VERSION, name: back.name, token: back.token }), 1500);
      }
    });
  }

  function join(msg) {
    hello = msg;
    connect(() => send(msg));
  }

  async function showPicker() {
    try {
      const info = await (await fetch("/info.json")).json();
      $("variant").textContent = info.variant;
      const seats = info.players.map((p) => Board.el("option", p));
      seats.unshift(Board.el("option", "first free seat"));
      seats[0].value = "";
      const watch = Board.el("option", "watch (spectator)");
      watch.value = "*spectator";
      seats.push(watch);
      $("seat-choice").replaceChildren(...seats);
    } catch (e) { $("join-error").textContent = "cannot read the game's seats"; }
    $("join").hidden = false;
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("join").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const seat = $("seat-choice").value;
      const msg = { type: "hello", version: VERSION, name: $("name").value.trim() || "guest" };
      if (seat === "*spectator") msg.spectator = true;
      else if (seat) msg.seat = seat;
      $("join-error").textContent = "";
      if (socket && socket.readyState === WebSocket.OPEN) { hello = msg; send(msg); } else join(msg);
    });
    $("chat-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("chat-input").value;
      $("chat-input").value = "";
      if (text.trim()) send({ type: "chat", text });
    });
    const back = remembered();
    showPicker();
    if (back) join({ type: "hello", version: VERSION, name: back.name, token: back.token });
  });
})();

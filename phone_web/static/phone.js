/* Cuckoo Party phone page: join, my card, my buttons, live. Talks only to the API of
PHONE_API.md; every text goes through t(); names and cards are set as textContent only. */
(() => {
"use strict";
const $ = (id) => document.getElementById(id);
const L = document.documentElement.lang;
const M = JSON.parse($("i18n").textContent);
const PL = new Intl.PluralRules(L);
const SUIT = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const S = { room: $("main").dataset.room, wait: 500 }; /* token, view, es, timer, busy, alerted */

function t(key, p = {}) {
  let m = M.phone[key] ?? M.common[key] ?? key;
  if (typeof m === "object") m = m[PL.select(p.count ?? 1)] ?? m.other;
  return m.replace(/\{(\w+)\}/g, (_, k) => String(p[k] ?? ""));
}
const red = (c) => /[HD]$/.test(c);
const rank = (c) => c.slice(0, -1);
const suit = (c) => c.slice(-1);
const show = (c) => rank(c) + SUIT[suit(c)];
const rankName = (r) => M.common["rank_" + r] ?? r;
const cardName = (c) => t("card_name", { rank: rankName(rank(c)), suit: M.common["suit_" + suit(c)] });
function el(tag, text, cls, label) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  if (label) e.setAttribute("aria-label", label);
  return e;
}
const key = () => "cuckoo:token:" + S.room;
const pref = (k) => localStorage.getItem("cuckoo:" + k) !== "off";
const txt = (id, s) => { $(id).textContent = s; };
const busy = (on) => { S.busy = on; document.querySelectorAll("#actions button").forEach((b) => { b.disabled = on; }); };

async function api(path, body) {
  const o = { headers: {}, cache: "no-store" };
  if (S.token) o.headers.Authorization = "Bearer " + S.token;
  if (body) Object.assign(o, { method: "POST", body: JSON.stringify(body) }).headers["Content-Type"] = "application/json";
  const r = await fetch(path, o);
  return { status: r.status, data: await r.json().catch(() => ({})) };
}

/* ---- room code and join ---- */
function view(name) {
  for (const id of ["room-form", "join-form", "game"]) $(id).hidden = id !== name;
  if (name !== "room-form") { $("room-badge").hidden = false; txt("room-badge", t("room_badge", { room: S.room })); }
  if (name === "room-form") $("room-input").focus();
  if (name === "join-form") $("name-input").focus();
}
$("room-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  S.room = $("room-input").value.trim().toUpperCase();
  if (!S.room) return;
  const u = new URL(location.href);
  u.searchParams.set("room", S.room);
  history.replaceState(null, "", u);
  document.querySelectorAll("nav a").forEach((a) => { a.search = "?room=" + encodeURIComponent(S.room) + "&lang=" + a.lang; });
  start();
});
$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const b = $("join-button"), err = $("join-error");
  b.disabled = true; b.textContent = t("joining"); err.textContent = "";
  try {
    const r = await api("/api/join", { name: $("name-input").value, room: S.room });
    if (r.status === 201 && r.data.token) {
      S.token = r.data.token;
      localStorage.setItem(key(), S.token);
      sound();
      connect();
    } else err.textContent = t(M.phone["err_" + r.data.error] ? "err_" + r.data.error : "err_other");
  } catch (e) { err.textContent = t("err_network"); }
  b.disabled = false; b.textContent = t("join");
});

/* ---- live: one event stream; on loss, back off, re-fetch, listen again ---- */
const banner = (on) => { $("banner").hidden = !on; };
function connect() {
  if (S.es) S.es.close();
  clearTimeout(S.timer);
  const es = new EventSource("/api/events?token=" + encodeURIComponent(S.token));
  S.es = es;
  es.onmessage = (m) => { S.wait = 500; banner(false); render(JSON.parse(m.data)); };
  es.onerror = () => { es.close(); if (S.es === es) { S.es = null; lost(); } };
}
function lost() {
  banner(true);
  if (S.es) { S.es.close(); S.es = null; }
  clearTimeout(S.timer);
  S.timer = setTimeout(refresh, S.wait);
  S.wait = Math.min(S.wait * 2, 5000);
}
async function refresh() {
  if (!S.token) return;
  try {
    const r = await api("/api/state");
    if (r.status === 401) return forget();
    if (r.status !== 200) throw new Error(r.status);
    render(r.data);
    banner(false);
    if (!S.es) connect();
  } catch (e) { lost(); }
}
function forget() {
  localStorage.removeItem(key());
  S.token = null;
  if (S.es) { S.es.close(); S.es = null; }
  banner(false);
  view("join-form");
}
/* back from sleep or offline: a stream may be silently dead, so fetch now and listen anew */
const again = () => { if (S.token) { S.wait = 500; if (S.es) { S.es.close(); S.es = null; } refresh(); } };
document.addEventListener("visibilitychange", () => { if (!document.hidden) again(); });
addEventListener("online", again);
addEventListener("offline", () => { if (S.token) banner(true); });

/* ---- actions: disabled at the tap; the step makes a double tap harmless anyway ---- */
async function act(action) {
  if (S.busy || !S.view) return;
  busy(true);
  txt("action-error", "");
  let v = null;
  try {
    const r = await api("/api/action", { action, step: S.view.step });
    if (r.status === 200) v = r.data;
    else if (r.status === 401) { busy(false); return forget(); }
    else if (r.data.error !== "stale_step") txt("action-error", t("err_bad_action"));
  } catch (e) { txt("action-error", t("err_network")); }
  S.busy = false;
  if (v) render(v); else refresh();
}

/* ---- alerts on my turn ---- */
let audio = null;
function sound() { try { audio = audio || new AudioContext(); audio.resume(); } catch (e) { audio = null; } }
function alertTurn() {
  if (pref("vibrate") && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  if (!pref("sound") || !audio) return;
  try {
    const o = audio.createOscillator(), g = audio.createGain(), now = audio.currentTime;
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.2, now);
    g.gain.exponentialRampToValueAtTime(0.001, now + 0.25);
    o.connect(g).connect(audio.destination);
    o.start(now); o.stop(now + 0.25);
  } catch (e) { /* no sound here */ }
}
for (const k of ["sound", "vibrate"]) {
  const box = $("opt-" + k);
  box.checked = pref(k);
  box.addEventListener("change", () => { localStorage.setItem("cuckoo:" + k, box.checked ? "on" : "off"); if (box.checked) sound(); });
}
document.addEventListener("pointerdown", sound, { once: true });

/* ---- rendering: the whole view, every time ---- */
function render(v) {
  if (!v || !v.me || (S.view && v.step < S.view.step)) return; /* a late, older message */
  S.view = v;
  const me = v.me, log = v.log || [], names = {};
  v.players.forEach((p) => { names[p.id] = p.name; });
  const nm = (id) => names[id] ?? "?";
  const mine = v.phase === "turns" && v.current === me.id;
  const seated = v.players.filter((p) => p.status === "active").length;
  view("game");
  Object.assign($("main").dataset, { step: v.step, phase: v.phase });
  document.body.classList.toggle("myturn", mine);

  txt("me-name", me.name);
  const lives = $("lives");
  lives.textContent = "";
  const full = Math.max((v.house_rules || []).includes("H1") ? 5 : 3, me.lives);
  for (let i = 0; i < full; i++) lives.append(el("span", i < me.lives ? "\u25cf" : "\u25cb", i < me.lives ? "" : "lost"));
  lives.setAttribute("aria-label", t("lives", { count: me.lives }));
  txt("me-status", t("status_" + me.status));

  const c = me.card, card = $("card");
  card.className = c ? (red(c) ? "red" : "") : "none";
  card.dataset.card = c || "";
  txt("rank", c ? rank(c) : "");
  txt("suit", c ? SUIT[suit(c)] : "");
  txt("suit-name", c ? M.common["suit_" + suit(c)] : t("no_card"));
  card.setAttribute("aria-label", t("your_card", { card: c ? cardName(c) : t("no_card") }));

  txt("dealer", v.dealer && v.phase !== "lobby" && v.phase !== "game_over" ? (v.dealer === me.id ? t("you_deal") : t("dealer_is", { name: nm(v.dealer) })) : "");
  let line = "";
  if (v.phase === "turns") line = mine ? t(v.dealer === me.id ? "your_turn_dealer" : "your_turn") : t("deciding", { name: nm(v.current) });
  else if (me.status === "waiting") line = t("waiting_note");
  else if (v.phase === "lobby") line = !me.is_vip ? t("lobby_wait", { name: nm(v.vip) }) : seated < 3 ? t("need_players", { count: 3 - seated }) : "";
  else if (v.phase === "reveal" && v.next_dealer && !v.can.includes("deal")) line = t("next_dealer", { name: nm(v.next_dealer) });
  else if (v.phase === "game_over" && !v.can.includes("new_game")) line = t("new_game_wait", { name: nm(v.vip) });
  txt("turn", line);

  /* my buttons, each with one line saying what it does */
  const box = $("actions"), order = v.order || [], shown = c ? show(c) : "";
  box.textContent = "";
  if (!v.can.length) txt("action-error", "");
  const hint = {
    start: () => t("start_hint"),
    keep: () => t("keep_hint", { card: shown }),
    exchange: () => t("exchange_hint", { name: nm(order[order.indexOf(me.id) + 1]) }),
    cut: () => t(log.some((e) => e.type === "cut" && e.dealer === me.id) ? "cut_again_hint" : "cut_hint"),
    deal: () => t("deal_hint", { round: v.round + 1 }),
    new_game: () => t("new_game_hint"),
  };
  v.can.filter((a) => hint[a]).forEach((a, i) => {
    const b = el("button", a === "start" ? t("start", { count: seated }) : t(a), i ? "alt" : "");
    const h = el("small", hint[a]());
    Object.assign(b, { type: "button", disabled: S.busy });
    b.dataset.action = a;
    h.id = "hint-" + a;
    b.setAttribute("aria-describedby", h.id);
    b.addEventListener("click", () => act(a));
    const wrap = el("div", null, "act");
    wrap.append(b, h);
    box.append(wrap);
  });

  outcome(v, nm);
  story(v, nm);
  players(v);
  if (mine && !S.alerted) alertTurn();
  S.alerted = mine;
}

/* reveal: the lowest card, who lost a life, who is out; at the end the winner(s) */
function outcome(v, nm) {
  const ul = $("outcome-lines"), me = v.me.id, over = v.phase === "game_over";
  ul.textContent = "";
  $("outcome").hidden = !(over || v.phase === "reveal");
  const lives = {};
  v.players.forEach((p) => { lives[p.id] = p.lives; });
  const w = over ? v.winners || [] : [];
  if (w.length === 1) ul.append(el("li", w[0] === me ? t("you_win") : t("winner", { name: nm(w[0]) }), "big"));
  if (w.length > 1) ul.append(el("li", t("joint_winners", { names: new Intl.ListFormat(L).format(w.map(nm)) }), "big"));
  const rv = (v.log || []).filter((e) => e.type === "reveal").pop();
  if (rv && rv.lowest && !$("outcome").hidden) ul.append(el("li", t("lowest", { rank: rankName(rv.lowest) })));
  for (const p of v.players) if (p.card && !$("outcome").hidden) ul.append(row(p, v));
  for (const id of v.losers || []) if (lives[id]) ul.append(el("li", id === me ? t("you_lost_life", { count: lives[id] }) : t("lost_life", { name: nm(id), count: lives[id] })));
  for (const id of v.eliminated || []) ul.append(el("li", id === me ? t("you_out") : t("is_out", { name: nm(id) })));
}

/* the round told from my seat: public lines, my own trades told in full, newest first */
function story(v, nm) {
  const ul = $("story"), me = v.me.id, mine = (v.me.history || []).slice();
  const take = (type) => { const i = mine.findIndex((e) => e.type === type); return i < 0 ? null : mine.splice(i, 1)[0]; };
  const call = (e) => t(e.call === "chase" ? "call_chase" : "call_cuckoo");
  const card = v.me.card ? show(v.me.card) : "";
  ul.textContent = "";
  for (const e of v.log || []) {
    let s = "", x;
    if (e.type === "kept") s = e.player === me ? t(e.auto ? "you_kept_auto" : "you_kept", { card }) : t(e.auto ? "log_kept_auto" : "log_kept", { name: nm(e.player) });
    else if (e.type === "exchanged") {
      x = e.player === me || e.target === me ? take("swap") : null;
      s = !x ? t("log_exchanged", { name: nm(e.player), target: nm(e.target) })
        : t(x.player === me ? "you_gave" : "took_yours", { name: nm(x.player === me ? x.target : x.player), gave: show(x.gave), got: show(x.got) });
    } else if (e.type === "blocked") {
      const p = { name: nm(e.player === me ? e.target : e.player), target: nm(e.target), king: show(e.king), call: call(e), card };
      s = t(e.player === me ? "you_blocked" : e.target === me ? "you_showed" : "log_blocked", p);
    } else if (e.type === "cut_taken") {
      x = e.dealer === me ? take("cut_card") : null;
      s = x ? t("you_cut", { card: show(x.card), discarded: show(x.discarded) }) : t("log_cut_taken", { name: nm(e.dealer) });
    } else if (e.type === "cut_king") s = t(e.dealer === me ? "you_cut_king" : "log_cut_king", { name: nm(e.dealer), king: show(e.king), call: call(e), card });
    if (s) ul.prepend(el("li", s));
  }
}

/* one player: name, then the card when it may be seen (a shown King, the reveal) */
function row(p, v) {
  const li = el("li", null, (v.losers || []).includes(p.id) ? "row lost" : "row");
  li.append(el("span", p.name, "n"));
  if (p.card) li.append(el("span", show(p.card), red(p.card) ? "c red" : "c", cardName(p.card)));
  return li;
}

function players(v) {
  const ul = $("players");
  ul.textContent = "";
  for (const p of v.players) {
    const li = row(p, v);
    li.append(el("span", "\u25cf".repeat(p.lives), "l", t("lives", { count: p.lives })));
    const badges = [[p.id === v.me.id, "you"], [p.id === v.dealer && v.phase !== "lobby", "dealer"], [p.id === v.current, "turn"],
      [p.status === "eliminated", "out"], [p.status === "waiting", "waiting"], [p.connected === false && !p.bot, "offline"]];
    for (const [on, b] of badges) if (on) li.append(el("span", t("badge_" + b), "b"));
    ul.append(li);
  }
}

function start() {
  if (!S.room) return view("room-form");
  S.token = localStorage.getItem(key());
  if (S.token) connect(); else view("join-form");
}
start();
})();

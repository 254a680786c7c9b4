/* Cuckoo Party phone page: join, my card, my buttons, live. Talks only to the API of
PHONE_API.md; every text goes through t(); names and cards are set as textContent only.
Written small on purpose (issue 4: page and assets under 20 KB): short local names, one
helper per repeated DOM call; compact() in page.py strips comments and spaces on serve. */
(() => {
"use strict";
const D = document, LS = localStorage, $ = (id) => D.getElementById(id), L = D.documentElement.lang,
  M = JSON.parse($("i18n").textContent), PL = new Intl.PluralRules(L),
  SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" },
  S = { room: $("main").dataset.room, wait: 500 }, /* token, view, es, timer, busy, alerted */
  on = (x, type, f, o) => x.addEventListener(type, f, o),

  /* a message: plural forms by count, {placeholders} filled (M is flat: phone + card words) */
  t = (k, p = {}) => {
    let m = M[k] ?? k;
    if (typeof m === "object") m = m[PL.select(p.count ?? 1)] ?? m.other;
    return m.replace(/\{(\w+)\}/g, (_, k) => String(p[k] ?? ""));
  },
  red = (c) => /[HD]$/.test(c), rank = (c) => c.slice(0, -1), suit = (c) => c.slice(-1),
  show = (c) => rank(c) + SUIT[suit(c)], rankName = (r) => M["rank_" + r] ?? r,
  cardName = (c) => t("card_name", { rank: rankName(rank(c)), suit: M["suit_" + suit(c)] }),
  list = (a) => new Intl.ListFormat(L).format(a),
  el = (tag, s, cls, aria) => {
    const e = D.createElement(tag);
    if (s != null) e.textContent = s;
    if (cls) e.className = cls;
    if (aria) e.setAttribute("aria-label", aria);
    return e;
  },
  key = () => "cuckoo:token:" + S.room, pref = (k) => LS.getItem("cuckoo:" + k) !== "off",
  /* set an element's text (empty to refill it) and hand the element back */
  txt = (id, s) => { const e = $(id); e.textContent = s; return e; },
  busy = (b) => { S.busy = b; D.querySelectorAll("#actions button").forEach((x) => { x.disabled = b; }); },
  shut = () => { if (S.es) { S.es.close(); S.es = null; } },
  banner = (b) => { $("banner").hidden = !b; },

  /* [status, JSON body or {}] */
  api = async (path, body) => {
    const o = { headers: {}, cache: "no-store" };
    if (S.token) o.headers.Authorization = "Bearer " + S.token;
    if (body) Object.assign(o, { method: "POST", body: JSON.stringify(body) }).headers["Content-Type"] = "application/json";
    const r = await fetch(path, o);
    return [r.status, await r.json().catch(() => ({}))];
  },

  /* ---- room code and join ---- */
  view = (name) => {
    for (const id of ["room-form", "join-form", "game"]) $(id).hidden = id !== name;
    if (name === "room-form") return $("room-input").focus();
    txt("room-badge", t("room_badge", { room: S.room })).hidden = false;
    if (name === "join-form") $("name-input").focus();
  };
on($("room-form"), "submit", (ev) => {
  ev.preventDefault();
  S.room = $("room-input").value.trim().toUpperCase();
  if (!S.room) return;
  const u = new URL(location.href);
  u.searchParams.set("room", S.room);
  history.replaceState(null, "", u);
  D.querySelectorAll("nav a").forEach((a) => { a.search = "?room=" + encodeURIComponent(S.room) + "&lang=" + a.lang; });
  start();
});
on($("join-form"), "submit", async (ev) => {
  ev.preventDefault();
  const b = $("join-button"), err = txt("join-error", "");
  b.disabled = true; b.textContent = t("joining");
  try {
    const [s, d] = await api("/api/join", { name: $("name-input").value, room: S.room });
    if (s === 201 && d.token) { LS.setItem(key(), S.token = d.token); sound(); connect(); }
    else err.textContent = t(M["err_" + d.error] ? "err_" + d.error : "err_other");
  } catch { err.textContent = t("err_network"); }
  b.disabled = false; b.textContent = t("join");
});

/* ---- live: one event stream; on loss, back off, re-fetch, listen again ---- */
const connect = () => {
  shut();
  clearTimeout(S.timer);
  const es = S.es = new EventSource("/api/events?token=" + encodeURIComponent(S.token));
  es.onmessage = (m) => { S.wait = 500; banner(0); render(JSON.parse(m.data)); };
  es.onerror = () => { es.close(); if (S.es === es) { S.es = null; lost(); } };
  /* issue 15: another tab or phone took this seat's stream; stay quiet until asked back */
  on(es, "replaced", () => { shut(); $("moved").hidden = !(S.moved = 1); });
},
  lost = () => {
    banner(1);
    shut();
    clearTimeout(S.timer);
    S.timer = setTimeout(refresh, S.wait);
    S.wait = Math.min(S.wait * 2, 5000);
  },
  refresh = async () => {
    if (!S.token) return;
    try {
      const [s, d] = await api("/api/state");
      if (s === 401) return forget();
      if (s !== 200) throw s;
      render(d);
      banner(0);
      if (!S.es && !S.moved) connect();
    } catch { lost(); }
  },
  forget = () => {
    LS.removeItem(key());
    S.token = null;
    shut();
    banner(0);
    view("join-form");
  },
  /* back from sleep or offline: a stream may be silently dead, so fetch now and listen anew */
  again = () => { if (S.token && !S.moved) { S.wait = 500; shut(); refresh(); } };
on(D, "visibilitychange", () => { if (!D.hidden) again(); });
on(window, "online", again);
on($("back"), "click", () => { $("moved").hidden = !(S.moved = 0); connect(); });
on(window, "offline", () => { if (S.token) banner(1); });

/* ---- actions: disabled at the tap; the step makes a double tap harmless anyway ---- */
const act = async (action, extra) => {
  if (S.busy || !S.view) return null;
  busy(true);
  const err = txt("action-error", "");
  let v = null;
  try {
    const [s, d] = await api("/api/action", { ...extra, action, step: S.view.step });
    if (s === 200) v = d;
    else if (s === 401) { busy(false); forget(); return null; }
    else if (d.error !== "stale_step") err.textContent = t(M["err_" + d.error] ? "err_" + d.error : "err_bad_action");
  } catch { err.textContent = t("err_network"); }
  S.busy = false;
  v ? render(v) : refresh();
  return v;
};
/* the add-on interface (PHONE_ADDONS.md): add-on scripts run after this one */
window.cuckoo = {
  t, send: act, cardName, cardSymbol: show, view: () => S.view || null,
  request: (method, path, body) => fetch(path, { method, cache: "no-store", headers: { Authorization: "Bearer " + S.token, "Content-Type": "application/json" }, body: body == null ? undefined : JSON.stringify(body) })
};

/* ---- alerts on my turn ---- */
let audio = null;
const sound = () => { try { audio ||= new AudioContext(); audio.resume(); } catch { audio = null; } },
  alertTurn = () => {
    if (pref("vibrate") && navigator.vibrate) navigator.vibrate([120, 60, 120]);
    if (!pref("sound") || !audio) return;
    try {
      const o = audio.createOscillator(), g = audio.createGain(), now = audio.currentTime;
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.2, now);
      g.gain.exponentialRampToValueAtTime(0.001, now + 0.25);
      o.connect(g).connect(audio.destination);
      o.start(now); o.stop(now + 0.25);
    } catch { /* no sound here */ }
  };
for (const k of ["sound", "vibrate"]) {
  const box = $("opt-" + k);
  box.checked = pref(k);
  on(box, "change", () => { LS.setItem("cuckoo:" + k, box.checked ? "on" : "off"); if (box.checked) sound(); });
}
on(D, "pointerdown", sound, { once: true });

/* ---- H4 rapid: seconds left on my turn (the host's own timer decides; this only shows it) ---- */
let ticker = 0;
const clock = (v, mine) => {
  clearInterval(ticker);
  const limit = v.rapid_seconds, left = () => Math.max(0, Math.ceil(limit - (Date.now() - S.since) / 1e3)),
    shown = () => txt("clock", t("time_left", { count: left() }));
  if (!mine || !limit) return txt("clock", "");
  if (S.turnStep !== v.step) Object.assign(S, { turnStep: v.step, since: Date.now() });
  shown();
  ticker = setInterval(shown, 500);
};

/* ---- rendering: the whole view, every time ---- */
const render = (v) => {
  if (!v || !v.me || (S.view && v.step < S.view.step)) return; /* a late, older message */
  S.view = v;
  const me = v.me, ph = v.phase, can = v.can, names = {}, nm = (id) => names[id] ?? "?",
    mine = ph === "turns" && v.current === me.id, seated = v.players.filter((p) => p.status === "active" && p.connected !== false).length;
  v.players.forEach((p) => { names[p.id] = p.name; });
  view("game");
  Object.assign($("main").dataset, { step: v.step, phase: ph });
  D.body.classList.toggle("myturn", mine);

  txt("me-name", me.name);
  const lives = txt("lives", ""), n = me.lives, full = Math.max((v.house_rules || []).includes("H1") ? 5 : 3, n);
  for (let i = 0; i < full; i++) lives.append(el("span", i < n ? "●" : "○", i < n ? "" : "lost"));
  lives.setAttribute("aria-label", t("lives", { count: n }));
  txt("me-status", t("status_" + me.status));

  const c = me.card, card = $("card");
  card.className = c ? (red(c) ? "red" : "") : "none";
  card.dataset.card = c || "";
  txt("rank", c ? rank(c) : "");
  txt("suit", c ? SUIT[suit(c)] : "");
  txt("suit-name", c ? M["suit_" + suit(c)] : t("no_card"));
  card.setAttribute("aria-label", t("your_card", { card: c ? cardName(c) : t("no_card") }));

  txt("dealer", v.dealer && ph !== "lobby" && ph !== "game_over" ? (v.dealer === me.id ? t("you_deal") : t("dealer_is", { name: nm(v.dealer) })) : "");
  let line = "";
  if (ph === "turns") line = mine ? t(v.dealer === me.id ? "your_turn_dealer" : "your_turn") : t("deciding", { name: nm(v.current) });
  else if (me.status === "waiting") line = t("waiting_note");
  else if (ph === "lobby") line = !me.is_vip ? t("lobby_wait", { name: nm(v.vip) }) : seated < 3 ? t("need_players", { count: 3 - seated }) : "";
  else if (ph === "reveal" && v.next_dealer && !can.includes("deal")) line = t("next_dealer", { name: nm(v.next_dealer) });
  else if (ph === "game_over" && !can.includes("new_game")) line = t("new_game_wait", { name: nm(v.vip) });
  txt("turn", line);
  clock(v, mine);

  /* my buttons, each with one line saying what it does */
  const box = txt("actions", ""), order = v.order || [], shown = c ? show(c) : "";
  if (!can.length) txt("action-error", "");
  const hint = {
    start: t("start_hint"),
    keep: t("keep_hint", { card: shown }),
    exchange: t("exchange_hint", { name: nm(order[order.indexOf(me.id) + 1]) }),
    cut: t((v.log || []).some((e) => e.type === "cut" && e.dealer === me.id) ? "cut_again_hint" : "cut_hint"),
    deal: t("deal_hint", { round: v.round + 1 }),
    new_game: t("new_game_hint")
  };
  can.filter((a) => hint[a]).forEach((a, i) => {
    const b = el("button", a === "start" ? t("start", { count: seated }) : t(a), i ? "alt" : ""),
      h = el("small", hint[a]), w = el("div", null, "act");
    Object.assign(b, { type: "button", disabled: S.busy });
    b.dataset.action = a;
    h.id = "hint-" + a;
    b.setAttribute("aria-describedby", h.id);
    on(b, "click", () => act(a));
    w.append(b, h);
    box.append(w);
  });

  outcome(v, nm);
  story(v, nm);
  players(v);
  if (mine && !S.alerted) alertTurn();
  S.alerted = mine;
  D.dispatchEvent(new CustomEvent("cuckoo:view", { detail: v }));
},

  /* reveal: the lowest card, who lost a life, who is out; H5 sudden-death deals; the winner(s) */
  outcome = (v, nm) => {
    const ul = txt("outcome-lines", ""), me = v.me.id, over = v.phase === "game_over", open = over || v.phase === "reveal",
      add = (s, cls) => ul.append(el("li", s, cls)), lives = {}, w = over ? v.winners || [] : [],
      rv = (v.log || []).filter((e) => e.type === "reveal").pop(), deals = over ? v.sudden_death || [] : [];
    $("outcome").hidden = !open;
    v.players.forEach((p) => { lives[p.id] = p.lives; });
    if (w.length === 1) add(w[0] === me ? t("you_win") : t("winner", { name: nm(w[0]) }), "big");
    if (w.length > 1) add(t("joint_winners", { names: list(w.map(nm)) }), "big");
    if (rv && rv.lowest && open) add(t("lowest", { rank: rankName(rv.lowest) }));
    for (const p of v.players) if (p.card && open) ul.append(row(p, v));
    /* H5: every deal but the last was a tie for highest; the last one's highest card won the game */
    deals.forEach((deal, i) => {
      const cards = list(Object.keys(deal).map((id) => t("sudden_card", { name: nm(id), card: show(deal[id]) })));
      add(i < deals.length - 1 ? t("sudden_tie", { cards }) : t("sudden_won", { cards, name: nm(w[0]) }));
    });
    for (const id of v.losers || []) if (lives[id]) add(id === me ? t("you_lost_life", { count: lives[id] }) : t("lost_life", { name: nm(id), count: lives[id] }));
    for (const id of v.eliminated || []) add(id === me ? t("you_out") : t("is_out", { name: nm(id) }));
  },

  /* the round told from my seat: public lines, my own trades told in full, newest first */
  story = (v, nm) => {
    const ul = txt("story", ""), me = v.me.id, mine = (v.me.history || []).slice(),
      take = (type) => { const i = mine.findIndex((e) => e.type === type); return i < 0 ? null : mine.splice(i, 1)[0]; },
      call = (e) => t(e.call === "chase" ? "call_chase" : "call_cuckoo"), card = v.me.card ? show(v.me.card) : "";
    for (const e of v.log || []) {
      let s = "", x, y = e.type;
      if (y === "kept") s = e.player === me ? t(e.auto ? "you_kept_auto" : "you_kept", { card }) : t(e.auto ? "log_kept_auto" : "log_kept", { name: nm(e.player) });
      else if (y === "exchanged") {
        x = e.player === me || e.target === me ? take("swap") : null;
        s = !x ? t("log_exchanged", { name: nm(e.player), target: nm(e.target) })
          : t(x.player === me ? "you_gave" : "took_yours", { name: nm(x.player === me ? x.target : x.player), gave: show(x.gave), got: show(x.got) });
      } else if (y === "blocked") {
        const p = { name: nm(e.player === me ? e.target : e.player), target: nm(e.target), king: show(e.king), call: call(e), card };
        s = t(e.player === me ? "you_blocked" : e.target === me ? "you_showed" : "log_blocked", p);
      } else if (y === "cut_taken") {
        x = e.dealer === me ? take("cut_card") : null;
        s = x ? t("you_cut", { card: show(x.card), discarded: show(x.discarded) }) : t("log_cut_taken", { name: nm(e.dealer) });
      } else if (y === "cut_king") s = t(e.dealer === me ? "you_cut_king" : "log_cut_king", { name: nm(e.dealer), king: show(e.king), call: call(e), card });
      if (s) ul.prepend(el("li", s));
    }
  },

  /* one player: name, then the card when it may be seen (a shown King, the reveal) */
  row = (p, v) => {
    const li = el("li", null, (v.losers || []).includes(p.id) ? "row lost" : "row");
    li.append(el("span", p.name, "n"));
    if (p.card) li.append(el("span", show(p.card), red(p.card) ? "c red" : "c", cardName(p.card)));
    return li;
  },

  players = (v) => {
    const ul = txt("players", "");
    for (const p of v.players) {
      const li = row(p, v), badges = [[p.id === v.me.id, "you"], [p.id === v.dealer && v.phase !== "lobby", "dealer"], [p.id === v.current, "turn"],
        [p.status === "eliminated", "out"], [p.status === "waiting", "waiting"], [p.connected === false && !p.bot, "offline"]];
      li.append(el("span", "●".repeat(p.lives), "l", t("lives", { count: p.lives })));
      for (const [on, b] of badges) if (on) li.append(el("span", t("badge_" + b), "b"));
      ul.append(li);
    }
  },

  start = () => {
    if (!S.room) return view("room-form");
    S.token = LS.getItem(key());
    S.token ? connect() : view("join-form");
  };
/* ---- add-ons (PHONE_ADDONS.md): the one interface they use; their scripts come after this one ---- */
window.cuckoo = {
  t, cardName, cardSymbol: show, view: () => S.view || null,
  request: (method, path, body) => fetch(path, { method, cache: "no-store", body: body == null ? null : JSON.stringify(body),
    headers: Object.assign({ "Content-Type": "application/json" }, S.token ? { Authorization: "Bearer " + S.token } : {}) }),
  send: async (action, extra) => {
    const [s, d] = await api("/api/action", Object.assign({ action, step: S.view.step }, extra));
    if (s === 200) { render(d); return d; }
    txt("action-error", t("err_bad_action"));
    return null;
  }
};
start();
})();

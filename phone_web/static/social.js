/* Cuckoo Party phone add-on "social" (issue 14): tonight's standings (my line highlighted),
reactions and a prediction for guests who are not playing this round, and a first-time
"How to play" card in the lobby. Uses only window.cuckoo (PHONE_ADDONS.md): every text through
cuckoo.t("social.<key>"), names as textContent, its own POST /api/social (never a game action). */
(() => {
"use strict";
const C = window.cuckoo, D = document;
if (!C) return;
const t = (k, p) => C.t("social." + k, p),
  REACTIONS = ["❤", "★", "☺", "☹", "⚡", "✌"],
  S = {}, /* keys of what is drawn, so unchanged controls are never rebuilt (issue 19) */
  el = (tag, s, cls) => {
    const e = D.createElement(tag);
    if (s != null) e.textContent = s;
    if (cls) e.className = cls;
    return e;
  },
  part = (id, parent) => {
    let e = D.getElementById(id);
    if (!e) { e = el("div"); e.id = id; parent.append(e); }
    return e;
  },
  panel = () => {
    let p = D.getElementById("social-panel");
    if (!p) { p = el("section"); p.id = "social-panel"; D.getElementById("main").append(p); }
    return p;
  },
  say = (s) => { part("social-note", panel()).textContent = s; },
  post = async (body) => {
    try {
      const r = await C.request("POST", "/api/social", body), d = await r.json().catch(() => ({}));
      say(r.ok ? "" : d.message || t("error_not_allowed_now"));
      return r.ok ? d : null;
    } catch { return null; }
  },

  /* "How to play": shown once, in the lobby, until "Got it" (remembered on this phone) */
  howto = (v, p) => {
    const box = part("social-howto", p), seen = localStorage.getItem("cuckoo:howto") === "seen";
    box.hidden = seen || v.phase !== "lobby";
    if (box.hidden || box.childElementCount) return;
    box.append(el("h2", t("howto")));
    const cards = el("p", null, "howto-cards");
    for (const c of ["2♣", "⇄", "9♥", "·", "K♠"]) {
      const s = el("span", c);
      Object.assign(s.style, { display: "inline-block", minWidth: "2em", margin: "0 .2em", textAlign: "center", fontSize: "1.6em" });
      if (/[♥]/.test(c)) s.style.color = "#c00";
      cards.append(s);
    }
    cards.setAttribute("aria-hidden", "true");
    box.append(cards);
    const ol = el("ol");
    for (const k of ["howto_1", "howto_2", "howto_3", "howto_4"]) ol.append(el("li", t(k)));
    const b = el("button", t("howto_close"));
    b.type = "button";
    b.addEventListener("click", () => { localStorage.setItem("cuckoo:howto", "seen"); box.hidden = true; });
    box.append(ol, b);
  },

  /* reactions: between games, or while out or waiting */
  react = (v, p) => {
    const box = part("social-react", p), playing = v.me.status === "active" && v.phase !== "lobby" && v.phase !== "game_over";
    box.hidden = playing;
    if (playing || box.childElementCount) return;
    box.append(el("h2", t("react")));
    for (const e of REACTIONS) {
      const b = el("button", e, "alt");
      b.type = "button";
      Object.assign(b.style, { display: "inline-block", width: "auto", minWidth: "3.2em", margin: ".2em", fontSize: "1.4em" });
      b.setAttribute("aria-label", t("react_label", { emoji: e }));
      b.addEventListener("click", () => post({ react: e }));
      box.append(b);
    }
  },

  /* a prediction each round, for those not dealt in: who will lose a life? */
  predict = (v, p) => {
    const box = part("social-predict", p), order = v.order || [], names = {},
      open = v.phase === "turns" && !order.includes(v.me.id), mine = v.me.prediction || null,
      key = [open, v.round, order.join(), mine].join("|");
    box.hidden = !open;
    if (S.predict === key) return;
    S.predict = key;
    box.textContent = "";
    if (!open) return;
    v.players.forEach((x) => { names[x.id] = x.name; });
    box.append(el("h2", t("predict")));
    for (const id of order) {
      const b = el("button", names[id] ?? "?", id === mine ? "" : "alt");
      b.type = "button";
      b.setAttribute("aria-pressed", String(id === mine));
      b.addEventListener("click", async () => {
        const d = await post({ predict: id });
        if (d && d.me) { C.view().me.prediction = d.me.prediction; predict(C.view(), p); }
      });
      box.append(b);
    }
    if (mine) box.append(el("p", t("predict_mine", { name: names[mine] ?? "?" })));
  },

  /* tonight's standings, best first, my own line highlighted */
  standings = (v, p) => {
    const box = part("social-standings", p), rows = v.standings || [], key = JSON.stringify(rows) + v.me.id;
    box.hidden = !rows.length;
    if (S.standings === key) return;
    S.standings = key;
    box.textContent = "";
    if (!rows.length) return;
    box.append(el("h2", t("standings")));
    const ol = el("ol");
    for (const r of rows) {
      const li = el("li", null, r.player === v.me.id ? "row me" : "row"),
        who = r.name + (r.bot ? " (" + t("bot") + ")" : "");
      li.append(el("span", who, "name"));
      if (r.player === v.me.id) { li.setAttribute("aria-current", "true"); li.style.fontWeight = "bold"; li.append(el("span", t("you"), "b")); }
      li.append(el("span", t("wins") + " " + r.wins + " · " + t("games") + " " + r.games, "b"));
      if (r.good_guesses) li.append(el("span", t("guesses") + " " + r.good_guesses, "b"));
      for (const x of r.titles || []) li.append(el("span", t("title_" + x), "b"));
      ol.append(li);
    }
    box.append(ol);
  },

  draw = (v) => {
    if (!v || !v.me) return;
    const p = panel();
    howto(v, p);
    react(v, p);
    predict(v, p);
    standings(v, p);
    part("social-note", p);
  };
D.addEventListener("cuckoo:view", (e) => draw(e.detail));
draw(C.view());
})();

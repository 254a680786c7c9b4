/* The VIP's host controls on the phone (issue 13), an add-on of the phone page (PHONE_ADDONS.md).
Shown only to the VIP, and only the controls the view's "can" allows now: house rules H1-H8 as
switches with H4's seconds, computer players, kick (confirmed; away players first), make VIP,
skip, misdeal, end the game (confirmed), "How to play" on the TV, a new evening (confirmed), the
TV's language and voice. Texts through cuckoo.t;
names only as textContent; controls are built once and only updated, so focus stays put. */
(() => {
"use strict";
const C = window.cuckoo, D = document;
if (!C) return;
const t = (k, p) => C.t("vip." + k, p), RULES = ["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"],
  mk = (tag, cls, text) => { const e = D.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; },
  button = (text, f, cls) => { const b = mk("button", cls || "alt", text); b.type = "button"; b.addEventListener("click", f); return b; },
  panel = mk("section"), ask = mk("div", "vip-ask"), askText = mk("p"), box = {};
panel.id = "vip-panel";
panel.hidden = true;
ask.hidden = true;
ask.setAttribute("role", "alertdialog");
askText.id = "vip-ask-text";
ask.setAttribute("aria-labelledby", askText.id);

/* a confirmation inside the panel: Yes runs f, Cancel closes */
let onYes = null;
const yes = button(t("yes"), () => { const f = onYes; close(); if (f) f(); }, ""),
  close = () => { ask.hidden = true; onYes = null; },
  confirm = (text, f) => { askText.textContent = text; onYes = f; ask.hidden = false; yes.focus(); };
yes.id = "vip-yes";
ask.append(askText, yes, button(t("cancel"), close));

const section = (id, title) => { const s = mk("section"); s.id = "vip-" + id; s.append(mk("h2", null, t(title))); panel.append(s); return (box[id] = s); },
  send = (action, extra) => C.send(action, extra);

/* house rules: one switch per rule, its name and one line; H4's seconds */
const rules = section("rules", "rules_title"), switches = {}, seconds = mk("input");
rules.append(mk("small", null, t("rules_next_game")));
const chosen = () => RULES.filter((r) => switches[r].checked),
  sendRules = () => { const n = Math.round(+seconds.value); send("set_rules", n >= 5 && n <= 60 ? { rules: chosen(), rapid_seconds: n } : { rules: chosen() }); };
for (const r of RULES) {
  const label = mk("label", "vip-rule"), input = mk("input"), words = mk("span");
  input.type = "checkbox";
  input.id = "vip-rule-" + r;
  input.addEventListener("change", sendRules);
  words.append(mk("strong", null, t(r.toLowerCase() + "_name")), mk("small", null, t(r.toLowerCase() + "_text")));
  label.append(input, words);
  rules.append(label);
  switches[r] = input;
}
const secondsLabel = mk("label", "vip-rule", t("seconds_label"));
Object.assign(seconds, { type: "number", min: 5, max: 60, step: 1, id: "vip-seconds", inputMode: "numeric" });
seconds.addEventListener("change", sendRules);
secondsLabel.append(seconds);
rules.append(secondsLabel);

/* players: add a computer player with a strategy; everyone else with kick / make VIP */
const people = section("players", "players_title"), strategy = mk("select"), list = mk("ul");
strategy.id = "vip-strategy";
strategy.setAttribute("aria-label", t("strategy_label"));
const add = button(t("add_bot"), () => send("add_bot", { strategy: strategy.value }));
add.id = "vip-add-bot";
people.append(strategy, add, list);

/* this round */
const round = section("round", "round_title"),
  skip = button("", () => send("skip")),
  misdeal = button(t("misdeal"), () => send("misdeal")),
  end = button(t("end_game"), () => confirm(t("end_confirm"), () => send("end_game")));
skip.id = "vip-skip"; misdeal.id = "vip-misdeal"; end.id = "vip-end-game";
round.append(skip, misdeal, end);

/* the evening (issue 14): "How to play" on the TV (lobby), tonight's standings from zero */
const evening = section("evening", "evening_title"),
  howTo = button(t("how_to_play"), () => send("how_to_play")),
  fresh = button(t("new_evening"), () => confirm(t("new_evening_confirm"), () => send("new_evening")));
howTo.id = "vip-how-to-play"; fresh.id = "vip-new-evening";
evening.append(howTo, fresh);

/* the TV: language and voice (lobby) */
const tv = section("tv", "tv_title"), lang = mk("select"), voice = mk("input"), voiceLabel = mk("label", "vip-rule");
lang.id = "vip-tv-language";
lang.setAttribute("aria-label", t("tv_language"));
for (const [code, name] of [["en", "English"], ["fr", "Français"], ["it", "Italiano"]]) { const o = mk("option", null, name); o.value = code; o.lang = code; lang.append(o); }
lang.addEventListener("change", () => send("set_tv", { language: lang.value }));
voice.type = "checkbox";
voice.id = "vip-voice";
voice.addEventListener("change", () => send("set_tv", { voice_muted: !voice.checked }));
voiceLabel.append(voice, mk("span", null, t("voice")));
/* the music's volume on the TV (issue 20), in tens of percent */
const music = mk("input"), musicLabel = mk("label", "vip-rule vip-slider");
music.type = "range"; music.min = "0"; music.max = "100"; music.step = "10"; music.id = "vip-music";
music.addEventListener("change", () => send("set_tv", { music_volume: +music.value }));
musicLabel.append(mk("span", null, t("music_volume")), music);
tv.append(mk("label", null, t("tv_language")), lang, voiceLabel, musicLabel);
panel.prepend(mk("h2", "vip-title", t("panel_title")), ask);

/* everyone: "X is now the VIP." for a few seconds when the role moves */
const news = mk("p", null, "");
news.id = "vip-news";
news.setAttribute("role", "status");
let signature = "", lastVip = null, newsTimer = 0;
const announce = (v) => {
  if (!v || !v.me) return;
  if (!news.isConnected) D.getElementById("game").prepend(news);
  if (lastVip && v.vip && v.vip !== lastVip) {
    const who = v.players.find((p) => p.id === v.vip);
    news.textContent = t("now_vip", { name: who ? who.name : "" });
    clearTimeout(newsTimer);
    newsTimer = setTimeout(() => { news.textContent = ""; }, 6000);
  }
  lastVip = v.vip || lastVip;
};
const render = (v) => {
  announce(v);
  const me = v && v.me, can = (v && v.can) || [];
  panel.hidden = !(me && me.is_vip && ["set_rules", "kick", "make_vip", "misdeal", "end_game", "new_evening"].some((a) => can.includes(a)));
  if (panel.hidden) return close();
  if (!panel.isConnected) D.getElementById("game").append(panel);
  const has = (a) => can.includes(a), names = {};
  v.players.forEach((p) => { names[p.id] = p.name; });

  box.rules.hidden = !has("set_rules");
  for (const r of RULES) { const on = (v.house_rules || []).includes(r); if (switches[r].checked !== on) switches[r].checked = on; }
  secondsLabel.hidden = !switches.H4.checked;
  if (v.rapid_seconds && D.activeElement !== seconds) seconds.value = v.rapid_seconds;
  else if (!seconds.value) seconds.value = 10;

  add.hidden = strategy.hidden = !has("add_bot");
  const offered = (v.bot_strategies || []).join();
  if (strategy.dataset.offered !== offered) {
    strategy.dataset.offered = offered;
    strategy.textContent = "";
    for (const s of v.bot_strategies || []) { const o = mk("option", null, t("strategy_" + s)); o.value = s; strategy.append(o); }
  }
  /* the others, away ones first; rebuilt only when who/what changes */
  const gone = (p) => p.connected === false && !p.bot,
    others = v.players.filter((p) => p.id !== me.id).sort((a, b) => gone(b) - gone(a) || a.seat - b.seat),
    sig = JSON.stringify([others.map((p) => [p.id, p.name, p.connected, p.bot]), has("kick"), has("make_vip")]);
  box.players.hidden = !has("kick") && !has("add_bot");
  if (sig !== signature) {
    signature = sig;
    list.textContent = "";
    for (const p of others) {
      const li = mk("li", "row vip-player"), away = gone(p);
      li.dataset.player = p.id;
      li.append(mk("span", "name", p.name));
      if (away) li.append(mk("span", "b vip-away", t("away_tag")));
      if (p.bot) li.append(mk("span", "b", t("bot_tag")));
      if (has("kick")) li.append(button(t("remove"), () => confirm(t("kick_confirm", { name: p.name }), () => send("kick", { player: p.id })), "alt vip-kick"));
      if (has("make_vip") && !p.bot && !away) li.append(button(t("make_vip"), () => confirm(t("make_vip_confirm", { name: p.name }), () => send("make_vip", { player: p.id })), "alt vip-make"));
      list.append(li);
    }
  }

  box.round.hidden = !has("misdeal") && !has("end_game");
  skip.hidden = !has("skip") || !v.current;  /* named once the TV has shown whose turn it is */
  skip.textContent = t("skip", { name: names[v.current] || "" });
  misdeal.hidden = !has("misdeal");
  end.hidden = !has("end_game");

  box.evening.hidden = !has("how_to_play") && !has("new_evening");
  howTo.hidden = !has("how_to_play");
  fresh.hidden = !has("new_evening");

  box.tv.hidden = !has("set_tv");
  if (v.tv_language && lang.value !== v.tv_language) lang.value = v.tv_language;
  if (voice.checked !== !v.voice_muted) voice.checked = !v.voice_muted;
  if (v.music_volume != null && D.activeElement !== music) music.value = String(v.music_volume);
};
D.addEventListener("cuckoo:view", (e) => render(e.detail));
render(C.view());
})();

/* Tonight's party on the phone (issue 14), an add-on of the phone page (PHONE_ADDONS.md),
 * bundled for every phone: tonight's standings (my line highlighted), reactions and a
 * prediction for guests who are not playing this round, and a first-time "How to play" card in
 * the lobby, which a guest waiting for the next game or knocked out may open at any time.
 *
 * Uses only window.cuckoo: every text through cuckoo.t("social.<key>"), names as textContent,
 * and its own POST /api/social (never a game action, so the game's step never changes). Each
 * part remembers what it drew and is rebuilt only when that changes (issue 19: focus stays).
 */
(() => {
  "use strict";

  const cuckoo = window.cuckoo;
  if (!cuckoo) return;

  /** The reactions a guest may send to the TV. */
  const REACTIONS = ["\u2764", "\u2605", "\u263a", "\u2639", "\u26a1", "\u270c"];
  /** The "How to play" card's picture: a low card, an exchange, a higher one, a King. */
  const HOWTO_PICTURE = ["2\u2663", "\u21c4", "9\u2665", "\u00b7", "K\u2660"];
  const HOWTO_STEPS = ["howto_1", "howto_2", "howto_3", "howto_4"];
  /** Remembered on this phone once "Got it" is tapped. */
  const HOWTO_SEEN_KEY = "cuckoo:howto";

  /** This add-on's message: "social.<key>". */
  const t = (key, params) => cuckoo.t("social." + key, params);

  /** What each part last drew (a signature), so unchanged parts are left alone. */
  const drawn = {};

  /** The core page's element(tag, className, text): text is set as textContent only. */
  const element = cuckoo.element;

  /** The core page's button(text, onClick, className = "alt"). */
  const button = cuckoo.button;

  /** The add-on's section in <main>, made once. */
  function socialPanel() {
    let panel = document.getElementById("social-panel");
    if (!panel) {
      panel = element("section");
      panel.id = "social-panel";
      document.getElementById("main").append(panel);
    }
    return panel;
  }

  /** One part of the panel by id, made once. */
  function panelPart(id, panel) {
    let part = document.getElementById(id);
    if (!part) {
      part = element("div");
      part.id = id;
      panel.append(part);
    }
    return part;
  }

  /** How long a refusal stays under the panel: it is about the tap just made. */
  const NOTE_MS = 4000;
  let noteTimer = null;

  /** A short note under the panel: why a reaction or a guess was refused, or nothing. */
  function showNote(text) {
    panelPart("social-note", socialPanel()).textContent = text;
    clearTimeout(noteTimer);
    if (text) noteTimer = setTimeout(() => showNote(""), NOTE_MS);
  }

  /** POST /api/social; the answer's JSON, or null after showing why it was refused. */
  async function postSocial(body) {
    try {
      const response = await cuckoo.request("POST", "/api/social", body);
      const answer = await response.json().catch(() => ({}));
      /* in the page's language (the host's own message follows the browser's) */
      const refusal = answer.error === "too_fast" ? "error_too_fast" : "error_not_allowed_now";
      showNote(response.ok ? "" : t(refusal));
      return response.ok ? answer : null;
    } catch {
      return null;
    }
  }

  /* ------------------------------------------------ "How to play": once, in the lobby */

  /** Round 42's play-test: a guest who came mid-game ("You play from the next game") or is out
   * had nothing to read while waiting. They get a "How to play" button under the card; players
   * still in the game never do. */
  let howToOpen = false;
  const opener = button(t("howto"), () => {
    howToOpen = true;
    render(cuckoo.view());
    opener.after(document.getElementById("social-howto"));
    document.querySelector("#social-howto h2").focus(); /* read from its title */
  });
  opener.id = "social-howto-open";
  opener.hidden = true;
  document.getElementById("action-error").after(opener);

  function renderHowTo(view, panel) {
    const box = panelPart("social-howto", panel);
    const seen = localStorage.getItem(HOWTO_SEEN_KEY) === "seen";
    const waiting = view.phase !== "lobby" && view.me.status !== "active"; /* or out */
    howToOpen &&= waiting;
    opener.hidden = !waiting || howToOpen;
    box.hidden = !howToOpen && (seen || view.phase !== "lobby");
    /* H2: Kings do not block tonight; step 3 must not say they do (round 43's check) */
    const noBlocking = (view["house_rules"] || []).includes("H2");
    if (box.childElementCount && box.dataset.noBlocking !== String(noBlocking)) box.replaceChildren();
    box.dataset.noBlocking = noBlocking;
    if (box.hidden || box.childElementCount) return;
    const picture = element("p", "howto-cards");
    picture.setAttribute("aria-hidden", "true");
    for (const symbol of HOWTO_PICTURE) {
      picture.append(element("span", symbol.endsWith("\u2665") ? "suit-H" : "", symbol));
    }
    const steps = element("ol");
    for (const key of HOWTO_STEPS) {
      steps.append(element("li", null, t(noBlocking && key === "howto_3" ? "howto_3_h2" : key)));
    }
    const gotIt = button(t("howto_close"), () => {
      localStorage.setItem(HOWTO_SEEN_KEY, "seen");
      box.hidden = true;
      if (howToOpen) {
        howToOpen = false;
        opener.hidden = false;
        opener.focus();
      }
      render(cuckoo.view()); /* the house rules go back where they are read outside the card */
    }, "");
    const title = element("h2", null, t("howto"));
    title.tabIndex = -1;
    box.append(title, picture, steps, gotIt);
  }

  /* ------------------------------------------------ tonight's house rules, on every phone */

  /** Round 42's play-test: only the VIP's switches said which house rules were on and what they
   * mean, so a guest was surprised by a King that did not block (H2) or a life lost to the
   * clock (H4). Every phone lists the rules on, each with its line (the VIP's own words,
   * "vip.h2_name"): in the lobby under the buttons, in "How to play" opened mid-game, and
   * otherwise under the table's players, where one still in the game can look. One list,
   * moved between the three; nothing under standard rules. */
  const rulesBox = element("section");
  rulesBox.id = "social-rules";

  function renderHouseRules(view, howTo) {
    const rules = view["house_rules"] || []; /* this name also ships the rules' messages (page.py) */
    const inLobby = view.phase === "lobby";
    const inHowTo = !inLobby && !howTo.hidden;
    const players = document.getElementById("players").parentNode;
    rulesBox.hidden = !rules.length;
    if (inLobby && rulesBox.previousElementSibling !== opener) opener.after(rulesBox);
    /* in the card, before its "Got it" */
    if (inHowTo && rulesBox.parentNode !== howTo) howTo.lastElementChild.before(rulesBox);
    if (!inLobby && !inHowTo && rulesBox.previousElementSibling !== players) players.after(rulesBox);
    const signature = rules.join() + "|" + view.rapid_seconds;
    if (drawn.rules === signature) return;
    drawn.rules = signature;
    const list = element("ul");
    for (const rule of rules) {
      const key = "vip." + rule.toLowerCase();
      /* H4 says its seconds (the view has them while H4 is on): "Rapid: 10 s per decision" */
      const name = rule === "H4"
        ? cuckoo.t(key + "_seconds", { seconds: view.rapid_seconds })
        : cuckoo.t(key + "_name");
      const line = element("li");
      line.append(element("strong", null, name), element("span", null, cuckoo.t(key + "_text")));
      list.append(line);
    }
    rulesBox.replaceChildren(element("h2", null, t("rules_tonight")), list);
  }

  /* ------------------------------------------------ reactions: between games, or while out */

  function renderReactions(view, panel) {
    const box = panelPart("social-react", panel);
    const playing = view.me.status === "active" && view.phase !== "lobby" && view.phase !== "game_over";
    box.hidden = playing;
    if (playing || box.childElementCount) return;
    box.append(element("h2", null, t("react")));
    for (const emoji of REACTIONS) {
      const reaction = button(emoji, () => postSocial({ react: emoji }), "alt reaction");
      reaction.setAttribute("aria-label", t("react_label", { emoji }));
      box.append(reaction);
    }
  }

  /* ------------------------------------------------ a guess each round, for those not dealt in */

  function renderPrediction(view, panel) {
    const box = panelPart("social-predict", panel);
    const order = view.order || [];
    const open = view.phase === "turns" && !order.includes(view.me.id);
    const mine = view.me.prediction || null;
    const signature = [open, view.round, order.join(), mine].join("|");
    box.hidden = !open;
    if (drawn.prediction === signature) return;
    drawn.prediction = signature;
    box.replaceChildren();
    if (!open) return;
    const names = {};
    for (const player of view.players) names[player.id] = player.name;
    box.append(element("h2", null, t("predict")));
    for (const id of order) {
      const guess = button(names[id] ?? "?", async () => {
        const answer = await postSocial({ predict: id });
        /* an answer from a round that has ended since is not this round's guess */
        if (answer && answer.me && answer.round === cuckoo.view().round) {
          cuckoo.view().me.prediction = answer.me.prediction;
          renderPrediction(cuckoo.view(), panel);
        }
      }, id === mine ? "" : "alt");
      guess.setAttribute("aria-pressed", String(id === mine));
      box.append(guess);
    }
    if (mine) box.append(element("p", null, t("predict_mine", { name: names[mine] ?? "?" })));
  }

  /* ------------------------------------------------ tonight's standings, best first */

  /** One line: the place (shared by a tie), the name and the figures; under them, "you" on my
   * own line and each fun title, as badges. */
  function standingRow(row, meId) {
    const mine = row.player === meId;
    const line = element("li", mine ? "row me" : "row");
    line.append(element("span", "rank", String(row.rank)));
    line.append(element("span", "name", row.name + (row.bot ? " (" + t("bot") + ")" : "")));
    const details = element("span", "details");
    /* rounds survived: the tie-break between equal wins, shown (round 43's play-test) */
    /* a joint win (R14) says so: two guests with a win each from one game (round 44's play-test) */
    const shared = row.shared_wins ? " " + t("wins_shared", { count: row.shared_wins }) : "";
    details.append(element("span", null, [["wins", row.wins + shared], ["games", row.games], ["survived", row.survived]]
      .map(([key, count]) => t(key) + " " + count).join(" \u00b7 ")));
    if (row.good_guesses) details.append(element("span", null, t("guesses") + " " + row.good_guesses));
    line.append(details);
    const tags = element("span", "titles");
    if (mine) {
      line.setAttribute("aria-current", "true");
      tags.append(element("span", "badge", t("you")));
    }
    for (const title of row.titles || []) tags.append(element("span", "badge title", t("title_" + title)));
    if (tags.childElementCount) line.append(tags);
    return line;
  }

  function renderStandings(view, panel) {
    const box = panelPart("social-standings", panel);
    const rows = view.standings || [];
    const signature = JSON.stringify(rows) + view.me.id;
    box.hidden = !rows.length;
    if (drawn.standings === signature) return;
    drawn.standings = signature;
    box.replaceChildren();
    if (!rows.length) return;
    const list = element("ol");
    for (const row of rows) list.append(standingRow(row, view.me.id));
    box.append(element("h2", null, t("standings")), list);
  }

  /** Round 45's check: at a game's end the evening's standings are what everyone looks for, yet
   * they sat under the story, the table, the alerts, the cheers and (the VIP's) host controls,
   * three screens down. Then they come up under the outcome and the VIP's New game; during play
   * they go back to the panel's foot, under the game. */
  function placeStandings(view, panel) {
    const box = panelPart("social-standings", panel);
    const under = document.getElementById("action-error");
    if (view.phase === "game_over") {
      if (box.previousElementSibling !== under) under.after(box);
    } else if (box.parentNode !== panel) {
      panel.insertBefore(box, document.getElementById("social-note"));
    }
  }

  function render(view) {
    if (!view || !view.me) return;
    const panel = socialPanel();
    renderHowTo(view, panel);
    renderHouseRules(view, panelPart("social-howto", panel));
    renderReactions(view, panel);
    renderPrediction(view, panel);
    renderStandings(view, panel);
    placeStandings(view, panel);
    panelPart("social-note", panel);
  }

  document.addEventListener("cuckoo:view", (event) => render(event.detail));
  render(cuckoo.view());
})();

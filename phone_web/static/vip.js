/* The VIP's host controls on the phone (issue 13), an add-on of the phone page (PHONE_ADDONS.md).
 *
 * Fetched only by the phone whose view says it is the VIP (phone.js, loadOnDemandAddOns), with
 * its messages for the page's language in front, so a guest never downloads host controls.
 * Shows only the controls the view's "can" allows now: house rules H1-H8 as switches with H4's
 * seconds, computer players, kick (confirmed; away players first), make VIP, skip, misdeal, end
 * the game (confirmed), "How to play" on the TV, a new evening (confirmed), the TV's language,
 * voice and music volume. Every text goes through cuckoo.t; names are set as textContent only;
 * controls are built once and only updated afterwards, so focus stays where it is (issue 19).
 */
(() => {
  "use strict";

  const cuckoo = window.cuckoo;
  if (!cuckoo) return;

  /* The house rules on offer (view.house_rule_ids) and H4's seconds (view.rapid_seconds_range)
     come from the host: the rules are stated once, in host/rules. Rule H1 names the messages
     vip.h1_name and vip.h1_text. */
  /** The TV's languages, each named in its own language. */
  const TV_LANGUAGES = [["en", "English"], ["fr", "Français"], ["it", "Italiano"]];
  /** Any of these in "can" means this phone is the VIP with something to control now. */
  const PANEL_ACTIONS = ["set_rules", "kick", "make_vip", "misdeal", "end_game", "new_evening"];

  /** This add-on's message: "vip.<key>". */
  const t = (key, params) => cuckoo.t("vip." + key, params);

  /** The core page's element(tag, className, text): text is set as textContent only. */
  const element = cuckoo.element;

  /** The core page's button(text, onClick, className = "alt"). */
  const button = cuckoo.button;

  const send = (action, extra) => cuckoo.send(action, extra);

  /** Settings sent and not answered yet: meanwhile no view resets the switches (see below). */
  let settingsOnTheirWay = 0;

  /**
   * A setting holds the whole choice, so it is sent even while another action is on its way
   * (after that answer). Until every setting is answered the switches keep what the VIP chose:
   * a view from before would untick a switch just ticked, and the next setting would then
   * undo it.
   */
  function sendSetting(action, extra) {
    settingsOnTheirWay += 1;
    cuckoo.send(action, extra, { wait: true }).finally(() => {
      settingsOnTheirWay -= 1;
      if (!settingsOnTheirWay) render(cuckoo.view());
    });
  }

  const panel = element("section");
  panel.id = "vip-panel";
  panel.hidden = true;
  /** The panel's parts by name (rules, players, round, evening, tv), to hide a whole part. */
  const parts = {};

  function part(name, titleKey) {
    const section = element("section");
    section.id = "vip-" + name;
    section.append(element("h2", null, t(titleKey)));
    panel.append(section);
    parts[name] = section;
    return section;
  }

  /* ------------------------------------------------ confirmation: Yes runs the action */

  const question = element("div", "vip-ask");
  const questionText = element("p");
  questionText.id = "vip-ask-text";
  question.hidden = true;
  question.setAttribute("role", "alertdialog");
  question.setAttribute("aria-labelledby", questionText.id);
  let onYes = null;
  /** The button that asked: focus goes back to it when the question closes, if it is still there. */
  let askedFrom = null;

  function closeQuestion() {
    question.hidden = true;
    onYes = null;
    if (askedFrom && askedFrom.isConnected) askedFrom.focus();
    askedFrom = null;
  }

  const yesButton = button(t("yes"), () => {
    const action = onYes;
    closeQuestion();
    if (action) action();
  }, "");
  yesButton.id = "vip-yes";
  question.append(questionText, yesButton, button(t("cancel"), closeQuestion));

  /** Ask before something that cannot be undone (kick, end the game, a new evening). */
  function confirmThen(text, action) {
    questionText.textContent = text;
    onYes = action;
    askedFrom = document.activeElement;
    question.hidden = false;
    yesButton.focus();
  }

  /* ------------------------------------------------ house rules: a switch per rule, H4's seconds */

  const rulesPart = part("rules", "rules_title");
  /* "Applies from the next game" once a game was played tonight (renderRules): before the
     first one there is no game for it to come after ("Valgono dalla prossima partita" in the
     first lobby; round 46's brief) */
  const nextGameNote = element("small", null, t("rules_next_game"));
  rulesPart.append(nextGameNote);
  const ruleSwitches = {};
  const secondsInput = element("input");

  const chosenRules = () => Object.keys(ruleSwitches).filter((rule) => ruleSwitches[rule].checked);

  function sendRules() {
    const seconds = Math.round(Number(secondsInput.value));
    const valid = seconds >= Number(secondsInput.min) && seconds <= Number(secondsInput.max);
    sendSetting("set_rules", valid ? { rules: chosenRules(), rapid_seconds: seconds } : { rules: chosenRules() });
  }

  const secondsLabel = element("label", "vip-rule", t("seconds_label"));
  Object.assign(secondsInput, { type: "number", step: 1, id: "vip-seconds", inputMode: "numeric" });

  /** A switch per house rule the host offers, made once, the first time the view lists them. */
  function makeRuleSwitches(ruleIds, range) {
    for (const rule of ruleIds) {
      const label = element("label", "vip-rule");
      const input = element("input");
      const words = element("span");
      input.type = "checkbox";
      input.id = "vip-rule-" + rule;
      input.addEventListener("change", sendRules);
      const key = rule.toLowerCase();
      words.append(element("strong", null, t(key + "_name")), element("small", null, t(key + "_text")));
      label.append(input, words);
      rulesPart.insertBefore(label, secondsLabel);
      ruleSwitches[rule] = input;
    }
    Object.assign(secondsInput, { min: range.min, max: range.max });
    secondsInput.dataset.unset = String(range.default);
  }
  secondsInput.addEventListener("change", sendRules);
  secondsLabel.append(secondsInput);
  rulesPart.append(secondsLabel);

  /* ------------------------------------------------ this round (above the players: round 41's
     play-test found "Skip" under seven players' buttons on a small phone, out of sight) */

  const roundPart = part("round", "round_title");
  const skipButton = button("", () => send("skip"));
  const misdealButton = button(t("misdeal"), () => send("misdeal"));
  const endGameButton = button(t("end_game"), () => confirmThen(t("end_confirm"), () => send("end_game")));
  skipButton.id = "vip-skip";
  misdealButton.id = "vip-misdeal";
  endGameButton.id = "vip-end-game";
  roundPart.append(skipButton, misdealButton, endGameButton);

  /* ------------------------------------------------ players: add a bot; kick / make VIP */

  const playersPart = part("players", "players_title");
  const strategySelect = element("select");
  strategySelect.id = "vip-strategy";
  const strategyLabel = element("label", null, t("strategy_label"));
  strategyLabel.htmlFor = strategySelect.id; // seen, and read out, above the picker
  const addBotButton = button(t("add_bot"), () => send("add_bot", { strategy: strategySelect.value }));
  addBotButton.id = "vip-add-bot";
  const playerList = element("ul");
  playersPart.append(strategyLabel, strategySelect, addBotButton, playerList);
  /** What the player list was drawn from: it is rebuilt only when this changes. */
  let playerListSignature = "";

  /** Away: a human without an open event stream (computer players are always present). */
  const isAway = (player) => player.connected === false && !player.bot;

  function playerRow(player, can, open) {
    const row = element("li", "row vip-player");
    const away = isAway(player);
    row.dataset.player = player.id;
    row.append(element("span", "name", player.name));
    if (away) row.append(element("span", "b vip-away", t("away_tag")));
    if (player.bot) row.append(element("span", "b", t("bot_tag")));
    // The buttons share a line under the name, the same on every row (round 40: a guest's
    // Remove sat beside the name and a computer's under it, wherever the line broke).
    const actions = element("div", "vip-actions");
    if (can("kick")) {
      const kick = () => send("kick", { player: player.id });
      actions.append(button(t("remove"), () => confirmThen(t("kick_confirm", { name: player.name }), kick), "alt vip-kick"));
    }
    if (can("make_vip") && !player.bot && !away) {
      const handOver = () => send("make_vip", { player: player.id });
      actions.append(button(t("make_vip"), () => confirmThen(t("make_vip_confirm", { name: player.name }), handOver), "alt vip-make"));
    }
    /* round 45: a guest whose phone died takes their seat back from a borrowed one */
    if (can("new_phone") && away && open) {
      row.append(element("p", "vip-open-seat", t("new_phone_open", { name: player.name })));
    } else if (can("new_phone") && away) {
      const give = () => send("new_phone", { player: player.id });
      actions.append(button(t("new_phone"), () => confirmThen(t("new_phone_confirm", { name: player.name }), give), "alt vip-new-phone"));
    }
    if (actions.childElementCount) row.append(actions);
    return row;
  }

  /** Everyone but me, away players first, then in seat order. */
  function renderPlayerList(view, can) {
    const others = view.players
      .filter((player) => player.id !== view.me.id)
      .sort((a, b) => isAway(b) - isAway(a) || a.seat - b.seat);
    const open = view.open_seats || [];
    const signature = JSON.stringify([
      others.map((player) => [player.id, player.name, player.connected, player.bot]),
      can("kick"),
      can("make_vip"),
      can("new_phone"),
      open,
    ]);
    if (signature === playerListSignature) return;
    playerListSignature = signature;
    // The rows are drawn anew (someone came or went): the focused button, and the one that
    // asked a question still open, are found again in the new rows.
    const focused = playerList.contains(document.activeElement) ? document.activeElement : null;
    const asking = playerList.contains(askedFrom) ? askedFrom : null;
    playerList.replaceChildren(...others.map((player) => playerRow(player, can, open.includes(player.id))));
    if (asking) askedFrom = redrawn(asking);
    if (focused) redrawn(focused).focus();
  }

  /** The button now drawn where ``old`` was (same player, same place in the row); the row's
   * first button if that one is gone, or "Add computer player" if the player is gone. */
  function redrawn(old) {
    const oldRow = old.closest("li");
    const place = [...oldRow.querySelectorAll("button")].indexOf(old);
    const row = playerList.querySelector(`li[data-player="${oldRow.dataset.player}"]`);
    const buttons = row ? row.querySelectorAll("button") : [];
    return buttons[place] || buttons[0] || addBotButton;
  }

  function renderStrategies(view) {
    const offered = view.bot_strategies || [];
    if (strategySelect.dataset.offered === offered.join()) return;
    strategySelect.dataset.offered = offered.join();
    strategySelect.replaceChildren();
    for (const strategy of offered) {
      const option = element("option", null, t("strategy_" + strategy));
      option.value = strategy;
      strategySelect.append(option);
    }
  }

  /* ------------------------------------------------ the evening (issue 14) */

  const eveningPart = part("evening", "evening_title");
  const howToPlayButton = button(t("how_to_play"), () => send("how_to_play"));
  const newEveningButton = button(t("new_evening"), () =>
    confirmThen(t("new_evening_confirm"), () => send("new_evening")));
  howToPlayButton.id = "vip-how-to-play";
  newEveningButton.id = "vip-new-evening";
  eveningPart.append(howToPlayButton, newEveningButton);

  /* ------------------------------------------------ the TV: language, voice, music (lobby) */

  const tvPart = part("tv", "tv_title");
  const tvLanguage = element("select");
  tvLanguage.id = "vip-tv-language";
  tvLanguage.setAttribute("aria-label", t("tv_language"));
  for (const [code, name] of TV_LANGUAGES) {
    const option = element("option", null, name);
    option.value = code;
    option.lang = code;
    tvLanguage.append(option);
  }
  tvLanguage.addEventListener("change", () => sendSetting("set_tv", { language: tvLanguage.value }));

  const voiceSwitch = element("input");
  voiceSwitch.type = "checkbox";
  voiceSwitch.id = "vip-voice";
  voiceSwitch.addEventListener("change", () => sendSetting("set_tv", { voice_muted: !voiceSwitch.checked }));
  const voiceLabel = element("label", "vip-rule");
  voiceLabel.append(voiceSwitch, element("span", null, t("voice")));

  /* the music's volume on the TV (issue 20), in tens of percent */
  const musicSlider = element("input");
  Object.assign(musicSlider, { type: "range", min: "0", max: "100", step: "10", id: "vip-music" });
  musicSlider.addEventListener("change", () => sendSetting("set_tv", { music_volume: Number(musicSlider.value) }));
  const musicLabel = element("label", "vip-rule vip-slider");
  musicLabel.append(element("span", null, t("music_volume")), musicSlider);
  tvPart.append(element("label", null, t("tv_language")), tvLanguage, voiceLabel, musicLabel);

  panel.prepend(element("h2", "vip-title", t("panel_title")), question);

  /* ------------------------------------------------ drawing a view */

  function renderRules(view) {
    const ruleIds = view["house_rule_ids"]; /* this name also ships the rules' messages (page.py) */
    /* the rules change only in the lobby (can: set_rules); tonight's standings list whoever
       was dealt a round, so none means no game yet tonight */
    nextGameNote.hidden = !(view.standings || []).length;
    if (!Object.keys(ruleSwitches).length && ruleIds && view.rapid_seconds_range) {
      makeRuleSwitches(ruleIds, view.rapid_seconds_range);
    }
    /* while a setting is on its way the switches show what the VIP chose, not older views */
    if (!settingsOnTheirWay) {
      for (const rule of Object.keys(ruleSwitches)) {
        const on = (view.house_rules || []).includes(rule);
        if (ruleSwitches[rule].checked !== on) ruleSwitches[rule].checked = on;
      }
    }
    secondsLabel.hidden = !(ruleSwitches.H4 && ruleSwitches.H4.checked);
    if (view.rapid_seconds && document.activeElement !== secondsInput) secondsInput.value = view.rapid_seconds;
    else if (!secondsInput.value && secondsInput.dataset.unset) secondsInput.value = secondsInput.dataset.unset;
  }

  function renderTv(view) {
    if (settingsOnTheirWay) return;
    if (view.tv_language && tvLanguage.value !== view.tv_language) tvLanguage.value = view.tv_language;
    if (voiceSwitch.checked !== !view.voice_muted) voiceSwitch.checked = !view.voice_muted;
    if (view.music_volume != null && document.activeElement !== musicSlider) {
      musicSlider.value = String(view.music_volume);
    }
  }

  function render(view) {
    const actions = (view && view.can) || [];
    const can = (action) => actions.includes(action);
    panel.hidden = !(view && view.me && view.me.is_vip && PANEL_ACTIONS.some(can));
    if (panel.hidden) {
      closeQuestion();
      return;
    }
    if (!panel.isConnected) document.getElementById("game").append(panel);

    parts.rules.hidden = !can("set_rules");
    renderRules(view);

    parts.players.hidden = !can("kick") && !can("add_bot");
    addBotButton.hidden = strategySelect.hidden = strategyLabel.hidden = !can("add_bot");
    renderStrategies(view);
    renderPlayerList(view, can);

    parts.round.hidden = !can("misdeal") && !can("end_game");
    skipButton.hidden = !can("skip") || !view.current; /* named once the TV has shown whose turn it is */
    const current = view.players.find((player) => player.id === view.current);
    skipButton.textContent = t("skip", { name: current ? current.name : "" });
    misdealButton.hidden = !can("misdeal");
    endGameButton.hidden = !can("end_game");

    parts.evening.hidden = !can("how_to_play") && !can("new_evening");
    howToPlayButton.hidden = !can("how_to_play");
    newEveningButton.hidden = !can("new_evening");

    parts.tv.hidden = !can("set_tv");
    renderTv(view);
  }

  document.addEventListener("cuckoo:view", (event) => render(event.detail));
  render(cuckoo.view());
})();

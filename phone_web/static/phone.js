/* Cuckoo Party phone page: join, see my card, press my buttons, follow the table live.
 *
 * The page talks only to the API of PHONE_API.md and shows whatever view arrives: every rule
 * fact (whom an exchange goes to, how many players are needed, how many lives there are, the
 * lowest rank) comes from the view, never from this file. Every text goes through t(); names
 * and cards are set with textContent only, never as HTML. page.py minifies and gzips this file
 * on serve, so it is written for people to read.
 *
 * Add-ons (PHONE_ADDONS.md) use window.cuckoo and the "cuckoo:view" event defined at the end.
 * Those every phone needs are bundled after this file; the VIP's host controls are fetched
 * only by the phone whose view says it is the VIP (see loadOnDemandAddOns), so a guest never
 * downloads them.
 */
(() => {
  "use strict";

  const byId = (id) => document.getElementById(id);
  const language = document.documentElement.lang;
  const messages = JSON.parse(byId("i18n").textContent);
  /** Where this script came from: on-demand add-ons are served beside it. */
  const scriptUrl = document.currentScript.src;
  const pluralRules = new Intl.PluralRules(language);
  const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  /** How long a big moment covers the screen before the card comes back (issue 12.2). */
  const MOMENT_MS = 2200;
  /** Under H4 a turn has seconds, and its "Your turn!" covers the buttons only this long: 2.2 s
      of a 10 s turn went to reading it (round 36's play-test). */
  const RAPID_MOMENT_MS = 900;
  /** Under H4 the clock's last seconds say a life is at stake (round 42's play-test). */
  const RAPID_WARN_SECONDS = 5;
  /** A phone refused for a full table asks again this often, until it has a seat. */
  const TABLE_FULL_RETRY_MS = 5000;
  /** Names longer than this are refused by the host (PHONE_API.md, bad_name). */
  const MAX_NAME_LENGTH = 16;
  /** An answer later than this is not coming (a connection dead without a word, as party
      Wi-Fi leaves them, or a host frozen for a while): the request fails. The host says how
      long (data-timeout-ms, create_app's request_timeout_seconds). */
  const REQUEST_TIMEOUT_MS = Number(byId("main").dataset.timeoutMs) || 8000;
  /**
   * A tap that got no answer is sent again with the same step, this many sends in all, a
   * retry's wait apart, while the line under the buttons says it is still on its way: a
   * host frozen for 10 to 20 s answers once it runs again (round 37's play-test lost such
   * a tap and blamed the Wi-Fi). Safe: a second copy of a step the host applied gets
   * stale_step and changes nothing. The Wi-Fi alarm comes only after the last.
   */
  const ACTION_SENDS = 3;
  /** Round trips kept to time the link by (callApi). */
  const TRIPS_KEPT = 5;
  /** Reconnection back-off: first wait and longest wait, in milliseconds. */
  const FIRST_RETRY_MS = 500;
  const LAST_RETRY_MS = 5000;
  /**
   * A stream can die without a word: the host's power cut, a Wi-Fi that dropped and came back.
   * EventSource hides the heartbeats the host sends, so after four of them without a message
   * (data-quiet-ms) the page asks the host whether it still counts this phone as here.
   */
  const QUIET_MS = Number(byId("main").dataset.quietMs) || 20000;
  /**
   * A double tap, or a finger tapping again as the buttons come back, must not land on the
   * button my own answer drew in the same place: H3's second cut, "Start" just after "New
   * game" (legal, and not wanted). A tap this soon after my last tap, or after the buttons
   * came back, is dropped; a second cut meant comes after reading the first card. A tap
   * dropped makes the calm last SAME_GESTURE_MS more, but never past LONGEST_CALM_MS after it
   * began: a finger drumming is one tap, and is heard again within that (round 44's
   * play-test: a VIP tapping Start twice a second after New game was dropped for 6 minutes).
   */
  const SAME_GESTURE_MS = 600;
  const BUTTONS_BACK_MS = 350;
  const LONGEST_CALM_MS = 1200;
  let calmSince = 0; /* calmFor */
  /** A tab whose game another one took looks this often whether that one still holds it. */
  const FREE_SEAT_CHECK_MS = 4000;

  /**
   * Everything the page remembers between updates: room, token, view (the last one drawn),
   * stream (the open EventSource), replaced (another tab took the game), retryTimer and
   * retryDelay (reconnection), busy (an action is on its way), shownTurn (the turn of mine
   * this page last drew, turnId), clockTimer (H4 clock), roundTrip (ms: my requests' way to the
   * host and back, see callApi), trips (the last ones'), unsent (a tap that never arrived,
   * resendUnsent), momentTimer, focusAfterJoin, joinRetry (a full table asked again),
   * actionsHadFocus (focus to give back after an action), quietTimer (the stream's silence),
   * freeSeatTimer (a replaced tab's look at its seat).
   */
  const state = { room: byId("main").dataset.room, retryDelay: FIRST_RETRY_MS };

  /* ------------------------------------------------------------------ translation */

  /** Accents removed and lower-cased: "Émile" → "emile". */
  function plainLetters(text) {
    return String(text ?? "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  /** BRIEF.md elision rule: a name starting with a e i o u y h takes the "vowel" form. */
  function startsWithVowelSound(value) {
    const first = plainLetters(value).charAt(0);
    return first !== "" && "aeiouyh".includes(first);
  }

  /** The one form of a message for these parameters: elision, plural, or the plain string. */
  function chooseForm(message, params) {
    if (typeof message !== "object" || message === null) return message;
    if (message.by) return startsWithVowelSound(params[message.by]) ? message.vowel : message.other;
    return message[pluralRules.select(params.count ?? 1)] ?? message.other;
  }

  /** A card placeholder value: shown as a symbol chip on screen, spoken by name. */
  function cardValue(code) {
    return { card: code };
  }

  /** The message split into pieces: plain strings and parameter values, in order. */
  function messagePieces(key, params) {
    const message = chooseForm(messages[key] ?? key, params);
    return String(message).split(/\{(\w+)\}/).map((piece, index) =>
      index % 2 === 0 ? piece : params[piece] ?? "");
  }

  /** Translate to plain text; cards are spoken ("7 of Hearts"). */
  function t(key, params = {}) {
    return messagePieces(key, params).map((piece) =>
      typeof piece === "object" ? cardName(piece.card) : String(piece)).join("");
  }

  /** Translate into DOM nodes; cards become chips that look like "7♥" and read "7 of Hearts". */
  function translatedNodes(key, params = {}) {
    const fragment = document.createDocumentFragment();
    for (const piece of messagePieces(key, params)) {
      if (piece instanceof Node) fragment.append(piece);
      else if (typeof piece === "object") fragment.append(cardChip(piece.card));
      else if (piece !== "") fragment.append(String(piece));
    }
    return fragment;
  }

  /** "Ana, Bo and Cy" in the page's language. */
  function listOf(names) {
    return new Intl.ListFormat(language).format(names);
  }

  /** A list of nodes joined with the page's words ("Ana 9♥, Bo 4♣ and Cy 2♠"). */
  function listOfNodes(nodes) {
    const fragment = document.createDocumentFragment();
    const parts = new Intl.ListFormat(language).formatToParts(nodes.map((_, index) => String(index)));
    for (const part of parts) fragment.append(part.type === "element" ? nodes[Number(part.value)] : part.value);
    return fragment;
  }

  /* ------------------------------------------------------------------ cards */

  const cardRank = (code) => code.slice(0, -1);
  const cardSuit = (code) => code.slice(-1);
  const rankName = (rank) => messages["rank_" + rank] ?? rank;
  const suitName = (suit) => messages["suit_" + suit] ?? suit;

  /** "7♥": the compact form sighted players read. */
  function cardSymbol(code) {
    return cardRank(code) + SUIT_SYMBOLS[cardSuit(code)];
  }

  /** "7 of Hearts": the spoken form. */
  function cardName(code) {
    return t("card_name", { rank: rankName(cardRank(code)), suit: suitName(cardSuit(code)) });
  }

  /** A small card: the symbol on screen, the name for screen readers (role=img may be labelled). */
  function cardChip(code) {
    const chip = element("span", "chip suit-" + cardSuit(code), cardSymbol(code));
    chip.setAttribute("role", "img");
    chip.setAttribute("aria-label", cardName(code));
    return chip;
  }

  /* ------------------------------------------------------------------ DOM helpers */

  /** A new element; its text is set as textContent only (never HTML). Add-ons use it too. */
  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  /** An add-on's button: its words, what a tap does, and its look ("alt" unless told). */
  function button(text, onClick, className = "alt") {
    const node = element("button", className, text);
    node.type = "button";
    node.addEventListener("click", onClick);
    return node;
  }

  /** Set text only when it changed, so screen readers and selections are not disturbed. */
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
    return node;
  }

  /** Refill a node with translated content only when the message or its parameters changed. */
  function setTranslated(node, key, params = {}) {
    const signature = JSON.stringify([key, params]);
    if (node.dataset.message === signature) return;
    node.dataset.message = signature;
    node.replaceChildren(translatedNodes(key, params));
  }

  function clearTranslated(node) {
    delete node.dataset.message;
    node.replaceChildren();
  }

  /** Life dots: filled for lives left, hollow for lives lost; read as "2 lives". */
  function lifeDots(lives, maxLives) {
    const dots = element("span", "lives");
    dots.setAttribute("role", "img");
    dots.setAttribute("aria-label", t("lives", { count: lives }));
    dots.append(element("span", "", "\u25cf".repeat(lives)));
    dots.append(element("span", "lost", "\u25cb".repeat(Math.max(0, maxLives - lives))));
    return dots;
  }

  /** A small round mark in a player's own colour (the same colour as on the TV). */
  function colourMark(colour) {
    const mark = element("span", "colour");
    mark.setAttribute("aria-hidden", "true");
    if (colour) mark.style.backgroundColor = colour;
    return mark;
  }

  /* ------------------------------------------------------------------ the API */

  /** An authenticated request; a JSON body when given. Returns the fetch Response. */
  function request(method, path, body) {
    const options = { method, headers: {}, cache: "no-store" };
    if (AbortSignal.timeout) options.signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS); /* iOS 16+ */
    if (state.token) options.headers.Authorization = "Bearer " + state.token;
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options);
  }

  /** [status, JSON body or {}]. Each answer times the link too (state.roundTrip): the
   * smallest of the last TRIPS_KEPT, not the smallest ever, since Wi-Fi changes through an
   * evening and too long a round trip only shows fewer seconds (renderClock); not the last
   * alone, since answers held up by a host that stopped for a while (a tap's sends, the quiet
   * stream's check, sent during the freeze) took seconds that were not the link's: after a
   * freeze her clock showed 2 to 6 s less than the host gave back (play-tests, rounds 37-38). */
  async function callApi(method, path, body) {
    const sent = performance.now();
    const response = await request(method, path, body);
    state.trips = [performance.now() - sent, ...(state.trips || [])].slice(0, TRIPS_KEPT);
    state.roundTrip = Math.min(...state.trips);
    return [response.status, await response.json().catch(() => ({}))];
  }

  const tokenKey = () => "cuckoo:token:" + state.room;

  /** The error message for an API error code, or the general one. */
  function errorText(code) {
    return t(messages["err_" + code] ? "err_" + code : "err_bad_action");
  }

  /* ------------------------------------------------------------------ screens */

  /** Show one of the three screens: the room code, the name, or the game; the room badge
   * with the last two (asking for the code, there is no room to show yet). */
  function showScreen(name) {
    for (const id of ["room-form", "join-form", "game"]) byId(id).hidden = id !== name;
    const badge = byId("room-badge");
    if (name === "room-form") {
      badge.hidden = true;
      byId("room-input").focus();
      return;
    }
    setText(badge, t("room_badge", { room: state.room }));
    badge.hidden = false;
    if (name === "join-form") byId("name-input").focus();
    else holdBack();
  }

  /**
   * The phone's Back on my card (round 46's brief) went back to what came before the page (the
   * QR scanner, an empty tab): its stream closed, and I was away without a word, my turns kept
   * for me, my lobby seat gone after a minute. Seated, the page keeps a history entry of its
   * own: Back lands on the page again, which says a second Back leaves (#back-note), and a
   * second Back does. A tap on the page sets the entry again. ``state.backCaught``: a Back was
   * caught and the entry is not set again yet.
   */
  function holdBack() {
    if (!history.state?.seated && !state.backCaught) history.pushState({ seated: true }, "");
  }

  /** The note of a Back caught, shown or put away. */
  function backCaught(caught) {
    state.backCaught = caught;
    byId("back-note").hidden = !caught;
    if (caught) announce([byId("back-note").textContent]);
  }

  window.addEventListener("popstate", () => {
    if (history.state?.seated) backCaught(false); /* Forward onto the page's entry */
    /* no seat any more, or another tab holds it: Back goes on leaving */
    else if (byId("game").hidden || state.replaced) history.back();
    else backCaught(true);
  });

  document.addEventListener("click", () => {
    if (!state.backCaught) return;
    backCaught(false);
    if (!byId("game").hidden) holdBack();
  });

  byId("room-form").addEventListener("submit", (event) => {
    event.preventDefault();
    state.room = byId("room-input").value.trim().toUpperCase();
    if (!state.room) return;
    setText(byId("room-error"), "");
    const address = new URL(location.href);
    address.searchParams.set("room", state.room);
    history.replaceState(null, "", address);
    for (const link of document.querySelectorAll("nav a")) {
      link.search = "?room=" + encodeURIComponent(state.room) + "&lang=" + link.lang;
    }
    start();
  });

  /**
   * Columns the host counts for a name (host/names.py display_width, after NFKC): emoji and
   * wide characters take two, marks and invisible ones none. "Marie-Éléonore ✨" is 16
   * characters and 17 columns: refused by the host, it must be said too long here, not
   * "without special characters".
   */
  function nameWidth(name) {
    let width = 0;
    for (const char of name.normalize("NFKC")) {
      if (/[\p{Mn}\p{Me}\p{Cf}\p{DI}]/u.test(char)) continue;
      width += /[\p{EPres}\p{sc=Han}\p{sc=Hira}\p{sc=Kana}\p{sc=Hang}]/u.test(char) ? 2 : 1;
    }
    return width;
  }

  /** Issue 12.6: a name over 16 characters is said to be too long, never silently cut. */
  function nameTooLong() {
    const input = byId("name-input");
    const tooLong = [...input.value].length > MAX_NAME_LENGTH || nameWidth(input.value) > MAX_NAME_LENGTH;
    input.setAttribute("aria-invalid", String(tooLong));
    setText(byId("join-error"), tooLong ? t("name_too_long", { count: MAX_NAME_LENGTH }) : "")
      .classList.remove("note");
    return tooLong;
  }

  byId("name-input").addEventListener("input", nameTooLong);

  byId("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    clearTimeout(state.joinRetry);
    /* a full table's retry leaves its note standing: wiped and written again, its alert line
       was read out every 5 s (round 46) */
    const retry = state.joinRetrying;
    state.joinRetrying = false;
    if (!retry && nameTooLong()) return;
    const button = byId("join-button");
    const error = byId("join-error");
    const clear = () => setText(error, "").classList.remove("note"); /* an error again */
    if (!retry) clear();
    if (!byId("name-input").value.trim()) return void (error.textContent = t("name_empty"));
    button.disabled = true;
    button.textContent = t("joining");
    try {
      const [status, answer] = await callApi("POST", "/api/join",
        { name: byId("name-input").value, room: state.room });
      if (retry && answer.error !== "table_full") clear();
      if (status === 201 && answer.token) {
        state.token = answer.token;
        localStorage.setItem(tokenKey(), answer.token);
        localStorage.setItem("cuckoo:name", byId("name-input").value.trim());
        state.focusAfterJoin = true;
        unlockSound();
        connect();
      } else if (answer.error === "bad_room") {
        /* last week's QR, a code misread: ask for the code on the TV, the name kept */
        showScreen("room-form");
        setText(byId("room-error"), t("err_bad_room"));
      } else if (answer.error === "table_full") {
        /* round 41's play-test: turned away with no way on while a seat was about to free up
           (a guest gone for good leaves the lobby after a minute); ask again until seated.
           Good news, not an error: a calm note, not red (round 46) */
        setText(error, t("table_full_waiting")).classList.add("note");
        state.joinRetry = setTimeout(() => {
          state.joinRetrying = true;
          byId("join-form").requestSubmit();
        }, TABLE_FULL_RETRY_MS);
      } else if (answer.away) {
        /* my name's seat waits for my old phone (it died): say how to get it back */
        error.textContent = t("err_name_taken_away");
      } else if (answer.letters) {
        /* bad_name for letters the TV cannot draw: say which, isolated so that an Arabic
         * name does not carry the sentence's full stop along */
        const key = answer.emoji ? "err_emoji_not_shown" : "err_name_not_shown";
        error.textContent = t(key, { letters: "\u2068" + answer.letters + "\u2069" });
      } else {
        error.textContent = t(messages["err_" + answer.error] ? "err_" + answer.error : "err_other");
      }
    } catch {
      /* no answer: the game closed on the TV's computer, or the Wi-Fi; offline, surely mine */
      error.textContent = t(navigator.onLine ? "err_network" : "err_offline");
    }
    button.disabled = false;
    button.textContent = t("join");
  });

  /* ------------------------------------------------------------------ live updates */

  function closeStream() {
    clearTimeout(state.quietTimer); /* no stream, no silence to watch */
    if (state.stream) {
      state.stream.close();
      state.stream = null;
    }
  }

  /** "Reconnecting…": what is under the banner is the table last heard, maybe long gone (round
   * 44's play-test: offline, an old card and "Bea is deciding…" at full brightness while the
   * TV gave the guest the turn). Dimmed and marked inactive (aria-disabled, phone.css) till the
   * host is heard again. My buttons look off (phone.css) but are not: a tap waits for the
   * connection and says so (post). */
  function showBanner(visible) {
    byId("banner").hidden = !visible;
    for (const id of ["turn", "card", "dealer", "outcome", "story", "players"]) {
      byId(id).ariaDisabled = visible || null;
    }
  }

  /** One event stream: each message is my whole view. None while the page is hidden (letGo). */
  function connect() {
    closeStream();
    clearTimeout(state.retryTimer);
    if (document.hidden) return; /* wakeUp connects once the guest looks again */
    state.replaced = false;
    clearInterval(state.freeSeatTimer);
    byId("replaced").hidden = true;
    byId("main").classList.remove("replaced");
    const stream = new EventSource("/api/events?token=" + encodeURIComponent(state.token));
    state.stream = stream;
    watchQuiet();
    /* A new stream's first message is the table as it is now, drawn even if its step is
     * older than the one on screen: a host restarted after a power cut may have lost the last
     * change (synced after it was sent, host/journal.py), and its author must be able to
     * tap again. */
    let first = true;
    stream.onmessage = (message) => {
      watchQuiet();
      state.retryDelay = FIRST_RETRY_MS;
      showBanner(false);
      /* the host is heard again: "can't reach the game" is no longer true (it stayed beside
         live buttons when a freeze outlasted every send of a tap) */
      const error = byId("action-error");
      if (error.textContent === noAnswer()) error.textContent = "";
      render(JSON.parse(message.data), first);
      resendUnsent();
      first = false;
      if (document.hidden && !betweenGames()) letGo(); /* the game began under a locked phone */
    };
    stream.addEventListener("replaced", () => streamReplaced(stream));
    stream.onerror = () => {
      stream.close();
      if (state.stream === stream) {
        state.stream = null;
        connectionLost();
      }
    };
  }

  /** Quiet for a while: ask the host (``refresh(true)``), then keep watching. */
  function watchQuiet() {
    clearTimeout(state.quietTimer);
    state.quietTimer = setTimeout(() => (document.hidden ? watchQuiet() : refresh(true)), QUIET_MS);
  }

  /**
   * The game was opened in another tab or phone: say so, offer to take it back, stay quiet.
   * The table and the add-ons' panels go until then (.replaced in phone.css): no longer kept
   * up to date, its turn, clock, card and standings would soon be wrong, and a tap on its
   * buttons would do nothing.
   */
  function streamReplaced(stream) {
    stream.close();
    if (state.stream === stream) state.stream = null;
    clearTimeout(state.retryTimer);
    state.replaced = true;
    showBanner(false);
    byId("replaced").hidden = false;
    byId("main").classList.add("replaced");
    byId("take-back").focus();
    clearInterval(state.freeSeatTimer);
    state.freeSeatTimer = setInterval(takeBackIfFree, FREE_SEAT_CHECK_MS);
  }

  /** Round 45's play-test: Ben opened the game in a second tab to lend his phone, closed it,
   * and his first tab still said "open in another tab" when his turn came, so the host kept
   * for him. While it is looked at, a replaced tab asks whether any tab still holds the seat
   * (``connected``), and takes it back when none does. */
  async function takeBackIfFree() {
    if (!state.replaced || document.hidden) return;
    try {
      const [status, view] = await callApi("GET", "/api/state");
      if (!state.replaced) return;
      if (status === 401) return forgetSeat(view);
      if (status === 200 && !seatHeld(view)) connect();
    } catch {
      /* no answer: look again next time */
    }
  }

  byId("take-back").addEventListener("click", () => {
    if (state.token) connect();
  });

  /** The stream broke: show the banner, wait a little longer each time, fetch, listen again
   * (not while the page is hidden: wakeUp does it when the guest looks again). ``unanswered``:
   * a fetch got no answer at all, and the VIP's banner asks about the TV's computer (noAnswer). */
  function connectionLost(unanswered = false) {
    showBanner(true);
    setText(byId("banner-why"), unanswered && navigator.onLine && isVip() ? t("reconnecting_vip") : "");
    /* H4's clock is the host's: with the host lost no count goes on (round 40: it ran down to
       2 s while the host was down, then jumped back to 10 when a restart gave the turn anew) */
    clearTimeout(state.clockTimer);
    setText(byId("clock"), "");
    closeStream();
    clearTimeout(state.retryTimer);
    if (document.hidden) return;
    state.retryTimer = setTimeout(refresh, state.retryDelay);
    state.retryDelay = Math.min(state.retryDelay * 2, LAST_RETRY_MS);
  }

  /** Fetch the table and listen again if need be. ``quiet``: only checking a quiet stream, so a
   * stream the host still counts is left alone and nothing is drawn again (a VIP typing keeps
   * what they typed). */
  async function refresh(quiet = false) {
    if (!state.token || state.replaced) return;
    let answered = false;
    try {
      const [status, view] = await callApi("GET", "/api/state");
      answered = true;
      if (state.replaced) return; /* another tab took the game meanwhile: stay quiet */
      if (status === 401) return forgetSeat(view);
      if (status !== 200) throw new Error(String(status));
      const here = seatHeld(view);
      if (quiet && here && state.stream) return watchQuiet();
      render(view);
      showBanner(false);
      if (!here) closeStream(); /* the host does not count it: a restarted host never had it */
      if (state.stream) watchQuiet();
      else connect();
    } catch {
      connectionLost(!answered);
    }
  }

  /** Whether the host counts a stream of my seat open (``connected``); a view without my line
   * (a restarted host, mid-join) counts as held: nothing to take back. */
  function seatHeld(view) {
    const mine = view.players.find((player) => player.id === view.me.id);
    return !mine || mine.connected;
  }

  /** The token is no longer known (a new room, a kick): ask for a name again. ``answer``: the
   * 401's, whose ``away`` says the seat was freed because I was away a minute (round 47). */
  function forgetSeat(answer) {
    clearInterval(state.freeSeatTimer);
    localStorage.removeItem(tokenKey());
    state.token = null;
    state.view = null; /* a new seat may be in a new game, whose steps start again at 0 */
    closeStream();
    showBanner(false);
    hideMoment(); /* removed during my turn: its cover is over too */
    showScreen("join-form");
    /* away a minute in the lobby, or removed by the host: say so, the name ready to send again
       (round 38's play-test: an empty form, and no word of why) */
    const input = byId("name-input");
    input.value ||= localStorage.getItem("cuckoo:name") || "";
    const why = answer?.away ? "seat_gone_away" : "seat_gone";
    /* news, not a mistake of mine: a calm note, as a full table's (round 47) */
    setText(byId("join-error"), t(why)).classList.add("note");
    announce([t(why)]); /* the live region no longer tells a card I no longer hold */
  }

  /** Back from sleep or offline: a stream may be silently dead, so fetch now and listen anew. */
  function wakeUp() {
    if (!state.token || state.replaced) return;
    state.retryDelay = FIRST_RETRY_MS;
    closeStream();
    refresh();
  }

  /**
   * Hidden (the phone asleep, another app in front) or offline, the page lets go of its stream
   * at once and says it is reconnecting. Why: the host counts a guest present while a stream
   * of theirs is open, and a sleeping phone's stream stays open without a word until the
   * host's heartbeats find it dead (about half a minute): his turn came, the TV showed it as
   * his to play, and his phone, offline, still said "Your turn!" with live buttons (round
   * 40's play-test). A closed stream is noticed within a second or two, as a closed page is;
   * the guest looking again is back at once (wakeUp).
   */
  function letGo() {
    if (state.token && !state.replaced) connectionLost();
  }

  /** Between games (the lobby, a game's end) a hidden page keeps its stream: guests lock
   * their phones while the others join, and the lobby's 60 s rule would take their seats. It
   * lets go at the first table of a game it sees while hidden (the stream's message). */
  const betweenGames = () => ["lobby", "game_over"].includes(state.view?.phase);

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) wakeUp();
    else if (!betweenGames()) letGo();
  });
  window.addEventListener("online", wakeUp);
  window.addEventListener("offline", letGo);

  /* ------------------------------------------------------------------ actions */

  function setBusy(busy) {
    state.busy = busy;
    if (!busy) calmFor(BUTTONS_BACK_MS);
    for (const button of document.querySelectorAll("#actions button")) button.disabled = busy;
  }

  /** The last action sent, until it is answered: a setting asked for meanwhile waits for it. */
  let lastSent = Promise.resolve(null);

  /**
   * POST an action for the current step. Resolves to the new view, rendered, or to null after
   * the error is shown. The buttons are disabled at once, and a tap while another action is on
   * its way is dropped: a double tap is harmless. A setting whose fields hold the whole choice
   * (`{ wait: true }`: the VIP's house rules, the TV's settings) is not dropped but sent after
   * that answer, with the step it brought, if the view still allows it: on slow Wi-Fi, nothing
   * the VIP chose is lost.
   */
  function send(action, extra = {}, { wait = false } = {}) {
    if (state.busy && !wait) return Promise.resolve(null);
    const allowed = () => Boolean(state.view && state.view.can.includes(action));
    const sent = state.busy
      ? lastSent.then(() => (allowed() ? post(action, extra) : null))
      : post(action, extra);
    lastSent = sent.catch(() => null); /* one failure does not stop every later setting */
    return sent;
  }

  async function post(action, extra, remember = true) {
    if (!state.view) return null;
    /* handing the VIP role on myself: no "while you were away" (renderMissed) */
    if (action === "make_vip") keepKnown({ ...knownBefore(), vip: false });
    /* a disabled button loses focus: remember to give it back to the next thing to do */
    const hadFocus = byId("actions").contains(document.activeElement);
    state.actionsHadFocus = hadFocus;
    setBusy(true);
    const error = setText(byId("action-error"), "");
    delete error.dataset.round; /* a lost tap told (resendUnsent) is over with a new one */
    let view = null;
    const step = state.view.step;
    state.unsent = null; /* a new tap replaces one that never arrived */
    /* no answer at all, even after the retries (err_no_answer): the host is down or the
     * Wi-Fi is; the tap waits for either (resendUnsent), and the words say so (round 43's
     * play-test: "Are you on the same Wi-Fi?" sent a guest to their settings while the TV's
     * computer restarted) */
    const [status, answer] = await sendAction({ ...extra, action, step })
      .catch(() => [0, { error: "network" }]);
    setText(error, "").classList.remove("sending"); /* "still sending" is over */
    /* resendUnsent; ``offline``: the phone had no network, so the tap surely never left */
    if (!status && remember) state.unsent = { action, extra, step, offline: !navigator.onLine };
    if (status === 200) view = answer;
    else if (status === 401) {
      setBusy(false);
      forgetSeat(answer);
      return null;
    } else if (state.unsent?.offline) {
      /* not the Wi-Fi alarm: nothing is wrong with the party, and the tap is not lost yet */
      setText(error, t("tap_waits_offline")).classList.add("sending");
    } else if (answer.error !== "stale_step") {
      error.textContent = status ? errorText(answer.error) : noAnswer();
    }
    /* every button drawn meanwhile, too: the stream may have brought newer tables while the
       answer travelled, and then the answer (older) is not drawn again */
    setBusy(false);
    /* While the stream is open it brings every change, and what it brought after this answer
       was written (a player went away) is newer than the answer: an answer no newer than the
       table drawn is then not drawn over it. */
    const streamOpen = state.stream && state.stream.readyState === EventSource.OPEN;
    if (!view) refresh();
    else if (!streamOpen || !state.view || view.step > state.view.step) render(view);
    else keepFocus(hadFocus); /* the stream drew this table while the buttons were disabled */
    return view;
  }

  /**
   * The line for a tap none of whose sends was answered. The phone cannot tell the host down
   * from the Wi-Fi down: a guest hears both; the VIP, the evening's host and usually by the TV's
   * computer, is asked first whether the game still runs there (restarted, it keeps every seat),
   * not sent to their Wi-Fi settings (round 47's brief). Offline, tap_waits_offline says it.
   */
  const noAnswer = () => t(isVip() ? "err_no_answer_vip" : "err_no_answer");
  const isVip = () => state.view?.me.is_vip === true;

  /** [status, answer] of an action, sent up to ACTION_SENDS times while no answer comes
   * (ACTION_SENDS says why); each retry waits a little, for a Wi-Fi that dropped for a moment. */
  async function sendAction(body) {
    for (let sends = 1; ; sends++) {
      try {
        return await callApi("POST", "/api/action", body);
      } catch (error) {
        if (sends === ACTION_SENDS || !navigator.onLine) throw error; /* offline: fails at once */
      }
      setText(byId("action-error"), t("still_sending")).classList.add("sending");
      await new Promise((resume) => setTimeout(resume, FIRST_RETRY_MS));
    }
  }

  /* ------------------------------------------------------------------ sound and vibration */

  let audio = null;
  const wanted = (kind) => localStorage.getItem("cuckoo:" + kind) !== "off";

  /** Browsers allow sound only after a tap: open the audio context then. */
  function unlockSound() {
    try {
      audio ||= new AudioContext();
      audio.resume();
    } catch {
      audio = null;
    }
  }

  /** A few short tones: [frequency in Hz, start in s, length in s]. */
  function playTones(tones) {
    if (!wanted("sound") || !audio) return;
    try {
      const now = audio.currentTime;
      for (const [frequency, start, length] of tones) {
        const oscillator = audio.createOscillator();
        const gain = audio.createGain();
        oscillator.frequency.value = frequency;
        gain.gain.setValueAtTime(0.2, now + start);
        gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
        oscillator.connect(gain).connect(audio.destination);
        oscillator.start(now + start);
        oscillator.stop(now + start + length);
      }
    } catch {
      /* no sound on this phone */
    }
  }

  function vibrate(pattern) {
    if (wanted("vibrate") && navigator.vibrate) navigator.vibrate(pattern);
  }

  for (const kind of ["sound", "vibrate"]) {
    const box = byId("opt-" + kind);
    box.checked = wanted(kind);
    box.addEventListener("change", () => {
      localStorage.setItem("cuckoo:" + kind, box.checked ? "on" : "off");
      if (box.checked) unlockSound();
    });
  }
  document.addEventListener("pointerdown", unlockSound, { once: true });

  /* ------------------------------------------------------------------ big moments */

  /** How each big moment sounds, tone by tone: [Hz, start s, length s]; it buzzes alike. */
  const MOMENT_ALERTS = {
    turn: [[880, 0, 0.25]],
    blocked: [[660, 0, 0.15], [990, 0.15, 0.3]],
    life: [[330, 0, 0.4]],
    out: [[330, 0, 0.3], [220, 0.3, 0.5]],
    win: [[660, 0, 0.15], [880, 0.15, 0.15], [1320, 0.3, 0.4]],
  };

  /** Cover the screen for a moment with one big line, then give the card back. */
  function showMoment(kind, text, ms = MOMENT_MS) {
    const moment = byId("moment");
    moment.className = "moment-" + kind;
    setText(byId("moment-text"), text);
    moment.hidden = false;
    clearTimeout(state.momentTimer);
    state.momentTimer = setTimeout(hideMoment, ms);
    const tones = MOMENT_ALERTS[kind];
    playTones(tones);
    vibrate(tones.flatMap(([, , length]) => [length * 1000, 60])); /* buzz with each tone */
  }

  function hideMoment() {
    clearTimeout(state.momentTimer);
    byId("moment").hidden = true;
  }

  byId("moment").addEventListener("click", hideMoment);

  /* ------------------------------------------------------------------ screen reader news */

  /** Say something once in the live region (only new news is ever passed here). */
  function announce(lines) {
    const text = lines.filter(Boolean).join(" ");
    if (text) byId("announcer").textContent = text;
  }

  /* ------------------------------------------------------------------ reading a view */

  /* a player who left is still named by the log's removal or redeal (round 40: "? kept") */
  const nameOf = (view, id) => view.players.find((player) => player.id === id)?.name
    ?? (view.log || []).find((event) => event.player === id && event.name)?.name ?? "?";
  const isMyTurn = (view) => view.phase === "turns" && view.current === view.me.id;
  /* a game I won; not one ended by a walkover (everyone else left: round 46), which wins nothing */
  const iWon = (view) => view.phase === "game_over" && !view.walkover && (view.winners || []).includes(view.me.id);
  const revealed = (view) => view.phase === "reveal" || view.phase === "game_over";

  /** Players counted by Start: seated and present (PHONE_API.md, Presence). */
  function presentPlayers(view) {
    return view.players.filter((player) =>
      player.status === "active" && (player.connected !== false || player.bot)).length;
  }

  /** Events added to this round's log since the previous view (all of them in a new round). */
  function newEvents(previous, view) {
    if (!previous) return [];
    /* a redeal keeps the round's number; its log opens with the misdeal instead */
    const opening = (table) => JSON.stringify((table.log || [])[0] ?? null);
    if (previous.round !== view.round || previous.phase === "lobby" || opening(previous) !== opening(view)) {
      return view.log || [];
    }
    return (view.log || []).slice((previous.log || []).length);
  }

  /* ------------------------------------------------------------------ rendering */

  /** Draw the whole view; then tell what changed (live region, big moments) and the add-ons.
   * ``now``: the view is the table as it is now (a new stream's first), however old its step. */
  function render(view, now = false) {
    if (!view || !view.me) return;
    const previous = state.view;
    if (previous && view.step < previous.step && !now) return; /* a late, older message */
    state.view = view;
    const actionsHadFocus = state.actionsHadFocus || byId("actions").contains(document.activeElement);
    state.actionsHadFocus = false;
    showScreen("game");
    const main = byId("main");
    main.dataset.step = view.step;
    main.dataset.phase = view.phase;
    document.body.classList.toggle("myturn", isMyTurn(view));

    renderLastGame(view);
    renderMissed(view);
    renderMe(view);
    renderHeadline(view);
    renderClock(view);
    renderOutcome(view);
    renderCard(view);
    renderDealer(view);
    renderActions(view);
    renderStory(view);
    renderPlayers(view);
    keepFocus(actionsHadFocus);
    tellChanges(previous, view);
    loadOnDemandAddOns(view);
    tellAddOns(view);
  }

  /** A tap none of whose sends reached the host (a host frozen longer than all of them) is
   * sent once more when the host's stream speaks again, if the table has not moved and the
   * move is still mine (round 38's play-test: after a 30 s freeze her Keep was lost, and H4
   * took a life for the time-out). Once: the same step can never count twice, and a tap lost
   * again is not kept for another try. A tap made offline never left the phone: if the table
   * moved on meanwhile (away, the host kept for him) the guest is told it did not count, till
   * the round ends or he taps again, rather than left to believe it did (round 40). */
  function resendUnsent() {
    const unsent = state.unsent;
    if (!unsent || state.busy || !state.view) return;
    state.unsent = null;
    if (state.view.step === unsent.step && state.view.can.includes(unsent.action)) {
      post(unsent.action, unsent.extra, false);
    } else if (unsent.offline) {
      const error = setText(byId("action-error"), t("tap_lost_offline"));
      error.classList.remove("sending");
      error.dataset.round = state.view.round;
    }
  }

  /** PHONE_ADDONS.md: every add-on draws the view from this event. */
  function tellAddOns(view) {
    document.dispatchEvent(new CustomEvent("cuckoo:view", { detail: view }));
  }

  /** At the top of the next game's lobby, who won the last game (the view's ``last_winners``,
   * R14: all joint winners): a phone asleep at its end never saw it (round 42). During a round,
   * who lost a life at the last one's reveal (``last_round``): a computer dealer deals again
   * before a glance at the phone could read it (round 44). */
  function renderLastGame(view) {
    const line = byId("last-game");
    const winners = view.last_winners || [];
    const last = view.phase === "turns" && view.last_round;
    line.hidden = !winners.length && !last;
    /* on a short phone it makes way on my turn (phone.css), and stays away for the rest of
       the round: back and gone again, it moved the card 75 px each time (round 45's check) */
    if (view.phase !== "turns") state.asideRound = null; /* a reveal, a new game: forgotten */
    else if (isMyTurn(view)) state.asideRound = view.round;
    line.classList.toggle("aside", state.asideRound === view.round);
    if (last) {
      const losers = listOf(last.losers.map((loser) => lastLoss(view, loser)));
      setTranslated(line, "last_round", { losers, rank: rankName(last.lowest) });
    } else if (!winners.length) clearTranslated(line);
    else setTranslated(line, ...wonLast(view, winners));
  }

  /** [key, params] of "Bo won the last game", "You won the last game!" (R14: joint winners). */
  function wonLast(view, winners) {
    const others = winners.filter((winner) => winner.player !== view.me.id).map((winner) => winner.name);
    const names = listOf(others);
    if (others.length === winners.length) return ["last_winners", { names, count: others.length }];
    return others.length ? ["you_won_last_with", { names }] : ["you_won_last", {}];
  }

  /* ------------------------------------------------------------------ missed while away */

  /** Where this tab keeps what it knew of the table when it last drew it (renderMissed). */
  const missedKey = () => "cuckoo:missed:" + state.room;

  /**
   * Round 47's play-test: Bo's phone was offline across the game's end (he won) and came back
   * straight onto the next game's card: nothing ever said he won. A VIP away a minute lost the
   * role and its controls without a word. So the page keeps what it knew (sessionStorage: a
   * reload keeps it): ``ended``, the game overs counted when it last drew a game
   * (``last_game.number``), ``seen``, whether it drew the end of the game after those, and
   * ``vip``, whether my seat was the VIP. A view that shows more says once what I missed
   * (#missed), until the table moves on (the next round or phase).
   */
  function renderMissed(view) {
    const note = byId("missed");
    const known = knownBefore();
    const mine = known?.player === view.me.id ? known : {}; /* another seat knew nothing */
    const lines = [];
    let { ended = null, seen = false } = mine;
    const last = view.last_game;
    if (last) {
      const { winners, walkover } = last;
      if (ended !== null && last.number > ended + seen && winners.length) {
        /* a walkover won nothing (round 46): the one left is named, as at its game over */
        const alone = winners[0].player === view.me.id ? ["you_missed_walkover"] : ["missed_walkover", winners[0]];
        lines.push(t(...(walkover ? alone : wonLast(view, winners))));
      }
      [ended, seen] = [last.number, false];
    } else if ((view.phase === "game_over" && view.winners?.length) || view.last_winners?.length) {
      seen = ended !== null; /* the screen says how it ended */
    }
    if (mine.vip && !view.me.is_vip && view.vip) lines.push(t("missed_vip", { name: nameOf(view, view.vip) }));
    keepKnown({ player: view.me.id, ended, seen, vip: view.me.is_vip });
    const at = view.phase + view.round;
    if (lines.length) setText(note, lines.join(" "));
    state.missedAt = lines.length || state.missedAt === at ? at : null;
    note.hidden = !state.missedAt;
  }

  const knownBefore = () => JSON.parse(sessionStorage.getItem(missedKey()) || "{}");
  const keepKnown = (known) => sessionStorage.setItem(missedKey(), JSON.stringify(known));

  /** "Grace lost a life (1 left)", "you went out": one loser of ``last_round``. */
  function lastLoss(view, { player, name, lives, lost }) {
    const key = !lives ? "last_out" : lost > 1 ? "last_lost_more" : "last_lost";
    return t((player === view.me.id ? "you_" : "") + key, { name, count: lives, lost });
  }

  /** My line: my colour, my name, my lives, and where I stand. */
  function renderMe(view) {
    const me = view.me;
    const mine = view.players.find((player) => player.id === me.id);
    byId("me-colour").style.backgroundColor = mine?.color ?? "";
    setText(byId("me-name"), me.name);
    byId("lives").replaceChildren(lifeDots(me.lives, Math.max(view.max_lives ?? 0, me.lives)));
    setText(byId("me-status"), statusText(view));
  }

  /** At game over the winner reads "You win!" and the others "Game over", not "Playing";
   * in the lobby a seated guest reads "In the game" (nothing is being played yet). */
  function statusText(view) {
    const me = view.me;
    if (view.phase === "game_over" && me.status !== "waiting") {
      return t(iWon(view) ? "you_win" : "status_lost");
    }
    if (view.phase === "lobby" && me.status === "active") return t("status_lobby");
    return t("status_" + me.status);
  }

  /** The one line that says what is happening now, near the top of the screen. */
  function renderHeadline(view) {
    const headline = byId("turn");
    const me = view.me;
    const can = view.can;
    if (isMyTurn(view) && !can.includes("keep")) {
      /* played: the turn is mine until the TV shows my move, but "Your turn!" over no
         buttons read as buttons gone (round 41's play-test), and a blank line as nothing
         happening (round 44's check) */
      setTranslated(headline, "played");
    } else if (isMyTurn(view)) {
      setTranslated(headline, view.dealer === me.id ? "your_turn_dealer" : "your_turn");
    } else if (view.phase === "turns" && view.current) {
      setTranslated(headline, "deciding", { name: nameOf(view, view.current) });
    } else if (view.phase === "turns" && me.status === "active") {
      /* nobody's turn yet while the TV still deals (host/pacing.py): not "? is deciding…" */
      setTranslated(headline, "dealing");
    } else if (me.status === "waiting") {
      setTranslated(headline, "waiting_note");
    } else if (view.phase === "lobby" && !me.is_vip) {
      /* round 45's play-test: the VIP's phone locked in a pocket, and nothing told the others
         that the TV's Space starts too */
      const ready = view.tv && presentPlayers(view) >= view.min_players;
      setTranslated(headline, ready ? "lobby_wait_tv" : "lobby_wait", { name: nameOf(view, view.vip) });
    } else if (view.phase === "lobby" && !can.includes("start")) {
      const missing = Math.max(1, view.min_players - presentPlayers(view));
      setTranslated(headline, "need_players", { count: missing });
    } else if (view.phase === "reveal" && view.next_dealer && !can.includes("deal")) {
      setTranslated(headline, "next_dealer", { name: nameOf(view, view.next_dealer) });
    } else if (view.phase === "game_over" && !can.includes("new_game")) {
      setTranslated(headline, view.tv ? "new_game_wait_tv" : "new_game_wait", { name: nameOf(view, view.vip) });
    } else {
      clearTranslated(headline);
    }
  }

  /** H4 rapid: seconds left on my turn (the host's own timer decides; this only shows it).
   * Every view is fresh from the host and says what was left when it was built, so a page
   * reloaded mid-turn counts on from there, not from the full time. The view took one way
   * to come and my tap takes one way back: the clock ends a round trip early, when a tap
   * must leave, and shows whole seconds rounded up, as the TV does: 0 once a tap is late. */
  function renderClock(view) {
    clearTimeout(state.clockTimer);
    const clock = byId("clock");
    const left = view.turn_seconds_left;
    if (!isMyTurn(view) || !view.rapid_seconds || left == null) {
      setText(clock, "");
      return;
    }
    const endsAt = performance.now() + left * 1000 - (state.roundTrip || 0);
    const tick = () => {
      const ms = Math.max(0, endsAt - performance.now());
      const count = Math.ceil(ms / 1000); /* H4 only: a time-out costs a life */
      setText(clock, t(count <= RAPID_WARN_SECONDS ? "time_left_life" : "time_left", { count }));
      if (ms) state.clockTimer = setTimeout(tick, (ms % 1000) + 1); /* as the number changes */
    };
    tick();
  }

  /** My card; a "You're out" card once I'm out; a waiting card before I'm dealt in. */
  function renderCard(view) {
    const me = view.me;
    const code = me.card;
    const card = byId("card");
    card.dataset.card = code || "";
    if (code) {
      card.className = "suit-" + cardSuit(code);
      setText(byId("rank"), cardRank(code));
      setText(byId("suit"), SUIT_SYMBOLS[cardSuit(code)]);
      setText(byId("suit-name"), suitName(cardSuit(code)));
      card.setAttribute("aria-label", t("your_card", { card: cardValue(code) }));
      return;
    }
    const out = me.status === "eliminated";
    /* at game over there is no end left to watch on the TV; "Game over" is said above it, by
       my line and the outcome box, and a waiting guest's "next game" by my line and the
       headline: the card says neither a third time (round 47's play-test read "Game over"
       three times, "next game" four) */
    const over = out && view.phase === "game_over";
    const key = over ? "status_lost" : out ? "out_card" : "no_card";
    card.className = out ? "out" : "none";
    setText(byId("rank"), "");
    setText(byId("suit"), "");
    setText(byId("suit-name"), over ? "" : t(key));
    card.setAttribute("aria-label", t(key));
  }

  /** Who deals this round, while its turns go on (at the reveal the headline says who's next). */
  function renderDealer(view) {
    const dealerLine = byId("dealer");
    if (!view.dealer || view.phase !== "turns") clearTranslated(dealerLine);
    else if (view.dealer === view.me.id) setTranslated(dealerLine, "you_deal");
    else setTranslated(dealerLine, "dealer_is", { name: nameOf(view, view.dealer) });
  }

  /** The hint under each button: what pressing it does, with the view's own facts. */
  function actionHint(view, action) {
    const me = view.me;
    switch (action) {
      case "start": {
        /* every active player is dealt in, away ones too: say who (round 43's play-test: the
         * hint counted 6 present, 7 were dealt, one of them gone home); Start needs 3: plural */
        const seated = view.players.filter((player) => player.status === "active");
        const away = seated.filter((player) => player.connected === false && !player.bot);
        return away.length
          ? ["start_hint_away", { count: seated.length, names: listOf(away.map((player) => player.name)) }]
          : ["start_hint", { count: seated.length }];
      }
      case "keep": return ["keep_hint", { card: me.card ? cardValue(me.card) : "" }];
      case "exchange": return ["exchange_hint", { name: nameOf(view, me.target) }];
      case "cut": {
        const cutBefore = (view.log || []).some((event) => event.type === "cut_taken" && event.dealer === me.id);
        return [cutBefore ? "cut_again_hint" : "cut_hint", {}];
      }
      case "deal": return ["deal_hint", { round: view.round + 1 }];
      case "new_game": return ["new_game_hint", {}];
      default: return null; /* an add-on's action: its own panel shows it */
    }
  }

  /**
   * My buttons, each with one line saying what it does. Buttons that stay are kept (not
   * rebuilt), so focus stays on them (issue 19).
   */
  function renderActions(view) {
    const box = byId("actions");
    const actions = view.can.filter((action) => actionHint(view, action));
    for (const row of [...box.children]) {
      if (!actions.includes(row.dataset.action)) row.remove();
    }
    actions.forEach((action, index) => {
      let row = box.querySelector(`.act[data-action="${action}"]`);
      if (!row) row = actionRow(action);
      if (box.children[index] !== row) box.insertBefore(row, box.children[index] || null);
      const button = row.querySelector("button");
      button.className = index === 0 ? "" : "alt";
      button.disabled = state.busy;
      const [key, params] = actionHint(view, action);
      setTranslated(row.querySelector("small"), key, params);
    });
    const error = byId("action-error");
    if (!actions.length && error.dataset.round !== String(view.round)) setText(error, "");
  }

  function actionRow(action) {
    const row = element("div", "act");
    row.dataset.action = action;
    const button = element("button", "", t(action));
    button.type = "button";
    button.dataset.action = action;
    const hint = element("small");
    hint.id = "hint-" + action;
    button.setAttribute("aria-describedby", hint.id);
    button.addEventListener("click", () => {
      const now = performance.now();
      if (now >= byId("actions").dataset.calm) {
        calmFor(SAME_GESTURE_MS);
        send(action);
      } else calmFor(Math.min(SAME_GESTURE_MS, calmSince + LONGEST_CALM_MS - now), false);
    });
    row.append(button, hint);
    return row;
  }

  /**
   * Taps on my buttons before ``#actions[data-calm]`` (performance.now()) are the second tap
   * of the last (SAME_GESTURE_MS); kept there, where tests wait as a person's eyes do.
   * ``calmSince``: when the calm began (a tap sent, the buttons back), unless ``begins`` is
   * false (a tap dropped: LONGEST_CALM_MS).
   */
  function calmFor(ms, begins = true) {
    const box = byId("actions");
    if (begins) calmSince = performance.now();
    box.dataset.calm = Math.max(box.dataset.calm, performance.now() + ms);
  }

  /** When the button that had focus went away, focus goes to the next thing to do. */
  function keepFocus(actionsHadFocus) {
    const focused = document.activeElement;
    const lost = !focused || focused === document.body;
    if (state.focusAfterJoin || (actionsHadFocus && lost)) {
      state.focusAfterJoin = false;
      const firstButton = byId("actions").querySelector("button");
      (firstButton || byId("turn")).focus();
    }
  }

  /**
   * The reveal in lines of [key, params, className]: the winner(s), the lowest rank, who lost
   * a life, who is out. Shown in the outcome box and spoken once by the live region.
   */
  function outcomeLines(view) {
    const me = view.me.id;
    const name = (id) => nameOf(view, id);
    const winners = view.phase === "game_over" ? view.winners || [] : [];
    const lines = [];
    if (winners.length === 1) {
      /* round 46: a walkover (everyone else left) is told as it is, with no win */
      const key = view.walkover ? "last_at_table" : winners[0] === me ? "you_win" : "winner";
      lines.push([key, { name: name(winners[0]) }, "big"]);
    } else if (winners.length > 1) {
      lines.push(["joint_winners", { names: listOf(winners.map(name)) }, "big"]);
    }
    if (view.lowest) lines.push(["lowest", { rank: rankName(view.lowest) }]);
    for (const id of view.losers || []) {
      /* H4: a time-out costs a life even with a good card; say why, or it looks like a bug */
      const late = (view.log || []).some((e) => e.type === "life_lost" && e.player === id && e.timed_out);
      /* …and why: out of time, away, or skipped by the VIP (the keep that cost it) */
      const kept = (view.log || []).find((e) => e.type === "kept" && e.player === id && e.timed_out);
      const why = { skipped: "penalty_skipped", away: "penalty_away" }[kept?.reason] ?? "timed_out";
      if (late) lines.push(id === me ? ["you_" + why, {}, "mine"] : [why, { name: name(id) }]);
      const line = lifeLine(view, id);
      if (line) lines.push(line);
    }
    for (const id of view.eliminated || []) {
      if (winners.includes(id)) continue; /* R14: joint winners lose their last lives, and win */
      lines.push(id === me ? ["you_out", {}, "mine"] : ["is_out", { name: name(id) }]);
    }
    return lines;
  }

  /** "You lose a life — 2 left", or 2 lives (H4: a time-out with the lowest card, round
   * 42); null once out (told apart). */
  function lifeLine(view, id) {
    const count = view.players.find((player) => player.id === id)?.lives;
    if (!count) return null;
    const lost = (view.log || []).find((e) => e.type === "life_lost" && e.player === id)?.lost ?? 1;
    const key = lost > 1 ? "lost_lives" : "lost_life";
    const params = { name: nameOf(view, id), count, lost };
    return id === view.me.id ? ["you_" + key, params, "mine"] : [key, params];
  }

  /** The outcome box, open at the reveal and at game over; H5 deals last. */
  function renderOutcome(view) {
    const section = byId("outcome");
    const list = byId("outcome-lines");
    section.hidden = !revealed(view);
    list.replaceChildren();
    if (!revealed(view)) return;
    /* the game's end is not one more "Cards on the table" (round 41's play-test) */
    const title = section.firstChild;
    title.dataset.reveal ??= title.textContent;
    setText(title, view.phase === "game_over" ? t("status_lost") : title.dataset.reveal);
    const lines = outcomeLines(view);
    for (const [key, params, className] of lines) {
      const line = element("li", className);
      line.append(translatedNodes(key, params));
      list.append(line);
      /* H5's deals right after the lowest card: they decide who of its holders is out */
      if (key === "lowest") renderSuddenDeath(view, list);
    }
    if (!lines.some(([key]) => key === "lowest")) renderSuddenDeath(view, list);
    /* With a TV, the outcome comes as it plays the reveal: till then the box says why it waits. */
    if (!list.children.length) list.append(element("li", null, t("reveal_turning")));
  }

  /** H5 (it comes after a lowest card): every deal but the last was a tie for highest; the
   * last one's highest card won. */
  function renderSuddenDeath(view, lines) {
    const deals = view.phase === "game_over" ? view.sudden_death || [] : [];
    const winner = (view.winners || [])[0];
    /* why there is one at all: everyone left went out at once (round 42's play-test) */
    if (deals.length) lines.append(element("li", null, t("sudden_start")));
    deals.forEach((deal, index) => {
      const cards = Object.keys(deal).map((id) =>
        translatedNodes("sudden_card", { name: nameOf(view, id), card: cardValue(deal[id]) }));
      const last = index === deals.length - 1;
      const line = element("li");
      line.append(translatedNodes(last ? "sudden_won" : "sudden_tie",
        { cards: listOfNodes(cards), name: nameOf(view, winner) }));
      lines.append(line);
    });
  }

  /** The round told from my seat: public lines, my own trades in full, newest first; no
   * heading over nothing (the lobby, a round's first turn). */
  function renderStory(view) {
    const list = byId("story");
    list.replaceChildren();
    for (const { line: [key, params] } of storyEntries(view)) {
      const line = element("li");
      line.append(translatedNodes(key, params));
      list.prepend(line);
    }
    byId("story-part").hidden = !list.childElementCount;
  }

  /** {event, line: [key, params]} for each event of this round's log worth telling. */
  function storyEntries(view) {
    const me = view.me.id;
    const myEvents = (view.me.history || []).slice();
    /* my next private record of ``type``, used up unless ``keep`` (a look ahead) */
    const takeMine = (type, keep = false) => {
      const index = myEvents.findIndex((event) => event.type === type);
      return index < 0 ? null : keep ? myEvents[index] : myEvents.splice(index, 1)[0];
    };
    const entries = [];
    let again = false; /* H3: the result of the dealer's second cut (its ``cut`` event's attempt) */
    for (const event of view.log || []) {
      if (event.type === "cut") again = (event.attempt || 1) > 1;
      const line = storyLine(view, event, me, takeMine, again);
      if (line) entries.push({ event, line });
    }
    return entries;
  }

  function callWord(event) {
    return t(event.call === "chase" ? "call_chase" : "call_cuckoo");
  }

  function storyLine(view, event, me, takeMine, again) {
    const name = (id) => nameOf(view, id);
    const myCard = view.me.card ? cardValue(view.me.card) : "";
    switch (event.type) {
      case "kept":
        if (event.player === me) return [keptKey(event, true), { card: myCard }];
        return [keptKey(event, false), { name: name(event.player) }];
      case "misdeal":
        return redealLine(event);
      case "exchanged": {
        const swap = event.player === me || event.target === me ? takeMine("swap") : null;
        if (!swap) return ["log_exchanged", { name: name(event.player), target: name(event.target) }];
        const gave = cardValue(swap.gave);
        const got = cardValue(swap.got);
        if (swap.player === me) return ["you_gave", { name: name(swap.target), gave, got }];
        return ["took_yours", { name: name(swap.player), gave, got }];
      }
      case "blocked": {
        const params = { target: name(event.target), king: cardValue(event.king), call: callWord(event), card: myCard };
        if (event.player === me) return ["you_blocked", { ...params, name: name(event.target) }];
        if (event.target === me) return ["you_showed", { ...params, name: name(event.player) }];
        return ["log_blocked", { ...params, name: name(event.player) }];
      }
      case "cut_taken": {
        const cut = event.dealer === me ? takeMine("cut_card") : null;
        if (cut) return ["you_cut", { card: cardValue(cut.card), discarded: cardValue(cut.discarded) }];
        return [again ? "log_cut_taken_again" : "log_cut_taken", { name: name(event.dealer) }];
      }
      case "cut_king": {
        /* H3: cut again after it, and the card kept then is the one that second cut discarded */
        const later = event.dealer === me ? takeMine("cut_card", true) : null;
        return [event.dealer === me ? "you_cut_king" : again ? "log_cut_king_again" : "log_cut_king",
          { name: name(event.dealer), king: cardValue(event.king), call: callWord(event), card: later ? cardValue(later.discarded) : myCard }];
      }
      default:
        return null;
    }
  }

  /** A keep's line says why the host kept (round 40: a VIP's skip read "time's up"); mine
   * says too when a time-out, a skip or an away keep costs a life under H4, as the TV does
   * (round 42: "Time's up: you keep your 7♦", and no word of the penalty); the reveal tells
   * everyone. */
  function keptKey(event, mine) {
    const why = { skipped: "_skipped", away: "_away" }[event.reason] ?? (event.auto ? "_auto" : "");
    return mine ? "you_kept" + why + (event.timed_out ? "_penalty" : "") : "log_kept" + why;
  }

  /** Why the round was dealt again: a misdeal, or a player who left (round 40). */
  function redealLine(event) {
    return event.reason === "player_left" ? ["redealt_left", { name: event.name ?? "?" }] : ["redealt", {}];
  }

  /** Everyone at the table: colour, name, computer mark, lives, badges, a card when seen. */
  function renderPlayers(view) {
    const list = byId("players");
    list.replaceChildren(...view.players.map((player) => playerRow(view, player)));
  }

  function playerRow(view, player) {
    const row = element("li", (view.losers || []).includes(player.id) ? "row lost" : "row");
    row.append(colourMark(player.color), element("span", "name", player.name));
    const badges = [
      [player.id === view.me.id, "you"],
      [player.bot, "bot"],
      [player.id === view.dealer && view.phase !== "lobby", "dealer"],
      [player.id === view.current, "turn"],
      [player.status === "eliminated", "out"],
      [player.status === "waiting" && player.id !== view.me.id, "waiting"], /* mine: my line says it */
      [player.connected === false && !player.bot, "away"],
    ];
    const details = element("span", "details");
    details.append(lifeDots(player.lives, Math.max(view.max_lives ?? 0, player.lives)));
    for (const [shown, badge] of badges) {
      if (shown) details.append(element("span", "badge", t("badge_" + badge)));
    }
    if (player.card) details.append(cardChip(player.card));
    row.append(details);
    return row;
  }

  /* ------------------------------------------------------------------ what changed */

  /**
   * Compare the new view with the one before: speak each piece of news once (issue 19) and
   * play the big moments (issue 12.2).
   */
  function tellChanges(previous, view) {
    const me = view.me;
    const news = [];
    let moment = null;
    const turn = isMyTurn(view) ? turnId(view) : "";
    /* my turn ended without my tap (a walkover, a redeal, the host kept for me): its cover
       goes now, not 2.2 s over the new screen */
    if (turn !== state.shownTurn && byId("moment").className === "moment-turn") hideMoment();
    if (turn && turn !== state.shownTurn) requestAnimationFrame(showMyTurn);
    state.shownTurn = turn;
    /* told once a turn, not again by a reload or a wake from sleep (round 46's brief) */
    if (turn !== sessionStorage.getItem(turnKey())) {
      if (turn) {
        news.push(t(view.dealer === me.id ? "your_turn_dealer" : "your_turn"));
        moment = ["turn", t("your_turn"), view.rapid_seconds ? RAPID_MOMENT_MS : MOMENT_MS];
      }
      sessionStorage.setItem(turnKey(), turn);
    }

    for (const event of newEvents(previous, view)) {
      const told = eventNews(view, event);
      if (told) news.push(told);
      if (event.type === "blocked" && event.target === me.id) {
        moment = ["blocked", t("moment_blocked", { call: callWord(event), name: nameOf(view, event.player) })];
      }
    }
    if (previous && revealed(view)) {
      const before = revealed(previous) ? said(previous) : [];
      const fresh = said(view).filter((line) => !before.includes(line));
      news.push(...fresh);
      const outcome = revealMoment(view); /* its words are one of the reveal's lines */
      if (outcome && fresh.includes(outcome[1])) moment = outcome;
    }
    if (previous && view.can.includes("start") && !previous.can.includes("start")) {
      news.push(t("start_ready", { count: presentPlayers(view) }));
    }
    announce(news);
    if (moment) showMoment(...moment);
  }

  /**
   * My turn's line and buttons in sight: round 43's play-test found the buttons a screen below
   * at 200 % text, and round 46's brief the line scrolled above the screen once they were
   * shown. The page scrolls as little as it can so the buttons end on the screen and the line
   * starts on it; on a phone too short for both, the line goes at the top, the buttons under.
   */
  function showMyTurn() {
    const line = byId("turn").getBoundingClientRect();
    const buttons = byId("actions").getBoundingClientRect();
    scrollBy(0, Math.floor(Math.min(line.top, Math.max(0, buttons.bottom - innerHeight))));
  }

  /** Where this tab keeps the turn of mine it told last (sessionStorage: kept by a reload). */
  const turnKey = () => "cuckoo:turn:" + state.room;

  /**
   * Which turn of mine a view shows, the same in every view of it: my seat, how many deals I
   * was dealt into tonight (a new game's round 1 is a new deal; ``standings``), the round, and
   * how its deal opened (a redeal's ``misdeal`` counts the deals). A deal gives me one turn at
   * most (R6), however many cuts it holds (H3).
   */
  function turnId(view) {
    const dealt = (view.standings || []).find((line) => line.player === view.me.id)?.rounds;
    return JSON.stringify([view.me.id, dealt, view.round, (view.log || [])[0]]);
  }

  /** The spoken line for a new event that concerns me (my card changed, a King shown). */
  function eventNews(view, event) {
    const me = view.me.id;
    if (event.type === "misdeal") return t(...redealLine(event)); /* my card changes: say why */
    if (event.type === "round_dealt") {
      const dealt = (view.me.history || []).find((told) => told.type === "card_dealt");
      return dealt ? t("your_card", { card: cardValue(dealt.card) }) : null;
    }
    const mine = event.player === me || event.target === me || event.dealer === me;
    if (!mine || event.type === "turn" || event.type === "kept") return null;
    const entry = storyEntries(view).find((told) => told.event === event);
    return entry ? t(...entry.line) : null;
  }

  /**
   * The reveal's lines as spoken. Why compared line by line: while a TV leads, the reveal
   * reaches a phone as the TV plays it (the cards, then the lowest rank, then each lost life),
   * so each line and the big moment are news when they first appear, not when the phase turns.
   */
  function said(view) {
    return outcomeLines(view).map(([key, params]) => t(key, params));
  }

  /** The biggest thing the reveal did to me: a win, then being out, then a lost life. */
  function revealMoment(view) {
    const me = view.me.id;
    if (iWon(view)) return ["win", t("you_win")];
    if ((view.eliminated || []).includes(me)) return ["out", t("you_out")];
    const line = (view.losers || []).includes(me) && lifeLine(view, me);
    return line ? ["life", t(line[0], line[1])] : null;
  }

  /* ------------------------------------------------------------------ on-demand add-ons */

  /**
   * Add-ons a phone fetches only once its view says it can use them (page.py ON_DEMAND_SCRIPTS).
   * Each comes with its messages for this page's language; once it has run, the view it missed
   * is told again (to every add-on: drawing a view twice changes nothing). Once fetched it
   * stays, and hides itself when no longer wanted.
   */
  const ON_DEMAND_ADDONS = [{ script: "vip.js", wanted: (view) => view.me.is_vip === true }];

  function loadOnDemandAddOns(view) {
    for (const addOn of ON_DEMAND_ADDONS) {
      if (addOn.requested || !addOn.wanted(view)) continue;
      addOn.requested = true;
      const url = new URL(addOn.script, scriptUrl);
      url.searchParams.set("lang", language);
      const script = element("script");
      script.src = url.pathname + url.search;
      script.addEventListener("load", () => tellAddOns(state.view));
      script.addEventListener("error", () => {
        addOn.requested = false; /* lost on the way: the next view asks again */
        script.remove();
      });
      document.head.append(script);
    }
  }

  /* ------------------------------------------------------------------ start */

  function start() {
    if (!state.room) {
      showScreen("room-form");
      return;
    }
    state.token = localStorage.getItem(tokenKey());
    if (state.token) connect();
    else showScreen("join-form");
  }

  /** The add-on interface (PHONE_ADDONS.md), set before any add-on script runs. */
  window.cuckoo = {
    t: (key, params = {}) => t(key, params),
    send,
    request,
    cardName,
    cardSymbol,
    view: () => state.view,
    /** element(tag, className, text): a new element, its text set as textContent only. */
    element,
    /** button(text, onClick, className = "alt"): a button that does onClick when tapped. */
    button,
    /** Messages an on-demand add-on brings with it ("<domain>.<key>" → message). */
    addMessages: (more) => Object.assign(messages, more),
  };

  start();
})();

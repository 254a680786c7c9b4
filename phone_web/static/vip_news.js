/* "Bea is now the VIP.": every phone says for a few seconds when the VIP role moves (issue 13),
 * and "The VIP ended the game. Back to the lobby!", the TV's words, when the VIP ended a game
 * early: back in the lobby with no word, guests thought the game had crashed (round 42).
 *
 * An add-on of the phone page (PHONE_ADDONS.md), bundled for every phone: the VIP's own
 * controls (vip.js) are fetched only by the VIP's phone, but everybody hears who runs the
 * party now. The name is set with textContent; the text comes from cuckoo.t("vip.now_vip").
 */
(() => {
  "use strict";

  const cuckoo = window.cuckoo;
  if (!cuckoo) return;

  /** This add-on's message: "vip.<key>" (the VIP's words, like vip.js). */
  const t = (key, params) => cuckoo.t("vip." + key, params);
  /** How long the news stays on screen, in milliseconds. */
  const NEWS_MS = 6000;

  const news = document.createElement("p");
  news.id = "vip-news";
  news.setAttribute("role", "status");

  /** The VIP of the last view drawn (null before the first one). */
  let lastVip = null;
  /** Did the last view's log hold the game's end (the lobby's, till the next game starts)? */
  let lastEnded = true;
  let clearTimer = 0;

  function say(text) {
    news.textContent = text;
    clearTimeout(clearTimer);
    clearTimer = setTimeout(() => {
      news.textContent = "";
    }, NEWS_MS);
  }

  function showNews(view) {
    if (!view || !view.me) return;
    if (!news.isConnected) document.getElementById("game").prepend(news);
    /* the old VIP back from away reads it in #missed (phone.js renderMissed): not twice */
    const toldMissed = lastVip === view.me.id && !document.getElementById("missed")?.hidden;
    if (lastVip && view.vip && view.vip !== lastVip && !toldMissed) {
      const newVip = view.players.find((player) => player.id === view.vip);
      /* round 47: the new VIP's own phone read "Bo is now the VIP." about Bo */
      if (view.vip === view.me.id) say(t("you_now_vip"));
      else say(t("now_vip", { name: newVip ? newVip.name : "" }));
    }
    /* once, as it happens: not to a page opened in that lobby */
    const ended = (view.log || []).some((event) => event.type === "game_ended");
    /* the VIP's own phone says "You ended the game" (round 42's check) */
    if (ended && !lastEnded) say(t(view.vip === view.me.id ? "you_ended_game" : "game_ended"));
    lastVip = view.vip || lastVip;
    lastEnded = ended;
  }

  document.addEventListener("cuckoo:view", (event) => showNews(event.detail));
  showNews(cuckoo.view());
})();

// The Daily page's countdown to the next deal, ticking once a second
// (progressive enhancement: without JavaScript the server's hours and
// minutes stay). The server gives the seconds left, so a browser clock that
// is wrong does not matter; at zero the countdown gives way to a link to
// the new day's deal (and today's play button, which would deal the new
// day's deal under this page's old words, goes). The words come from the page (data-template, with
// {h}, {m} and {s}), so they are in the page's language. A page nobody sees
// (a tab in the background, a phone's screen turned off) does not tick: it
// would wake the phone each second for nothing; seen again, it shows the
// time left at once and ticks on. The next deal's time in the player's own
// clock is local-time.js's.
"use strict";

(function () {
  const countdown = document.querySelector(".countdown[data-seconds-left]");
  if (!countdown) return;
  const left = countdown.querySelector(".countdown-left");
  const done = document.querySelector(".countdown-done");
  const play = document.querySelector(".daily-play");
  const template = countdown.dataset.template;
  const end = Date.now() + Number(countdown.dataset.secondsLeft) * 1000;
  const two = (number) => String(number).padStart(2, "0");
  let timer = null;

  function tick() {
    timer = null;
    const seconds = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    if (seconds === 0) {
      countdown.hidden = true;
      if (done) done.hidden = false;
      if (play) play.remove();
      return;
    }
    left.textContent = template
      .replace("{h}", String(Math.floor(seconds / 3600)))
      .replace("{m}", two(Math.floor((seconds % 3600) / 60)))
      .replace("{s}", two(seconds % 60));
    // The next tick when the shown second changes.
    if (!document.hidden) timer = setTimeout(tick, ((end - Date.now()) % 1000) + 20);
  }
  document.addEventListener("visibilitychange", () => {
    clearTimeout(timer);
    timer = null;
    if (!document.hidden && !countdown.hidden) tick();
  });
  tick();
})();

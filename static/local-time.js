// Times of day in the player's own clock (progressive enhancement: without
// JavaScript, or on a clock on UTC, the server's UTC text stays alone).
//
// The server writes times in UTC, as it does not know where the player is:
// the next Daily deal, the finishing times of a Daily board, when the tasks
// and the challenge change. Each is a <time datetime="...Z"> holding an
// empty <span class="local-time">; where the browser's clock is not on UTC
// at that moment, the time there is added after the UTC one ("00:00 UTC,
// 03:00 your time"), in the words of the nearest data-local attribute
// ("{t} your time", in the page's language). The <time> may say how:
// data-local-seconds adds the seconds (a board's finishing times);
// data-local-day="weekday" names the local weekday when it is not the UTC
// one (a change every Monday), "none" names no day (a change every day);
// otherwise the local date is added when it is another day than the UTC one.
// Days themselves stay UTC days: only the time of day is the player's.
"use strict";

(function () {
  const language = document.documentElement.lang || undefined;
  for (const local of document.querySelectorAll("time[datetime] .local-time")) {
    const when = local.closest("time[datetime]");
    const words = local.closest("[data-local]");
    if (!words) continue;
    const moment = new Date(when.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime()) || moment.getTimezoneOffset() === 0) continue;
    const otherDay = moment.getDate() !== moment.getUTCDate();
    const day = when.dataset.localDay;
    const format = new Intl.DateTimeFormat(language, {
      weekday: otherDay && day === "weekday" ? "short" : undefined,
      month: otherDay && !day ? "short" : undefined,
      day: otherDay && !day ? "numeric" : undefined,
      hour: "2-digit",
      minute: "2-digit",
      second: "localSeconds" in when.dataset ? "2-digit" : undefined,
      hourCycle: "h23",
    });
    const phrase = document.createElement("span");
    phrase.className = "nowrap";
    phrase.textContent = words.dataset.local.replace("{t}", format.format(moment));
    local.replaceChildren(", ", phrase);
  }
})();

// The review summary's progress bar: asks the status address every second
// and moves the bar (and says its place in line while it waits for a
// review worker); once the summary is done, puts the page's new content in
// place without a reload, the focus staying on the link it was on, and
// says so in the progress text's live region (without JavaScript, the page
// reloads itself through its <noscript> refresh). A page nobody sees (a
// tab in the background, a phone's screen turned off) does not ask: the
// summary goes on on the server all the same, and the page asks at once
// when it is seen again.
(function () {
  "use strict";
  const bar = document.getElementById("review-progress");
  const text = document.getElementById("review-progress-text");
  const waiting = document.getElementById("review-waiting");
  const busy = document.getElementById("review-busy");
  const stalled = document.getElementById("review-stalled");
  if (!bar || !text) return;
  let timer = null; // the next ask, while the page is seen
  let asking = false; // an ask on its way
  let over = false; // done, failed or reloading: no more asks
  function show(done, total, ahead) {
    bar.max = total;
    bar.value = done;
    // Only a new count is put in the live region: the same words set again
    // each second would be read out again each second.
    const said = text.dataset.template.replace("{done}", done).replace("{total}", total);
    if (text.textContent !== said) text.textContent = said;
    if (waiting) {
      waiting.hidden = ahead === null || ahead === undefined;
      if (!waiting.hidden) waiting.textContent = waiting.dataset.template.replace("{place}", ahead + 1);
    }
  }
  async function showDone() {
    const answer = await fetch(window.location.href);
    const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
    const main = doc.querySelector("main");
    if (!answer.ok || !main) {
      window.location.reload();
      return;
    }
    // The same link in the new content: the same address and words.
    const link = document.activeElement?.closest("main a[href]");
    const same = (other) => other.href === link.href && other.textContent === link.textContent;
    document.querySelector("main").replaceWith(document.adoptNode(main));
    document.title = doc.title;
    if (link) [...main.querySelectorAll("a[href]")].find(same)?.focus();
    // The live region stays on the page, hidden, to say the summary is in.
    text.classList.add("visually-hidden");
    main.querySelector("h1")?.after(text);
    text.textContent = text.dataset.done;
  }
  function askLater() {
    if (!over && !document.hidden) timer = window.setTimeout(poll, 1000);
  }
  async function poll() {
    timer = null;
    asking = true;
    try {
      const answer = await fetch(bar.dataset.status, { headers: { Accept: "application/json" } });
      if (answer.ok) {
        const status = await answer.json();
        show(status.done, status.total, status.ahead);
        if (status.status === "done") {
          over = true;
          await showDone();
          return;
        }
        if (busy) busy.hidden = !status.busy;
        // No decision stored for a while: waiting, or its server stopped.
        if (stalled) stalled.hidden = !status.stalled;
        if (status.status === "new" && !status.busy) {
          // Not started (the queue was not answering, or there was no room
          // among the summaries): the page's visit starts it; after a
          // queue that was not answering, in the seconds it asked for.
          const retry = Number(bar.dataset.retry || 0);
          over = true;
          window.setTimeout(() => window.location.reload(), retry * 1000);
          return;
        }
        if (status.status === "failed") {
          over = true;
          text.textContent = text.dataset.failed;
          if (waiting) waiting.hidden = true;
          if (stalled) stalled.hidden = true;
          return;
        }
      }
    } catch (error) {
      // A network hiccup: try again at the next tick.
    } finally {
      asking = false;
    }
    askLater();
  }
  document.addEventListener("visibilitychange", () => {
    window.clearTimeout(timer);
    timer = null;
    if (!document.hidden && !asking && !over) poll();
  });
  askLater();
})();

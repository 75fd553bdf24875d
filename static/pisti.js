// Pişti: progressive enhancement only; every page works without JavaScript.
//
// A play is posted with fetch and the answer (the page a browser would get
// after the redirect) replaces this one, so the page never reloads. Before
// that, the cards move (FLIP: measure where they are, put the next state in
// place, animate each card from its old place to its new one): your card
// from your hand to the pile, then each reply from its seat, one state per
// play, drawn by the server in the page's <template class="frame"> elements;
// the cards a play takes slide to the taker's seat; the hand's last cards
// stay a moment on the table before its score. The page left at the end
// is exactly the server's page. A click or a key shows the end at once; with
// prefers-reduced-motion nothing moves. With the sounds aid each card makes
// a sound as it lands (made here, no sound files). The aids form is posted
// the same way and the page updated in place.
"use strict";

const STEP_MS = 250; // one play: a card moving to the pile
const MANY_REPLIES = 0.7; // each reply's share of STEP_MS at a table of three or four
const LAST_MS = 200; // after the last play: taken cards leave, dealt cards arrive
const OVERLAP = 0.85; // the next play starts when a move is this far along
const SLOW_REPLY_MS = 600; // with the "the others play slower" aid: each reply's move
const SLOW_REST_MS = 450; // and its card at rest on the pile before the next one moves
const HOLD_MS = 900; // the hand's last cards on the table, before its score
const FAST = 0.4; // with the "fast play" aid: each move's share of its usual time
const FAST_HOLD_MS = 300; // ... and the hand's last cards on the table, before its score
const PATIENCE_MS = 15000; // a form's answer awaited before the form is sent the ordinary way
const WAIT_MS = 1000; // a play's answer awaited before the turn's tag says it is on its way
const REACH_MS = 3000; // between two asks whether the server answers again, in milliseconds
const AHEAD_MS = 5000; // a health check asked ahead of a form's sending stands this long
const VOLUME = 0.25; // the sounds' loudness, 0 to 1
const SOUND_GAP_MS = 200; // between two sounds' starts at least, in milliseconds
const FADE_S = 0.02; // a sound still ringing when the next starts fades out this fast, in seconds
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

document.documentElement.classList.add("js");

let busy = false; // a play is on its way or being shown
let skipping = false; // the player asked for the end at once
let byKeyboard = false; // whether the last input was a key (or a press no pointer made)
let heard = null; // the live region's content when a play began: what was last read out
let queue = Promise.resolve(); // aids changes wait for the play being shown
let saving = Promise.resolve(); // the aids change on its way: a play waits for it
let wake = null; // ends the pause on the hand's last cards at once
let audio = null; // the sounds' AudioContext, made at the first play with the sounds aid on
let noise = null; // half a second of white noise: a card's tap and a capture's sweep
const FROM_KEYBOARD = "pisti-from-keyboard"; // in sessionStorage: the last form was sent by a key
const REFOCUS = "pisti-refocus"; // in sessionStorage: the page loaded again and what had the focus
const SENDING = "data-sending"; // on a form on its way to the server
const SENDING_MS = 10000; // ... which may be sent again after this long, in milliseconds

// The page's state for tests and benchmarks: data-state is "busy" while a
// play is on its way or moving, "ready" when settled; data-settled counts
// the settled updates.
function setState(state) {
  const root = document.documentElement;
  root.dataset.state = state;
  if (state === "ready") root.dataset.settled = String(Number(root.dataset.settled || 0) + 1);
}

function positions() {
  const found = new Map();
  document.querySelectorAll("[data-flip]").forEach((element) => {
    found.set(element.dataset.flip, { element, rect: element.getBoundingClientRect() });
  });
  return found;
}

// A card-sized box in the middle of a seat's cards (the computer's backs or
// your hand), where a card leaves from or goes to.
function seatBox(position) {
  const seat = document.querySelector(`[data-seat="${position}"]`);
  const part = seat && (seat.querySelector(".backs .card") || seat.querySelector(".hand") || seat);
  if (!part) return null;
  const rect = part.getBoundingClientRect();
  const holder = part.closest(".backs, .hand") || part;
  const around = holder.getBoundingClientRect();
  const height = Math.min(rect.height, around.height) || rect.height;
  const width = height * 0.714;
  return {
    left: around.left + around.width / 2 - width / 2,
    top: around.top + around.height / 2 - height / 2,
    width,
    height,
  };
}

function slide(element, from, to, duration) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width || 1;
  const sy = from.height / to.height || 1;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.01) return null;
  return element.animate(
    [
      { transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
      { transformOrigin: "0 0", transform: "none" },
    ],
    { duration, easing: "cubic-bezier(.25, .8, .3, 1)" },
  );
}

// A taken card, gone from the page, slides to the taker's seat and fades.
function takeAway(element, from, to, duration) {
  const ghost = element.cloneNode(true);
  ghost.removeAttribute("data-flip");
  ghost.classList.add("ghost");
  Object.assign(ghost.style, {
    left: `${from.left}px`,
    top: `${from.top}px`,
    width: `${from.width}px`,
    height: `${from.height}px`,
  });
  document.body.append(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const animation = ghost.animate(
    [
      { transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 },
    ],
    { duration, easing: "ease-in" },
  );
  animation.finished.finally(() => ghost.remove()).catch(() => {});
  return animation;
}

// Change the page with `change()`, then move every card from where it was
// (where it is drawn now, even half-way through a move); resolve when the
// moves are done, or `overlap` of the way through them.
async function transition(change, position, duration, overlap = 1) {
  const before = positions();
  const takenBy = document.querySelector(".pile[data-taken-by]")?.dataset.takenBy;
  const stock = before.get("stock")?.rect || document.querySelector(".stock")?.getBoundingClientRect();
  change();
  const after = positions();
  const moves = [];
  after.forEach(({ element, rect }, key) => {
    let from = before.get(key)?.rect;
    if (!from && element.closest(".pile") && key !== "under") from = seatBox(position);
    if (!from && element.closest(".hand")) from = stock;
    if (from) moves.push(slide(element, from, rect, duration));
  });
  if (takenBy !== undefined) {
    const to = seatBox(takenBy);
    before.forEach(({ element, rect }, key) => {
      if (!after.has(key) && to) moves.push(takeAway(element, rect, to, duration));
    });
  }
  const done = Promise.all(moves.filter(Boolean).map((move) => move.finished.catch(() => {})));
  if (overlap < 1) await Promise.race([done, sleep(duration * overlap)]);
  else await done;
}

function sleep(ms) {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

// A sleep that a click or a key (skip) ends early.
function pause(ms) {
  return new Promise((resolve) => {
    wake = resolve;
    window.setTimeout(resolve, ms);
  });
}

// The sounds aid (body.sounds). A browser lets a page make sounds only once
// the player has pressed something on it, so the sounds are readied by a
// play itself (its click or key), before anything is awaited.
// A context the browser refuses (a privacy setting or an extension's)
// leaves the sounds out, as in sound().
function readySounds() {
  if (!document.body.classList.contains("sounds") || !window.AudioContext) return;
  try {
    if (!audio) {
      const context = new AudioContext();
      noise = context.createBuffer(1, context.sampleRate / 2, context.sampleRate);
      const samples = noise.getChannelData(0);
      for (let index = 0; index < samples.length; index += 1) samples[index] = Math.random() * 2 - 1;
      audio = context;
    }
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    // The play goes on in silence.
  }
}

// Noise through a band-pass filter whose centre goes from `low` to `high`
// hertz, fading out over `seconds` from `at` (the audio clock's seconds),
// into `out`: a tap when short and high, a sweep when longer and rising.
// Returns the source.
function hiss(out, at, seconds, low, high, volume) {
  const source = new AudioBufferSourceNode(audio, { buffer: noise });
  const filter = new BiquadFilterNode(audio, { type: "bandpass", Q: 1.5 });
  // (A ramp starts from the event before it: each starts where the sound does.)
  filter.frequency.setValueAtTime(low, at).exponentialRampToValueAtTime(high, at + seconds);
  const gain = new GainNode(audio);
  gain.gain.setValueAtTime(volume, at).exponentialRampToValueAtTime(0.001, at + seconds);
  source.connect(filter).connect(gain).connect(out);
  source.start(at);
  source.stop(at + seconds);
  return source;
}

// A bell-like note of `frequency` hertz from `at` (the audio clock's
// seconds), into `out`. Returns the oscillator.
function chime(out, at, frequency) {
  const tone = new OscillatorNode(audio, { type: "triangle", frequency });
  const gain = new GainNode(audio);
  gain.gain
    .setValueAtTime(0.0001, at)
    .exponentialRampToValueAtTime(VOLUME * 0.6, at + 0.01)
    .exponentialRampToValueAtTime(0.001, at + 0.35);
  tone.connect(gain).connect(out);
  tone.start(at);
  tone.stop(at + 0.35);
  return tone;
}

let soundFrom = 0; // the audio clock's time from which the next sound may start
let ringing = null; // the last sound: its volume, its sources and when it ends

// The sound of a play as its card lands: `kind` is a step's data-sound
// (regions.steps): "card" (it stays on the pile), "capture" (or the final
// sweep), "pisti" (two rising notes after the sweep), "jack-pisti" (three).
// Sounds never overlap: each starts SOUND_GAP_MS at least after the one
// before (cards played quickly, or shown at once, queue their sounds), and
// cuts what still rings of it (a pişti's chime) with a short fade.
function sound(kind) {
  if (!audio || !kind || !document.body.classList.contains("sounds")) return;
  try {
    const at = Math.max(audio.currentTime, soundFrom);
    soundFrom = at + SOUND_GAP_MS / 1000;
    if (ringing && ringing.until > at) {
      ringing.volume.gain.setValueAtTime(1, at).linearRampToValueAtTime(0.0001, at + FADE_S);
      for (const source of ringing.sources) source.stop(at + FADE_S);
    }
    const volume = new GainNode(audio);
    volume.connect(audio.destination);
    const sources = [
      kind === "card"
        ? hiss(volume, at, 0.05, 3000, 2000, VOLUME)
        : hiss(volume, at, 0.3, 500, 2500, VOLUME * 2), // a low band lets less of the noise through
    ];
    let until = at + (kind === "card" ? 0.05 : 0.3);
    const notes = { pisti: [784, 1047], "jack-pisti": [784, 1047, 1319] }[kind] || [];
    notes.forEach((frequency, index) => {
      const from = at + 0.1 + index * 0.12;
      sources.push(chime(volume, from, frequency));
      until = from + 0.35;
    });
    ringing = { volume, sources, until };
  } catch {
    // A browser whose Web Audio lacks a part of this plays on in silence.
  }
}

// When the page shows the plays' end at once (reduced motion, or a click or
// a key while the cards move), their sounds not made yet follow one another
// (sound() spaces them).
function soundInTurn(frames) {
  for (const frame of frames) sound(frame.dataset.sound);
}

// While the play is posted, your card already goes to the top of the pile,
// in `duration` milliseconds.
function lift(button, duration) {
  const card = button?.querySelector("[data-flip]");
  const fan = document.querySelector(".pile .fan");
  const spot = fan?.querySelector(".card.top") || fan?.querySelector(".card");
  if (!card || !spot) return null;
  const from = card.getBoundingClientRect();
  const to = spot.getBoundingClientRect();
  // Beside the top card, but never past the table's right edge (a wide
  // fan on a phone).
  const edge = (fan.closest(".table") || document.documentElement).getBoundingClientRect().right;
  const beside = spot.matches(".top") ? to.left + to.width * 0.45 : to.left;
  const left = Math.max(to.left, Math.min(beside, edge - to.width - 4));
  const scale = to.width / from.width;
  return card.animate(
    [
      { transformOrigin: "0 0", transform: "none" },
      { transformOrigin: "0 0", transform: `translate(${left - from.left}px, ${to.top - from.top}px) scale(${scale})` },
    ],
    { duration, easing: "cubic-bezier(.25, .8, .3, 1)", fill: "forwards" },
  );
}

// Put one frame's regions (score, seats, centre, hand, log, counter) in
// place. A region the play leaves as it was (the other seats, the score
// of a play that takes nothing) stays: drawing it anew, at every step of
// every play, cost a slow phone its style and layout for nothing. After
// the first step the server leaves such regions out (regions.steps).
function showFrame(template) {
  template.content.cloneNode(true).querySelectorAll("[data-region]").forEach((fresh) => {
    const old = document.querySelector(`[data-region="${fresh.dataset.region}"]`);
    if (!old || old.isEqualNode(fresh)) return;
    if (old.matches("[aria-live]")) old.replaceChildren(...fresh.childNodes);
    else old.replaceWith(fresh);
  });
  showNews();
}

// On a phone what happened and the hints keep a fixed number of lines
// under the felt (pisti.css) and scroll when there are more; on a laptop
// what happened beside the felt scrolls when the column is full: the
// latest play's line stays in view, with as much as fits of what follows
// it (the hints), else of what came before. When the first hint, the
// card to play, does not fit whole after it (two to four lines on a
// phone), the hints' start is kept in view instead (the felt says the
// latest play too).
function showNews() {
  scrollableByKeys();
  // The box that scrolls: the lines under the felt on a phone, what
  // happened beside it on a laptop when the column is full.
  const box = [".said", ".board > .happened"]
    .map((selector) => document.querySelector(selector))
    .find((found) => found && found.scrollHeight > found.clientHeight);
  const last = box?.querySelector(".log > li:last-child");
  const room = box ? box.scrollHeight - box.clientHeight : 0;
  if (!last || room <= 0) return;
  const offset = (y) => y - box.getBoundingClientRect().top + box.scrollTop;
  const hint = box.querySelector(".hints li")?.getBoundingClientRect();
  let top = offset(last.getBoundingClientRect().top);
  // (A pixel's slack: lines of fractional heights fill the box to within one.)
  if (hint && offset(hint.bottom) - top > box.clientHeight + 1) top = offset(hint.top);
  box.scrollTop = Math.min(room, top);
  fadeCutLine(box);
}

// What happened, when its lines scroll (more than its box holds), takes
// the focus in turn (Tab), so that the arrow keys scroll it too; when they
// do not, it is no stop on the way (axe-core's scrollable-region-focusable:
// a stale tab's alert, or the hints, made the lines scroll out of reach).
// A stop has a name, as Tab or a switch reaches it: the box of a phone's
// lines (.said) is then a group named by its section's heading ("What
// just happened"); the section (.happened) has that name already.
function scrollableByKeys() {
  for (const box of document.querySelectorAll(".said, .board > .happened")) {
    const stop = box.scrollHeight > box.clientHeight + 1;
    if (stop) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
    const heading = box.matches(".said") && box.closest("[aria-labelledby]");
    if (heading && stop) {
      box.setAttribute("role", "group");
      box.setAttribute("aria-labelledby", heading.getAttribute("aria-labelledby"));
    } else if (heading) {
      box.removeAttribute("role");
      box.removeAttribute("aria-labelledby");
    }
  }
}
window.addEventListener("resize", scrollableByKeys);

// A phone turned shows the log in another box (under the felt upright,
// beside it sideways), scrolled to its start: the latest play comes back
// into view.
window.matchMedia("(orientation: portrait)").addEventListener("change", showNews);

// The lines under the felt on a phone, scrolled down, fade their first
// line out (pisti.css) rather than show it cut through the middle, which
// looked like a drawing fault.
function fadeCutLine(box) {
  if (box.matches(".said")) box.classList.toggle("scrolled", box.scrollTop > 1);
}
document.addEventListener(
  "scroll",
  (event) => {
    if (event.target instanceof Element) fadeCutLine(event.target);
  },
  true,
);

// The live region's lines, its hints left out (regions.log), as HTML.
function linesOf(html) {
  const copy = document.createElement("template");
  copy.innerHTML = html;
  copy.content.querySelector(".hint-box")?.replaceChildren();
  return copy.innerHTML;
}

// Replace the page by `doc`, keeping the live region (so its new text is
// read out: the table's log, or the hand's or the game's result, whose
// region takes the new page's attributes, which ends a play's aria-busy)
// and the aids panel open if it was. A region whose lines are those last
// read out (an aids change, a refused play) is left as it is: a screen
// reader would read them out again; only its hints change when that aid
// does. An alert in it (the lesson's word on a wrong card, tried again) is
// read out each time.
function showPage(doc) {
  const body = document.adoptNode(doc.body);
  for (const note of body.querySelectorAll(".hand-over")) {
    if (note.dataset.hand === closedNote) note.remove();
  }
  const live = document.querySelector(".live");
  const fresh = body.querySelector(".live");
  if (live && fresh) {
    const said = heard ?? live.innerHTML;
    heard = null;
    const lines = linesOf(fresh.innerHTML);
    const same =
      lines === linesOf(live.innerHTML) &&
      lines === linesOf(said) &&
      !fresh.querySelector("[role=alert]");
    live.getAttributeNames().forEach((name) => live.removeAttribute(name));
    [...fresh.attributes].forEach(({ name, value }) => live.setAttribute(name, value));
    if (!same) live.replaceChildren(...fresh.childNodes);
    else if (fresh.innerHTML !== live.innerHTML) {
      // Only the hints changed (the aid turned on or off): they alone are read out.
      live.querySelector(".hint-box").replaceChildren(...fresh.querySelector(".hint-box").childNodes);
    }
    fresh.replaceWith(live);
  }
  if (document.querySelector("details.settings[open]")) {
    body.querySelector("details.settings")?.setAttribute("open", "");
  }
  document.title = doc.title;
  document.documentElement.lang = doc.documentElement.lang;
  document.body.replaceWith(body);
  keepAddress();
  offerSharing();
  showNews();
}

// A form's answer that is a page (a refused or out-of-date change, a
// transfer code) takes the address of the page it belongs to (the table for
// the game's forms, the profile for the profile's), so that reloading reads
// that page instead of posting the form again. The address keeps its
// fragment (the profile's form that answered, "#transfer").
function keepAddress() {
  const address = document.body.dataset.address;
  if (address) window.history.replaceState(null, "", address + window.location.hash);
}

// A play's answer to the script (which asks with Pisti-Frames) is the page
// itself, with the steps to move the cards through; without the header it
// is a redirect to the page, followed here. An answer not all there within
// PATIENCE_MS (a connection that died on the way) is given up: the fetch
// fails, and the caller sends its form the ordinary way.
async function post(form, data, headers = {}) {
  const patience = new AbortController();
  const timer = window.setTimeout(() => patience.abort(), PATIENCE_MS);
  try {
    const response = await fetch(form.action, {
      method: "POST",
      body: data,
      headers,
      signal: patience.signal,
    });
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    if (response.redirected) window.history.replaceState(null, "", response.url);
    return { response, doc };
  } finally {
    window.clearTimeout(timer);
  }
}

// Whether a fetch failed because its answer took longer than PATIENCE_MS
// (the server was reached, or may have been) rather than because nothing
// answered at all (no network, or no server: see cutOff).
function isPatienceOver(error) {
  return error instanceof DOMException && error.name === "AbortError";
}

// Whether `doc`, an answer's page, is the server's own (every page of the
// app carries its words for a form not sent) rather than a proxy's page in
// its place (a 502, 503 or 504 while the server behind it is stopped,
// restarting or too slow to answer), which would take the table's place.
function fromServer(doc) {
  return Boolean(doc.body?.hasAttribute("data-offline-form"));
}

// Whether the server answers: its health check (the page's data-reach)
// answers 200 within PATIENCE_MS. Not when nothing answers (the server
// stopped or restarting, the connection refused or lost) nor when a proxy
// answers for it (502, 503, 504).
async function reachable() {
  const reach = document.body.dataset.reach;
  if (!reach) return true;
  const patience = new AbortController();
  const timer = window.setTimeout(() => patience.abort(), PATIENCE_MS);
  try {
    return (await fetch(reach, { cache: "no-store", signal: patience.signal })).ok;
  } catch {
    return false;
  } finally {
    window.clearTimeout(timer);
  }
}

// Ask every REACH_MS, while the page is seen, whether the server answers
// again; once it does, call `then`. A page nobody sees (a tab in the
// background, a phone's screen turned off) asks nothing, which would wake
// the phone and its radio for nothing, and asks at once when it is seen
// again.
function whenReached(then) {
  let timer = null;
  let asking = false;
  const ask = async () => {
    timer = null;
    asking = true;
    if (navigator.onLine && (await reachable())) {
      document.removeEventListener("visibilitychange", seen);
      then();
      return;
    }
    asking = false;
    if (!document.hidden) timer = window.setTimeout(ask, REACH_MS);
  };
  const seen = () => {
    window.clearTimeout(timer);
    timer = null;
    if (!document.hidden && !asking) ask();
  };
  document.addEventListener("visibilitychange", seen);
  if (!document.hidden) timer = window.setTimeout(ask, REACH_MS);
}

// An answer given up after PATIENCE_MS, online: post the form the ordinary
// way (the server plays it once, or says it already did).
function postPlainly(form, submitter) {
  if (submitter?.name) {
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = submitter.name;
    field.value = submitter.value;
    form.append(field);
  }
  form.submit();
}

async function play(form, submitter) {
  busy = true;
  skipping = false;
  setState("busy");
  readySounds();
  const data = new FormData(form, submitter);
  // An aids change already on its way lands first: its page would
  // otherwise come in the middle of the play's, or after it.
  await saving;
  const hand = document.querySelector(".you .hand") || form.closest(".hand");
  const card = hand.querySelector(`button[value="${submitter?.value}"]`) || submitter;
  hand.inert = true;
  // The log is read out once, when the plays have landed, not at each step.
  const live = document.querySelector(".live");
  heard = live?.innerHTML ?? null;
  live?.setAttribute("aria-busy", "true");
  const moving = !reducedMotion.matches && document.querySelector(".table");
  // With the "fast play" aid (body.fast-play) every move takes FAST of its
  // time and the hand's last cards stay FAST_HOLD_MS before its score.
  const pace = document.body.classList.contains("fast-play") ? FAST : 1;
  const lifted = moving ? lift(card, STEP_MS * pace) : null;
  // The plays' steps are asked for when the cards move or make sounds.
  const stepped = moving || Boolean(audio && document.body.classList.contains("sounds"));
  let answer;
  const slow = window.setTimeout(showSending, WAIT_MS);
  try {
    // Only a page whose cards move needs the steps.
    answer = await post(form, data, stepped ? { "Pisti-Frames": "1" } : {});
  } catch (error) {
    // Offline by now, the form sent the ordinary way would give the page
    // up for the browser's "no internet" page: the table stays instead.
    // Sent the ordinary way only to a server that answers: else the
    // browser's error page, or a proxy's, would take the table's place.
    if (isPatienceOver(error) && navigator.onLine && (await reachable())) {
      postPlainly(card?.form || form, card);
      return;
    }
    lifted?.cancel();
    cutOff();
    return;
  } finally {
    window.clearTimeout(slow);
  }
  const { response, doc } = answer;
  // A proxy's page for a server that does not answer: the table stays, as
  // when nothing answers (the play may or may not have been made: the
  // table is read again, as it stands, once the server answers).
  if (!response.ok && !fromServer(doc)) {
    lifted?.cancel();
    cutOff();
    return;
  }
  // Only a play that was taken moves cards (its answer is the page, 200, or
  // a redirect to it): a refusal (4xx) shows its message.
  const accepted = response.ok;
  const steps = accepted ? [...doc.querySelectorAll("template.frame")] : [];
  const frames = moving ? steps : [];
  let position = 0;
  // Two or three replies each move a little faster than one, so a play at
  // a table of three or four settles sooner.
  // With the "the others play slower" aid (body.slow-plays) each reply moves
  // slower, whole, and rests on the pile a moment (a click or a key still
  // shows the end at once); it outweighs fast play's pace for the replies.
  const slower = document.body.classList.contains("slow-plays");
  const replyMs = slower ? SLOW_REPLY_MS : (frames.length > 2 ? STEP_MS * MANY_REPLIES : STEP_MS) * pace;
  let sounded = 0; // the steps whose sound was made as their card landed
  for (const [index, frame] of frames.entries()) {
    if (skipping) break;
    position = Number(frame.dataset.position);
    // Your own card is already on its way: it only has to settle.
    const duration = index === 0 ? (STEP_MS / 2) * pace : replyMs;
    await transition(() => showFrame(frame), position, duration, slower ? 1 : OVERLAP);
    if (skipping) break;
    sound(frame.dataset.sound);
    sounded = index + 1;
    if (slower && index > 0) await pause(SLOW_REST_MS);
  }
  if (frames.length && !skipping && !doc.querySelector(".table")) {
    // The hand is over: its last cards stay in view a moment, then its score.
    await pause(pace < 1 ? FAST_HOLD_MS : HOLD_MS);
    showPage((await dealOn(doc)) || doc);
  } else if (frames.length && !skipping) {
    await transition(() => showPage(doc), position, LAST_MS * pace);
  } else {
    // The hand is over (the next page is its score): let your card land first.
    if (accepted && lifted && !skipping) await lifted.finished.catch(() => {});
    showPage((accepted && (await dealOn(doc))) || doc);
  }
  // (A double tap's second tap shows the end at once too: its sounds follow.)
  soundInTurn(steps.slice(sounded));
  busy = false;
  setState("ready");
  if (freshenSettled) {
    freshenSettled = false;
    freshen();
  }
  // Keyboard players go on from the first card; at the end of a hand or of
  // the game, from its result's heading (read out, and a second Enter
  // there does not leave the score unseen). After a click or a tap no card
  // is focused, so none looks selected; the result's heading is (it shows
  // no ring), so a screen reader's user on a touch screen hears who won.
  const first = document.querySelector(".hand button");
  const next =
    first || document.querySelector("main h1[tabindex]") || document.querySelector("main .button");
  if (next && (byKeyboard || (!first && next.matches("h1")))) next.focus();
}

// With the "deal the next hand at once" aid (body.deal-on), a hand's score
// that a play brings (`doc`: the hand is over, the match goes on) is not
// left for "Next hand" to be pressed: its own "Next hand" form is sent at
// once, and the next hand's table comes instead. That table, with the aid
// on, says the last hand's result itself (the server's note, over what
// happened, read out with the hand's last plays), until it is closed or
// the player's first play of the hand, a reload too. The server answers
// the form as it answers a press (a stale page's gets its refusal). It is
// sent once the hand's last cards have been held, not while they are: a
// page reloaded or left then reads the hand's score. Resolves to the page
// to show, or null: the score's page, its "Next hand" to press (no aid,
// the match over, offline, or no answer from the server). A score's page
// loaded any other way (a reload, Back) waits for the press.
async function dealOn(doc) {
  const form = doc.querySelector("form.next-hand");
  if (!form || !document.body.classList.contains("deal-on")) return null;
  let answer;
  try {
    answer = await post(form, new FormData(form));
  } catch {
    return null;
  }
  return fromServer(answer.doc) ? answer.doc : null;
}

async function saveAids(form, data, field) {
  let landed;
  saving = new Promise((resolve) => {
    landed = resolve;
  });
  let answer;
  try {
    answer = await post(form, data);
  } catch (error) {
    if (isPatienceOver(error) && navigator.onLine && (await reachable())) postPlainly(form);
    else cutOff();
    return;
  }
  if (!answer.response.ok && !fromServer(answer.doc)) {
    cutOff();
    return;
  }
  showPage(answer.doc);
  landed();
  // A play sent meanwhile is waiting for this page: it is not settled yet.
  if (!busy) setState("ready");
  if (field) document.querySelector(`form.aids [name="${field}"]`)?.focus();
}

// A play whose answer is slow to come (a slow network) says so where the
// eye is, on your turn's tag ("sending…"), so the table does not look stuck.
function showSending() {
  const tag = document.querySelector(".you .turn-tag");
  const text = document.querySelector(".happened")?.dataset.sending;
  if (!tag || !text) return;
  tag.textContent = text;
  tag.classList.add("sending");
}

// Offline (the phone lost its network), or online with nothing answering
// (a signal lost without the browser noticing, a server stopped or
// restarting, a proxy's own error page in place of the server's), a form
// is not sent the ordinary way: the browser would put its own "no internet"
// page in place of the table. The table stays, says so (a note, "offline"
// on your turn's tag, a dimmed hand that takes no taps), and is read again,
// as it stands, once the network is back or the server answers (whether the
// change reached the server before it went, the table then shows). Offline,
// the table says so as soon as the network goes, before any tap.
let cut = false;
function cutOff() {
  const happened = document.querySelector(".happened");
  const unreachable = navigator.onLine && happened?.dataset.unreachable;
  const text = unreachable || happened?.dataset.offline;
  if (text) {
    const note =
      happened.querySelector(".alert.offline") ||
      Object.assign(document.createElement("p"), { className: "alert offline" });
    note.setAttribute("role", "alert");
    note.textContent = text;
    if (!note.isConnected) happened.querySelector("h2")?.after(note);
  }
  const hand = document.querySelector(".you .hand");
  if (hand) {
    hand.inert = true;
    hand.classList.add("offline");
  }
  // The tag says "offline", still: a play that said it was on its way
  // ("sending…", pulsing) is not on its way any more.
  const tag = document.querySelector(".you .turn-tag");
  if (tag && happened?.dataset.offlineTag) {
    tag.textContent = happened.dataset.offlineTag;
    tag.classList.remove("sending");
  }
  if (cut) return;
  cut = true;
  const again = () => window.location.replace(window.location.pathname + window.location.search);
  window.addEventListener("online", again, { once: true });
  if (document.body.dataset.reach) whenReached(again);
}
window.addEventListener("offline", () => {
  if (document.querySelector(".you .hand")) cutOff();
});

// A table brought back into view (its tab in front again, or the page
// restored by Back or Forward) may be out of date: the game may have gone
// on in another tab. It is read again and, when it changed, shown as it
// stands, where a card tapped would only have been refused as out of date.
const TABLE_PAGES = ".table-page, .between-page, .final-page";
let freshening = false;
// A table brought back while a play was being shown (restored in the middle
// of its moves) is read again once the play has settled.
let freshenSettled = false;

// What tells one table from another: the move, hand and game its forms
// name, and the page's kind and aids (its body's classes).
function tableMark(root) {
  const fields = root.querySelectorAll("main input[name=move], main input[name=hand], main input[name=game]");
  const named = [...fields].map((field) => `${field.name}=${field.value}`).join("&");
  return `${root.querySelector("body")?.className}|${named}`;
}

async function freshen() {
  if (busy) freshenSettled = true;
  if (document.visibilityState !== "visible" || busy || cut || freshening) return;
  if (!document.body.matches(TABLE_PAGES)) return;
  freshening = true;
  try {
    const response = await fetch(window.location.pathname, { cache: "no-store" });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    // A play begun meanwhile brings its own page.
    if (busy || !doc.body?.matches(TABLE_PAGES) || tableMark(doc) === tableMark(document)) return;
    const focused = controlKey(document.activeElement);
    showPage(doc);
    setState("ready");
    // A keyboard's player keeps the focus on the table: on the control
    // that had it if it is still there (a card still in hand), else on the
    // first card, not back at the top of the page.
    if (byKeyboard && focused) {
      const next = findControl(focused) || document.querySelector(".hand button");
      (next || document.querySelector("main h1[tabindex]"))?.focus();
    }
  } catch {
    // No network: a card tapped says so.
  } finally {
    freshening = false;
  }
}
document.addEventListener("visibilitychange", freshen);

// Any other page restored by Back or Forward from the browser's
// back/forward cache is the page as it was left, though a game may have
// been started since (its "New game" or "Start this deal" then refused as
// out of date, again after each Back), a name forgotten (the profile shown
// again) or the lesson moved on: it is loaded again, as it stands. The
// House rules page keeps the choices made on it: only which game its form
// would replace is read again; so does a page with words typed or choices
// made in a form not sent (a seed, a level, a record's file), which a new
// load would lose.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  if (document.body.matches(TABLE_PAGES)) freshen();
  else if (document.querySelector("form[data-keeps-choices]") || changedFields()) {
    readReplacesAgain();
  } else loadAgain();
  leftBy = null;
});

let leftBy = null; // the form this page was left by (sent the ordinary way)

// Whether a form of the page other than the one it was left by has a field
// the player changed: typed in, ticked, chosen or given a file.
function changedFields() {
  const fields = document.querySelectorAll("input:not([type=hidden]), select, textarea");
  return [...fields].some((field) => {
    if (!field.form || field.form === leftBy) return false;
    if (field instanceof HTMLSelectElement) {
      const options = [...field.options];
      const changed = (option) => option.selected !== option.defaultSelected;
      if (field.multiple) return options.some(changed);
      // One choice: the last option marked selected, else the first.
      const marked = options.findLastIndex((option) => option.defaultSelected);
      return field.selectedIndex !== Math.max(marked, 0);
    }
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.type === "file") return field.files.length > 0;
    return field.value !== field.defaultValue;
  });
}

// Load the page again once the server has answered that it is there:
// offline, or to a server stopped or restarting, the browser would put its
// own error page in place of this one. The page stays instead (its forms
// say they were not sent). A keyboard's player finds the focus where they
// left it (the button they pressed), not back at the top of the page.
async function loadAgain() {
  const focused = controlKey(document.activeElement);
  if (!navigator.onLine || !(await reachable())) return;
  if (byKeyboard && focused) remember(REFOCUS, JSON.stringify([window.location.href, focused]));
  window.location.reload();
}

// What names a control in both loads of its page: its kind, its form's
// address, its name and value, its link's address and its words.
const CONTROLS = "a[href], button, input, select, textarea, summary";
function controlKey(element) {
  if (!(element instanceof HTMLElement) || !element.matches(CONTROLS)) return null;
  const { tagName } = element;
  const form = element.closest("form")?.getAttribute("action");
  const named = ["name", "value", "href"].map((name) => element.getAttribute(name));
  return JSON.stringify([tagName, form, ...named, element.textContent.trim()]);
}

// The page's control named `key` (controlKey), if it is there.
function findControl(key) {
  return [...document.querySelectorAll(CONTROLS)].find((found) => controlKey(found) === key);
}

// Focus the control that had the focus when this page was loaded again, if
// it is there still.
function refocus(kept) {
  try {
    const [address, key] = JSON.parse(kept);
    const control = address === window.location.href && findControl(key);
    control?.focus();
    return Boolean(control);
  } catch {
    return false;
  }
}

// Set the page's "replaces" fields (the game a form that starts one would
// replace) as the server has them now.
async function readReplacesAgain() {
  try {
    const response = await fetch(window.location.href, { cache: "no-store" });
    if (!response.ok) return;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const field of document.querySelectorAll("form input[name=replaces]")) {
      const action = field.form.getAttribute("action");
      const fresh = doc.querySelector(`form[action="${CSS.escape(action)}"] input[name=replaces]`);
      if (fresh) field.value = fresh.value;
    }
  } catch {
    // No network: the form is not sent, and says so.
  }
}

// Fields whose keys are typed text.
const TYPING = "input:not([type=checkbox]):not([type=radio]):not([type=submit]), select, textarea";

// Any click or key while cards move: show the end at once.
function skip() {
  if (!busy) return;
  skipping = true;
  wake?.();
  document.getAnimations().forEach((animation) => animation.finish());
}

window.addEventListener(
  "keydown",
  (event) => {
    byKeyboard = true;
    // A key that ends the moves is spent on that: Enter or Space would
    // otherwise press the card or the button focused as the play settles.
    // A held key's repeats press nothing either.
    const presses = event.key === "Enter" || event.key === " ";
    const typing = event.target instanceof Element && event.target.matches(TYPING);
    if (presses && (busy || event.repeat) && !typing) event.preventDefault();
    skip();
  },
  true,
);
window.addEventListener(
  "pointerdown",
  () => {
    byKeyboard = false;
    skip();
  },
  true,
);

// A button or a link pressed by no pointer (a click of detail 0: the
// keyboard's, or a screen reader's or voice control's, which send no key
// to the page) counts as pressed from the keyboard: after a play the focus
// stays in the hand, not on the page's body, from where a screen reader
// would start again at the top of the page.
window.addEventListener(
  "click",
  (event) => {
    const pressed = event.target instanceof Element && event.target.closest("button, a, summary");
    if (pressed && event.detail === 0) byKeyboard = true;
  },
  true,
);

// A double tap or a double click is one play. Its second press (which the
// browser counts as the second of a pair, detail 2) would otherwise press
// the card that has come under it once the replies have landed, as soon as
// they do with reduced motion. A press from the keyboard counts 0.
document.addEventListener(
  "click",
  (event) => {
    const card = event.target instanceof Element && event.target.closest(".hand button");
    if (card && event.detail > 1) event.preventDefault();
  },
  true,
);

// A name box (data-name-most) counts a name as the server does (check_name
// in app/db/queries.py): letters composed (NFC), each run of spaces of any
// width one space, none at either end, then its characters. Its pattern
// counts the same without this script but cannot compose letters: it counts
// a Latin, Greek or Cyrillic letter and the accents typed after it as one
// ("e" and a circumflex: "ê"), other marks apart. A box of a page put in place
// later (a match's end) is counted too, from its first keystroke.
document.addEventListener("input", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.nameMost) return;
  box.removeAttribute("pattern");
  const name = box.value.normalize("NFC").replace(/\p{Zs}+/gu, " ").replace(/^ | $/g, "");
  box.setCustomValidity([...name].length > Number(box.dataset.nameMost) ? box.title : "");
});

// Number keys 1-4 play the cards of your hand.
document.addEventListener("keydown", (event) => {
  // A held key's repeats play nothing.
  if (busy || event.repeat || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  // Digits typed into a field are the field's; on a button or the aids'
  // summary (focused after a click) they play a card.
  if (target instanceof Element && target.matches(TYPING)) return;
  const button = document.querySelector(`.hand button[data-key="${event.key}"]`);
  if (button) {
    event.preventDefault();
    button.click();
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !window.fetch) return;
  if (form.closest(".hand")) {
    event.preventDefault();
    // One play at a time: a click during a play is not a second play.
    if (!busy) play(form, event.submitter);
  } else if (form.matches("form.aids")) {
    event.preventDefault();
    const data = new FormData(form);
    const field = form.contains(document.activeElement) ? document.activeElement.name : null;
    queue = queue.then(waitUntilSettled).then(() => saveAids(form, data, field));
  } else if (!event.defaultPrevented) {
    if (!navigator.onLine) {
      // Offline, the browser would put its own "no internet" page in
      // place of this one (and stay there once the network is back): the
      // form is not sent, and the page says so beside it.
      event.preventDefault();
      notSent(form);
      return;
    }
    if (form === checked) {
      // The server answered just now (sendWhenReached): the form goes the
      // ordinary way. A form sent from the keyboard ("Next hand", "Play
      // again", a deal's start): the table it leads to gives its first
      // card the focus (and one sent by mouse or touch clears a mark left
      // by a stopped load).
      if (!form.matches(".languages")) remember(FROM_KEYBOARD, byKeyboard ? "1" : null);
      leftBy = form;
      return;
    }
    event.preventDefault();
    // A form on its way is not sent again (a double click, a tap repeated
    // while the server is slow to answer): the browser would drop the
    // first answer, and the cookie it sets, for the second's, which the
    // server refuses as a repeat ("That name is taken" by the name just
    // made, a game's start sent twice).
    if (form.hasAttribute(SENDING)) return;
    // The button pressed shows it is on its way (pisti.css): on a slow
    // network the page may stay a few seconds before the next one.
    const sent = [form, event.submitter].filter(Boolean);
    for (const element of sent) element.setAttribute(SENDING, "");
    sendWhenReached(form, event.submitter, sent);
  }
});

let checked = null; // the form whose server just answered, being sent the ordinary way
let ahead = null; // the health check asked ahead: when (performance.now()) and its answer

// Whether the server answers is asked ahead, as a finger or the mouse comes
// down on a form or the focus comes into one (by Tab, before Enter): by the
// click its answer is in, or on its way, and the form goes without a round
// trip of its own (each form waited one, 0.1-0.3 s on a phone's network,
// after the click). Not for a play or the aids, sent by the page itself.
function askAhead(event) {
  const form = event.target instanceof Element ? event.target.closest("form") : null;
  if (!form || form.closest(".hand") || form.matches("form.aids")) return;
  if (!document.body.dataset.reach || !navigator.onLine) return;
  if (ahead && performance.now() - ahead.at < AHEAD_MS) return;
  ahead = { at: performance.now(), answer: reachable() };
}
document.addEventListener("pointerdown", askAhead);
document.addEventListener("focusin", askAhead);
let awaited = false; // a form was not sent: whether the server answers again is asked

// A form is sent the ordinary way only once the server answers (its health
// check): to a server stopped or restarting, or behind a proxy answering
// for it (502, 503, 504), the browser would put its own error page, or the
// proxy's, in place of this one, and stay there once the server is back.
// Instead the page stays and says so beside the form, until the server
// answers again. `sent` are the form and its button marked as on their way.
// (The health check asked ahead, askAhead, when there was one.)
async function sendWhenReached(form, submitter, sent) {
  const unmark = () => sent.forEach((element) => element.removeAttribute(SENDING));
  const asked = ahead && performance.now() - ahead.at < AHEAD_MS ? ahead.answer : reachable();
  ahead = null;
  // (A health check already answered: its answer waits for the next task,
  // as the browser sends no form while its submit event is being fired.)
  const answer = await asked;
  await new Promise((resolve) => window.setTimeout(resolve));
  if (!answer) {
    unmark();
    notSent(form);
    if (!awaited) {
      awaited = true;
      whenReached(() => {
        awaited = false;
        for (const note of document.querySelectorAll(".alert.not-sent")) note.remove();
      });
    }
    return;
  }
  // A form that changes something stays marked while its answer comes; a
  // search or a link's form (GET) may be sent again at once, as before.
  if (form.method === "post") window.setTimeout(unmark, SENDING_MS);
  else unmark();
  checked = form;
  try {
    form.requestSubmit(submitter?.form === form ? submitter : null);
  } finally {
    checked = null;
  }
}

// A form not sent, as the phone is offline or the server could not be
// reached: a note above it says so (read out), until the network is back
// or the server answers again.
function notSent(form) {
  const words = document.body.dataset;
  const text = navigator.onLine ? words.unreachableForm : words.offlineForm;
  if (!text) return;
  let note = form.previousElementSibling;
  if (!note?.matches(".alert.not-sent")) {
    note = Object.assign(document.createElement("p"), { className: "alert not-sent" });
    note.setAttribute("role", "alert");
    form.before(note);
  }
  note.textContent = text;
}
window.addEventListener("online", () => {
  for (const note of document.querySelectorAll(".alert.not-sent")) note.remove();
});

// A form marked as on its way can be sent again once its page is shown
// anew (back from the page it led to) or its sending failed or was stopped.
function sendable() {
  // (What happened's data-sending is the words of a play on its way.)
  const marked = document.querySelectorAll(`form[${SENDING}], button[${SENDING}]`);
  for (const element of marked) element.removeAttribute(SENDING);
}
window.addEventListener("pageshow", sendable);
window.navigation?.addEventListener("navigateerror", sendable);

// "Continue your game" followed from the keyboard: the table gives its first
// card the focus, as after a form sent by a key.
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("a[data-to-table]")) {
    remember(FROM_KEYBOARD, byKeyboard ? "1" : null);
  }
});

// "Copy link" puts a link to share on the clipboard and says so, on the
// button and in its status (read out), the focus staying on the button. A
// page that is not secure (a server on a home network, over plain http)
// has no navigator.clipboard: there the selected link is copied with the
// older copy command, which such a page still may use on a press. Where
// both fail, the link is left selected, with the focus, to copy by hand.
document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  field.select();
  let copied = false;
  if (navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch {
      // Refused: the copy command below may still do it.
    }
  }
  if (!copied) {
    field.focus();
    field.setSelectionRange(0, field.value.length);
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  if (!copied) return;
  button.textContent = button.dataset.done;
  const status = document.getElementById(button.dataset.status);
  if (status) status.textContent = button.dataset.done;
  button.focus();
});

// "Share" opens the phone's own share sheet (a chat, a message, e-mail) with
// the link, where the browser has one (the Web Share API); elsewhere the
// button stays hidden and "Copy link" does it.
function offerSharing() {
  if (typeof navigator.share !== "function") return;
  for (const button of document.querySelectorAll("button[data-share]")) button.hidden = false;
}
offerSharing();
document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("button[data-share]") : null;
  if (!button) return;
  const field = document.getElementById(button.dataset.share);
  try {
    await navigator.share({ title: button.dataset.title, text: button.dataset.text, url: field.value });
  } catch {
    // Closed without sharing, or refused: the link is still there to copy.
  }
});

// Set (a string) or take (null: read and removed) a value kept for the
// tab's next page; nothing where the browser keeps no storage.
function remember(key, value) {
  try {
    const kept = window.sessionStorage.getItem(key);
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
    return kept;
  } catch {
    return null;
  }
}

function waitUntilSettled() {
  return new Promise((resolve) => {
    const check = () => (busy ? window.setTimeout(check, 50) : resolve());
    check();
  });
}

// The open aids panel, the house rules' list in the bar, or the games put
// aside (dropped down over the column on a laptop) close with Escape or a
// click or tap anywhere outside them, and a table's alert with Escape too.
// Escape moves the focus to a panel's summary only when the focus was
// inside it (or nowhere); a card keeps it.
const CLOSABLE = "details.settings[open], details.rules-line[open], details.kept[open]";
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  closeAlerts();
  for (const open of document.querySelectorAll(CLOSABLE)) {
    open.removeAttribute("open");
    if (open.contains(document.activeElement) || document.activeElement === document.body) {
      open.querySelector("summary")?.focus();
    }
  }
});
document.addEventListener("pointerdown", (event) => {
  for (const open of document.querySelectorAll(CLOSABLE)) {
    if (event.target instanceof Node && !open.contains(event.target)) open.removeAttribute("open");
  }
});

// A table's alert from the server (a play from an out-of-date tab refused,
// the last hand's note) closes with its button, or with Escape, showing
// again the lines of what happened that it lay over on a phone. Its
// button's focus, if it had it, goes to your hand. The last hand's note,
// once closed, stays closed on the pages the script shows in its place
// (an aids change), until a reload.
let closedNote = null;
function closeAlerts() {
  for (const alert of document.querySelectorAll(".alert:has(> .alert-close)")) {
    const focused = alert.contains(document.activeElement);
    if (alert.matches(".hand-over")) closedNote = alert.dataset.hand;
    alert.remove();
    if (focused) document.querySelector(".you .hand button")?.focus();
  }
}
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest(".alert-close")) closeAlerts();
});

// Aids apply as soon as they are toggled (the Save button is for pages
// without this script).
document.addEventListener("change", (event) => {
  const box = event.target;
  if (box instanceof HTMLInputElement && box.matches("form.aids input[type=checkbox]")) {
    box.form.requestSubmit();
  }
});

keepAddress();
const fromKeyboard = remember(FROM_KEYBOARD, null);
const refocused = remember(REFOCUS, null);
// Back from choosing a name on the final page: the recorded result.
const arrived = window.location.hash === "#your-result" && document.getElementById("your-result");
if (arrived) {
  arrived.focus();
} else if (refocused && refocus(refocused)) {
  byKeyboard = true;
} else if (fromKeyboard) {
  byKeyboard = true;
  document.querySelector(".hand button")?.focus();
}
showNews();
setState("ready");

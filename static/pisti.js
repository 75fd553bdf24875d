// Pişti: progressive enhancement only; every page works without JavaScript.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // A form's answer that is a page (a refused or out-of-date change) shows
  // the table as it stands: give it the table's address, so that reloading
  // reads the table instead of posting the form again.
  const address = document.body.dataset.address;
  if (address) history.replaceState(null, "", address);

  // Number keys 1-4 play the cards of your hand.
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof Element && target.matches("input, select, textarea, summary, button:not(.hand button)")) return;
    const button = document.querySelector(`.hand button[data-key="${event.key}"]`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // One play per page: a double click must not post twice.
  let sent = false;
  document.querySelectorAll(".hand form").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (sent) event.preventDefault();
      sent = true;
    });
  });

  // Aids apply as soon as they are toggled.
  document.querySelectorAll("form.aids input[type=checkbox]").forEach((box) => {
    box.addEventListener("change", () => box.form.requestSubmit());
  });

  // Your card, then each reply, one after the other; then the table as
  // it stands after them (the pile and the score).
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const steps = document.querySelectorAll("[data-step]");
  let last = -1;
  steps.forEach((element) => {
    const step = Number(element.dataset.step);
    last = Math.max(last, step);
    element.style.animationDelay = `${step * 0.7}s`;
    element.classList.add("reveal");
  });
  if (last < 0) return;
  document.querySelectorAll(".fan, #pile-count, .scoreboard").forEach((element) => {
    element.style.animationDelay = `${(last + 1) * 0.7}s`;
    element.classList.add("reveal");
  });
});

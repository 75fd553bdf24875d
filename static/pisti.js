// Pişti: progressive enhancement only; every page works without JavaScript.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // Number keys 1-4 play the cards of your hand.
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
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

  // Your card, then each reply, one after the other.
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  document.querySelectorAll("[data-step]").forEach((element) => {
    element.style.animationDelay = `${Number(element.dataset.step) * 0.7}s`;
    element.classList.add("reveal");
  });
});

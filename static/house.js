// The House rules page: progressive enhancement only (the form works
// without JavaScript). Each "as the game plays it" choice says what the
// chosen game plays; choosing another game changes what they say. Each
// fold's "n changed" follows the choices made in it.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-base]");
  if (!form) return;

  function showBase(base) {
    for (const element of form.querySelectorAll("[data-classic]")) {
      const words = element.dataset[base];
      if (element.tagName === "OPTION") element.textContent = words;
      else element.placeholder = words;
    }
  }

  function countChanged(group) {
    const note = group.querySelector(".group-note");
    const changed = [...group.querySelectorAll(".rule select, .rule input")]
      .filter((field) => field.value !== "").length;
    note.querySelector(".changed").textContent = changed
      ? " · " + note.dataset.changed.replace("{n}", changed)
      : "";
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "rules") showBase(event.target.value);
    const group = event.target.closest(".rule-group");
    if (group) countChanged(group);
  });
  // A page restored from the back/forward cache keeps its choices.
  const checked = form.querySelector("input[name=rules]:checked");
  if (checked) showBase(checked.value);
  form.querySelectorAll(".rule-group").forEach(countChanged);
});

// The House rules page: progressive enhancement only (the form works
// without JavaScript). Each "as the game plays it" choice says what the
// chosen game plays; choosing another game (or, for the sides, a number
// of players) changes what they say. The line under a select gives the
// whole words of its choice (its list has them in a few words), and
// follows the choice. Each fold's "n changed" follows the choices made in
// it.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-base]");
  if (!form) return;

  // Sides left alone follow the number of players when one is chosen
  // (partners for four, each for themselves otherwise), else the game.
  function showBase(base) {
    const players = form.querySelector("#players")?.value;
    for (const element of form.querySelectorAll("[data-classic]")) {
      let key = base;
      if (players && element.dataset.playersOther) {
        key = players === "4" ? "playersFour" : "playersOther";
      }
      if (element.tagName === "OPTION") {
        element.textContent = element.dataset[key];
        element.dataset.words = element.dataset[key + "Words"] || "";
      } else element.placeholder = element.dataset[key];
    }
    form.querySelectorAll("select").forEach(showWords);
  }

  // The chosen choice's whole words under its select, when its label in
  // the list does not say them all (the server writes the first ones).
  function showWords(select) {
    const line = document.getElementById(select.id + "-chosen");
    if (!line) return;
    const words = select.selectedOptions[0]?.dataset.words || "";
    line.textContent = words;
    line.hidden = !words;
  }

  function chosenBase() {
    return form.querySelector("input[name=rules]:checked")?.value;
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
    if (event.target.name === "rules" || event.target.name === "players") {
      const base = chosenBase();
      if (base) showBase(base);
    }
    if (event.target.tagName === "SELECT") showWords(event.target);
    const group = event.target.closest(".rule-group");
    if (group) countChanged(group);
  });
  // A page restored from the back/forward cache keeps its choices.
  const base = chosenBase();
  if (base) showBase(base);
  form.querySelectorAll(".rule-group").forEach(countChanged);
});

// A review's decisions by the arrow keys: ← the previous one, → the next
// (as the links' aria-keyshortcuts say), not while typing in a field nor
// with a modifier held.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  const link = rel && document.querySelector(`.review-nav a[rel="${rel}"]`);
  if (!link) return;
  event.preventDefault();
  link.click();
});

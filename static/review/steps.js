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

// Stepping by a link keeps the focus on that link in the new decision (the
// same one of the two rows of links), so Enter goes on stepping; where the
// link is gone (no Next at the last decision) the heading takes it.
const FOCUS_KEY = "pisti-review-step";
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest(".review-nav a[rel]");
  if (!link) return;
  const row = [...document.querySelectorAll(".review-nav")].indexOf(link.closest(".review-nav"));
  sessionStorage.setItem(FOCUS_KEY, `${row}:${link.getAttribute("rel")}`);
});
const stepped = sessionStorage.getItem(FOCUS_KEY);
if (stepped) {
  sessionStorage.removeItem(FOCUS_KEY);
  const [row, rel] = stepped.split(":");
  const nav = document.querySelectorAll(".review-nav")[Number(row)];
  const target = nav && nav.querySelector(`a[rel="${rel}"]`);
  const heading = document.querySelector(".review-position h1");
  if (target) target.focus();
  else if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }
}

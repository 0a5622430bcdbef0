// The organiser's pages of a round under way load themselves again every so often, to
// follow the tables, but never while someone is filling in a form there: a reload would
// throw away what was typed (WCAG 2.2.1, docs/tournaments.md "Standings"). Once a reload
// was held back the page says so, so nobody takes it for live. Without this script a plain
// refresh in <noscript> does it.
(function () {
  "use strict";
  const script = document.currentScript;
  const seconds = Number(script.dataset.seconds);
  if (!seconds) { return; }
  let typed = false;
  document.addEventListener("input", function () { typed = true; });
  function holdBack() {
    if (document.querySelector(".refresh-held")) { return; }
    const note = document.createElement("p");
    note.className = "refresh-held warning";
    note.setAttribute("role", "status");
    note.textContent = script.dataset.held;
    const main = document.querySelector("main");
    if (main) { main.prepend(note); }
  }
  function due() {
    const active = document.activeElement;
    if (typed || (active && active.matches("input, select, textarea"))) {
      holdBack();
      setTimeout(due, seconds * 1000);
      return;
    }
    window.location.reload();
  }
  setTimeout(due, seconds * 1000);
}());

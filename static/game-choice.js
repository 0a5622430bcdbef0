// The new-evening and tournament set-up forms: another game chosen in the list is shown at
// once with its own house rules (and, for an evening, its seats and player count). The
// server renders them, what was typed kept, so the form's one button then starts the
// evening or sets up the tournament in a single tap. Without this script the button first
// shows the new game's rules (docs/tournaments.md "Shape").
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  const game = document.querySelector("form select#variant");
  const shown = game && game.form.querySelector("input[name=shown]");
  if (!shown) { return; }
  game.addEventListener("change", function () {
    if (game.value !== shown.value) { game.form.requestSubmit(); }
  });
}());

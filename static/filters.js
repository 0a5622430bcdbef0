// The season's filters: the variant list follows the chosen game (docs/club.md "The
// season"). Without this script every game's variants are listed, grouped by game.
(function () {
  "use strict";
  const game = document.getElementById("game");
  const variant = document.getElementById("variant");
  if (!game || !variant) { return; }
  function follow() {
    variant.querySelectorAll("optgroup").forEach(function (group) {
      const shown = !game.value || group.dataset.game === game.value;
      group.hidden = !shown;
      group.disabled = !shown;
    });
    const chosen = variant.selectedOptions[0];
    if (chosen && chosen.parentElement.disabled) { variant.value = ""; }
  }
  game.addEventListener("change", follow);
  follow();
}());

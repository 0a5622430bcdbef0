// Small enhancements of the table's pages. Every page works without this script; it adds
// the keypad, the live preview in the Save bar, the Misère checksum, the seat arrows, the
// Undo countdown, the card counter over the entry, and the outbox that keeps hands saved
// while the Wi-Fi is away (docs/recording.md).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // A page the browser kept in its back/forward cache shows the entry as it was left,
  // with a token already used: fetch the table screen anew instead.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.querySelector("form[data-outbox]")) {
      window.location.reload();
    }
  });


  function debounce(fn, ms) {
    let timer;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  function setupHandForm(form) {
    let target = null;
    const preview = document.getElementById("preview");
    // The field the keypad types into is marked, so the table sees whose points it is.
    function aim(input) {
      if (target) { target.classList.remove("keypad-target"); }
      target = input;
      if (target) { target.classList.add("keypad-target"); }
      // One mark only: a field tapped earlier loses its focus ring when the keypad moves on.
      const focused = document.activeElement;
      if (focused && focused !== target && focused.matches("[data-keypad]")) { focused.blur(); }
    }
    aim(form.querySelector("[data-keypad]"));
    // A Misère's next player: after "Next player" (after the last, the first again), or by
    // itself once a second digit is typed (nobody holds 100 points; after the last player it
    // stays). "Next player" right after such a move is the same step and moves no further:
    // a player who taps it after two digits lands on the next player, not the one after.
    let movedOn = false;
    function nextPlayer(wrap) {
      const fields = Array.from(form.querySelectorAll("[data-misere]"));
      const at = fields.indexOf(target);
      if (!fields.length || (!wrap && at === fields.length - 1)) { return false; }
      aim(fields[(at + 1) % fields.length]);
      return true;
    }

    form.addEventListener("focusin", function (event) {
      if (event.target.matches("[data-keypad]")) { aim(event.target); movedOn = false; }
    });
    form.addEventListener("change", function (event) {
      if (event.target.name === "contract") {
        form.dataset.contract = event.target.value;
        aim(form.querySelector(
          event.target.value === "misere" ? "[data-misere]" : "input[name=points]"));
        showWholeForm(form);
      }
      if (event.target.name === "result" && event.target.value !== "points") {
        const points = form.querySelector("input[name=points]");
        if (points) { points.value = ""; }
      }
    });
    form.querySelectorAll(".keypad button").forEach(function (button) {
      button.addEventListener("click", function () {
        const section = button.closest(".misere-entry");
        if (section && (!target || !section.contains(target))) {
          aim(section.querySelector("[data-misere]"));
        } else if (!section && (!target || target.closest(".misere-entry"))) {
          aim(form.querySelector("input[name=points]"));
        }
        if (!target) { return; }
        const key = button.dataset.key;
        if (key === "next") {
          if (!movedOn) { nextPlayer(true); }
          movedOn = false;
          return;
        }
        movedOn = false;
        const typed = target;
        // A Misère field holds two digits at most: a digit typed on a full one starts it
        // over (a third digit would make 100 or more, which nobody holds).
        const longest = section ? 2 : 3;
        if (key === "back") { typed.value = typed.value.slice(0, -1); }
        else if (key === "clear") { typed.value = ""; }
        else if (typed.value.length < longest) { typed.value += key; }
        else if (section) { typed.value = key; }
        if (typed.name === "points") {
          const counted = form.querySelector("input[name=result][value=points]");
          if (counted) { counted.checked = true; }
        }
        if (section && /^\d$/.test(key) && typed.value.length === 2) { movedOn = nextPlayer(false); }
        typed.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });

    const checksum = form.querySelector("[data-checksum]");
    function updateChecksum() {
      if (!checksum) { return; }
      let sum = 0;
      form.querySelectorAll("[data-misere]").forEach(function (input) {
        const n = parseInt(input.value, 10);
        if (!isNaN(n)) { sum += n; }
      });
      checksum.textContent = checksum.textContent.split(":")[0] + ": " + sum;
      // The points the players should hold together: the pack's, less the talon's (or
      // the Tapp's) once typed, as the warning on saving counts them.
      const total = form.querySelector("[data-checksum-total]");
      if (!total) { return; }
      const less = form.querySelector("input[name=" + total.dataset.less + "]");
      const aside = less ? parseInt(less.value, 10) : NaN;
      // Without the talon's (or Tapp's) points: the range saving accepts, as rendered.
      if (total.dataset.range === undefined) { total.dataset.range = total.textContent; }
      total.textContent = isNaN(aside) ? total.dataset.range :
        String(parseInt(total.dataset.checksumTotal, 10) - aside);
    }

    // The live result is busy from a change until the answer for the newest entry is
    // shown: an answer for an earlier entry (asked before the last change, arriving late
    // on a slow Wi-Fi) is dropped, never shown over it.
    const previewed = Boolean(preview && form.dataset.preview);
    let entry = 0;
    function show(mine, fill) {
      if (mine !== entry) { return; }
      keepUncovered(form, fill);
      preview.removeAttribute("aria-busy");
    }
    const refresh = debounce(function () {
      updateChecksum();
      if (!previewed) { return; }
      const mine = entry;
      fetch(form.dataset.preview, { method: "POST", body: new FormData(form),
                                    credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : ""; })
        .then(function (html) { show(mine, function () { preview.innerHTML = html; }); })
        .catch(function () {
          show(mine, function () {
            preview.innerHTML = "";
            const note = document.createElement("p");
            note.className = "preview-title";
            note.textContent = form.dataset.offlinePreview || "";
            preview.appendChild(note);
          });
        });
    }, 250);
    function changed() {
      entry += 1;
      if (previewed) { preview.setAttribute("aria-busy", "true"); }
      refresh();
    }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    updateChecksum();

    form.addEventListener("submit", function (event) {
      if (form.dataset.outbox && outbox.take(form, event)) { return; }
      // A second tap while the first is on its way would only be refused; say so visibly.
      const save = form.querySelector("button[type=submit]");
      if (save) { setTimeout(function () { save.disabled = true; }, 0); }
    });
  }

  // The Save bar grows when its live result takes another line, and would then cover what
  // stood just above it (the field being typed into, wherever the page was scrolled: on a
  // slow Wi-Fi the answer comes after the player moved on): the page moves up as much.
  function keepUncovered(form, change) {
    const bar = form.querySelector(".save-bar");
    const before = bar ? bar.offsetHeight : 0;
    change();
    const grown = bar ? bar.offsetHeight - before : 0;
    if (grown > 0) { window.scrollBy(0, grown); }
  }

  // Once the contract is chosen, the rest of the hand comes into view above the Save bar:
  // the page moves up just so far that the form ends at the bottom of the screen, but
  // never past the heading of the players to choose from next (a hand too tall for the
  // screen, five players with long names on a phone, is then finished with a scroll down,
  // in reading order, rather than up to names moved out of view).
  function showWholeForm(form) {
    const below = form.getBoundingClientRect().bottom - window.innerHeight;
    const contracts = form.querySelector("fieldset");
    const after = contracts ? contracts.getBoundingClientRect().bottom : 0;
    const next = Array.from(form.querySelectorAll("fieldset")).find(function (f) {
      return f.checkVisibility() && f.getBoundingClientRect().top >= after - 1;
    });
    const players = next && next.classList.contains("players");
    const limit = players ? next.getBoundingClientRect().top - 8 : below;
    const move = Math.min(below, limit);
    if (move > 0) { window.scrollBy(0, move); }
  }

  // After a refused save the summary stands at the top (outbox.js brings it there when the
  // outbox gives a hand back); its links bring their field into view, above the Save bar,
  // with the finger's focus in it.
  document.addEventListener("click", function (event) {
    const link = event.target.closest("#not-saved a[href^='#']");
    const field = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!field) { return; }
    event.preventDefault();
    const details = field.closest("details");
    if (details) { details.open = true; }
    field.scrollIntoView({ block: "center" });
    const input = field.matches("input, select, textarea")
      ? field : field.querySelector("input:not([type=hidden]), select, textarea");
    if (input) { input.focus({ preventScroll: true }); }
  });

  // The card counter (Doppen) in a dialog over the entry: the same form as /tools/count,
  // answered by that page without leaving this one.
  function setupCounter(dialog) {
    document.addEventListener("click", function (event) {
      if (event.target.closest("[data-open-dialog=counter]")) { dialog.showModal(); }
    });
    dialog.querySelector("[data-close]").addEventListener("click", function () {
      dialog.close();
    });
    const take = dialog.querySelector("[data-take]");
    dialog.addEventListener("submit", function (event) {
      const counter = event.target;
      event.preventDefault();
      const query = new URLSearchParams(new FormData(counter)).toString();
      fetch(counter.action + "?" + query, { credentials: "same-origin" })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          const page = new DOMParser().parseFromString(html, "text/html");
          const body = page.querySelector(".counter-body");
          if (!body) { return; }
          dialog.querySelector(".counter-body").replaceWith(document.importNode(body, true));
          const counted = dialog.querySelector(".counted strong");
          take.hidden = !counted;
          if (counted) { take.dataset.points = counted.textContent.trim(); }
        });
    });
    take.addEventListener("click", function () {
      const points = document.querySelector(".hand-form input[name=points]");
      if (points) {
        points.value = take.dataset.points || "";
        points.dispatchEvent(new Event("input", { bubbles: true }));
      }
      dialog.close();
    });
  }

  function setupSeats(list) {
    list.addEventListener("click", function (event) {
      const button = event.target.closest("[data-move]");
      if (!button) { return; }
      const seats = Array.from(list.querySelectorAll(".seat"));
      const here = seats.indexOf(button.closest(".seat"));
      const there = here + parseInt(button.dataset.move, 10);
      if (there < 0 || there >= seats.length) { return; }
      const a = seats[here].querySelector(".seat-name");
      const b = seats[there].querySelector(".seat-name");
      const name = a.value; a.value = b.value; b.value = name;
      const da = seats[here].querySelector("input[type=radio]");
      const db = seats[there].querySelector("input[type=radio]");
      const checked = da.checked; da.checked = db.checked; db.checked = checked;
      seats[there].querySelector("[data-move='" + button.dataset.move + "']").focus();
    });
  }

  // Undo is offered for the seconds the server gave (at most 20 after the save), and the
  // button counts them down.
  function setupUndo(panel) {
    const form = panel.querySelector("form.undo");
    if (!form) { return; }
    const shown = form.querySelector("[data-countdown]");
    const ends = Date.now() + Number(form.dataset.seconds) * 1000;
    const tick = setInterval(function () {
      const left = Math.ceil((ends - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(tick);
        form.remove();
      } else if (shown) {
        shown.textContent = shown.textContent.replace(/\d+/, String(left));
      }
    }, 250);
  }

  const outbox = window.ScorekeeperOutbox
    ? window.ScorekeeperOutbox.create(setupHandForm)
    : { take: function () { return false; }, start: function () {} };
  document.querySelectorAll(".hand-form").forEach(setupHandForm);
  outbox.start();
  document.querySelectorAll(".seat-list").forEach(setupSeats);
  document.querySelectorAll("[data-undo]").forEach(setupUndo);
  document.querySelectorAll("dialog.counter").forEach(setupCounter);
  // After a save, the next hand's first choice must not start under the Save bar: the
  // page moves up just so far, the receipt staying in view.
  const receipt = document.querySelector("section.saved");
  const firstChoice = document.querySelector(".hand-form fieldset");
  const bar = document.querySelector(".hand-form .save-bar");
  if (receipt && firstChoice && bar) {
    // Measured against where the bar will stand once the page has moved: at the foot of
    // the screen. Before the move it may stand lower (a sticky bar does not rise above its
    // form's top), and the next hand's second row of contracts stayed under it.
    const stuckTop = window.innerHeight - bar.offsetHeight;
    const covered = firstChoice.getBoundingClientRect().bottom - stuckTop;
    const room = receipt.getBoundingClientRect().top;
    if (covered > 0 && room > 0) { window.scrollBy(0, Math.min(covered + 8, room)); }
  }
  const summary = document.getElementById("not-saved");
  if (summary) {
    summary.scrollIntoView({ block: "start" });
    summary.focus({ preventScroll: true });
  }
})();

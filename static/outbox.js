// The table screen's outbox (docs/recording.md, "A dropped Wi-Fi loses nothing").
//
// Every hand saved on the table screen is first written to the browser's storage, which
// survives a closed tab and a browser restart, and then sent: each hand with its own key
// (the form's token) and the number it expects to become, one after the other, in order.
// While the server cannot be reached the outbox tries again with a growing pause, and the
// next hand can be entered meanwhile. The first refusal or conflict stops it: that hand
// comes back into the form with the server's message, and the hands behind it wait until
// the player sends them on. Nothing is dropped unless the player discards it.
//
// The hall serves plain HTTP on an IP address, which is no secure context: no service
// worker, no crypto.randomUUID; crypto.getRandomValues is there.
(function () {
  "use strict";

  const STORE = "scorekeeper.outbox.v1";
  const FIRST_PAUSE = 1000;
  const LONGEST_PAUSE = 30000;
  // One tab sends at a time: the one holding this lease, renewed for every hand it sends.
  const LEASE = "scorekeeper.outbox.sender";
  const LEASE_MS = 20000;
  // A second tap on Save this soon, on the blank form it left, belongs to the first.
  const DOUBLE_TAP = 1500;
  const NONE = { take: function () { return false; }, start: function () {} };

  function randomToken() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function usableStorage() {
    try {
      const probe = "scorekeeper.probe";
      window.localStorage.setItem(probe, probe);
      window.localStorage.removeItem(probe);
      return window.localStorage;
    } catch (error) {
      return null;  // storage switched off: the form is sent as a plain page
    }
  }

  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (all, name) {
      return values[name] === undefined ? all : String(values[name]);
    });
  }

  function create(setupHandForm) {
    const store = usableStorage();
    // The table screen's entry form, or on a closed evening a mark that only shows the queue.
    const anchor = document.querySelector("[data-outbox]");
    if (!store || !anchor || !window.fetch || !window.DOMParser) { return NONE; }
    let form = anchor.tagName === "FORM" ? anchor : null;
    const action = new URL(anchor.dataset.action, window.location.href).pathname;
    const texts = JSON.parse(anchor.dataset.outbox);
    const tab = randomToken();
    const band = document.createElement("div");
    band.id = "outbox";
    band.className = "outbox";
    band.setAttribute("role", "status");
    band.setAttribute("aria-live", "polite");
    band.hidden = true;
    document.getElementById("main").prepend(band);

    let sending = false;
    let timer = null;
    let pause = FIRST_PAUSE;
    let retryAt = 0;
    let touched = false;
    let lastSaved = null;
    let refreshedCsrf = false;
    let locked = false;
    let givenBack = null;  // the id of the queued hand the form shows again
    let lastTaken = 0;
    const blank = form && form.dataset.blank ?
      document.getElementById("entry").cloneNode(true) : null;

    // -- the queue in the browser's storage, shared by every tab of this browser -------
    function all() {
      try { return JSON.parse(store.getItem(STORE) || "[]"); } catch (error) { return []; }
    }
    function keep(items) { store.setItem(STORE, JSON.stringify(items)); }
    function queue() { return all().filter(function (i) { return i.action === action; }); }
    function change(id, values) {
      keep(all().map(function (i) { return i.id === id ? Object.assign(i, values) : i; }));
    }
    function drop(id) { keep(all().filter(function (i) { return i.id !== id; })); }

    // -- the entry form ----------------------------------------------------------------
    function field(name) { return form.querySelector("[name=" + name + "]"); }
    function describe() {
      const parts = [];
      form.querySelectorAll("input:checked").forEach(function (input) {
        if (input.type === "hidden" || input.name === "confirm" ||
            input.value === "none" || input.value === "points") {
          return;
        }
        const label = input.closest("label") || form.querySelector("label[for='" + input.id + "']");
        const said = label ? label.textContent.trim() : input.value;
        if (said) { parts.push(said); }
      });
      form.querySelectorAll("input[data-keypad]").forEach(function (input) {
        if (input.value) { parts.push(input.value); }
      });
      return parts.join(" · ").slice(0, 90);
    }
    function numbered(number) {
      field("number").value = String(number);
      const title = document.getElementById("entry-title");
      if (title) { title.textContent = fill(texts.hand, { n: number }); }
    }
    function watch() {
      form.addEventListener("input", function () { touched = true; });
      form.addEventListener("change", function () { touched = true; });
    }
    function attach(section) {
      form = section.querySelector("form.hand-form");
      setupHandForm(form);
      watch();
    }
    // After a hand is queued: a blank form for the next, with a new key and number.
    function nextEntry(item) {
      const dealer = field("dealer");
      const nextDealer = dealer && dealer.options.length ? dealer.options[
        (dealer.selectedIndex + 1) % dealer.options.length].value : null;
      blankEntry(item.number + 1);
      const select = field("dealer");
      if (select && nextDealer) {
        // Only a guess while offline: left as it is, the server's rotation decides.
        form.dataset.proposedDealer = nextDealer;
        Array.from(select.options).forEach(function (o) {
          o.defaultSelected = o.selected = o.value === nextDealer;
        });
        const shown = form.querySelector("details.dealer summary strong");
        if (shown) { shown.textContent = nextDealer; }
      }
    }
    function blankEntry(number) {
      const section = document.getElementById("entry");
      if (blank) {
        const fresh = blank.cloneNode(true);
        section.replaceWith(fresh);
        attach(fresh);
      } else {
        form.querySelectorAll("input").forEach(function (input) {
          if (input.type === "radio" || input.type === "checkbox") { input.checked = false; }
          else if (input.type !== "hidden") { input.value = ""; }
        });
        section.querySelectorAll(".error, .conflict").forEach(function (e) { e.remove(); });
      }
      field("token").value = randomToken();
      numbered(number);
      givenBack = null;
      const save = form.querySelector("button[type=submit]");
      if (save) { save.disabled = false; }
      touched = false;
    }
    // The entry's first choice in view, below the band.
    function showEntry(target) {
      target.scrollIntoView({ block: "start" });
      if (!band.hidden) { window.scrollBy(0, -band.offsetHeight - 8); }
    }
    // A refused hand comes back into the form, with the server's message at its fields; a
    // hand being typed meanwhile waits in the queue instead of being overwritten.
    function giveBack(entry, item) {
      if (touched && givenBack === null) {
        const typed = entryItem();
        typed.state = "behind";
        keep(all().concat([typed]));
      }
      givenBack = item.id;
      const section = document.getElementById("entry");
      const shown = document.importNode(entry, true);
      section.replaceWith(shown);
      attach(shown);
      touched = true;
      render(false);
      const first = shown.querySelector("#not-saved, #conflict, .error, .warning") || shown;
      showEntry(first);
      if (first.id === "not-saved") { first.focus({ preventScroll: true }); }
    }

    // -- saving: the form goes into the queue --------------------------------------------
    // Whether the dealer is the one the rotation proposed (not one chosen by hand).
    function dealerLeft() {
      const dealer = field("dealer");
      return Boolean(dealer) && dealer.value === form.dataset.proposedDealer;
    }
    // The entry in the form as a queued hand.
    function entryItem() {
      const fields = [];
      const left = dealerLeft();
      new FormData(form).forEach(function (value, name) {
        if (typeof value !== "string" || name === "csrf_token") { return; }
        if (name === "dealer" && left) { return; }  // the rotation's, decided on save
        fields.push([name, value]);
      });
      const number = parseInt(field("number").value, 10);
      return {
        id: randomToken(), action: action, key: field("token").value || randomToken(),
        number: isNaN(number) ? null : number, fields: fields, label: describe(),
        state: "waiting",
      };
    }
    function take(submitted, event) {
      event.preventDefault();
      if (event.submitter && event.submitter.name === "action") {
        suggest(submitted, event.submitter);
        return true;
      }
      if (!touched && Date.now() - lastTaken < DOUBLE_TAP) { return true; }  // the same tap
      lastTaken = Date.now();
      form = submitted;
      const item = entryItem();
      let items = all();
      const mine = items.filter(function (i) { return i.action === action; });
      if (givenBack !== null && mine.some(function (i) { return i.id === givenBack; })) {
        // The hand given back, saved again: it takes its place at the head of the queue.
        items = items.filter(function (i) { return i.id !== givenBack; });
        items.unshift(item);
      } else {
        // Behind a hand that was refused, a new one waits for the player too.
        if (mine.some(function (i) { return i.state !== "waiting"; })) { item.state = "behind"; }
        items.push(item);
      }
      givenBack = null;
      keep(items);
      nextEntry(item);
      render(false);
      showEntry(document.getElementById("entry"));
      pump();
      return true;
    }

    // A suggestion (Eisten-Stalden's team) is the server's: the entry comes back with it.
    function suggest(submitted, button) {
      const body = new FormData(submitted);
      body.set(button.name, button.value);
      fetch(action, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          const entry = new DOMParser().parseFromString(html, "text/html").getElementById("entry");
          if (!entry) { throw new Error("no entry"); }
          const shown = document.importNode(entry, true);
          document.getElementById("entry").replaceWith(shown);
          attach(shown);
          touched = true;
        })
        .catch(function () {
          const preview = document.getElementById("preview");
          if (preview) { preview.textContent = form.dataset.offlinePreview || ""; }
        });
    }

    // -- sending, in order, one at a time --------------------------------------------------
    function lease() {
      let held = null;
      try { held = JSON.parse(store.getItem(LEASE) || "null"); } catch (error) { held = null; }
      if (held && held.tab !== tab && held.until > Date.now()) { return false; }
      store.setItem(LEASE, JSON.stringify({ tab: tab, until: Date.now() + LEASE_MS }));
      return true;
    }
    function release() {
      try {
        const held = JSON.parse(store.getItem(LEASE) || "null");
        if (held && held.tab === tab) { store.removeItem(LEASE); }
      } catch (error) { store.removeItem(LEASE); }
    }
    function csrf() {
      const token = form.querySelector("input[name=csrf_token]");
      return token ? token.value : "";
    }
    function send(item) {
      const body = new FormData();
      item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
      body.set("token", item.key);
      if (item.number === null) { body.delete("number"); }
      else { body.set("number", String(item.number)); }
      body.set("csrf_token", csrf());
      return fetch(action, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { "X-Scorekeeper-Outbox": "1" },
      });
    }
    function later() {
      pause = Math.min(pause * 2, LONGEST_PAUSE);
      retryAt = Date.now() + pause;
      clearTimeout(timer);
      timer = setTimeout(pump, pause);
    }
    // What the server said to the queue's first hand: "next" to go on, "stop" to wait.
    async function settle(item, response) {
      if (!queue().some(function (i) { return i.id === item.id; })) {
        return "next";  // discarded meanwhile, or sent by another tab: its answer is theirs
      }
      const type = response.headers.get("Content-Type") || "";
      if (response.ok && type.indexOf("application/json") === 0) {
        lastSaved = await response.json();
        drop(item.id);
        pause = FIRST_PAUSE;
        refreshedCsrf = false;
        locked = false;
        return "next";
      }
      if (response.status === 401 || response.status === 403) {
        locked = true;
        return "stop";
      }
      if (response.status >= 500 || response.status === 408 || response.status === 429) {
        later();
        return "stop";
      }
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      if (!page.querySelector("meta[name='application-name'][content='Scorekeeper']")) {
        later();  // not the app's answer (a Wi-Fi's login page): as if there were none
        return "stop";
      }
      const fresh = page.querySelector("input[name=csrf_token]");
      if (response.status === 400 && fresh && !refreshedCsrf) {
        // The page's form protection expired while the hand waited: send it with a new one.
        document.querySelectorAll("input[name=csrf_token]").forEach(function (input) {
          input.value = fresh.value;
        });
        refreshedCsrf = true;
        return "next";
      }
      const said = ["#conflict h3", ".error", "[role=alert]", "main p"].map(function (css) {
        return page.querySelector(css);
      }).find(Boolean);
      const message = said ? said.textContent.trim() : "";
      const items = queue();
      items.slice(1).forEach(function (i) { change(i.id, { state: "behind" }); });
      change(item.id, { state: "held", message: message });
      // The page answered is the evening as it stands now: its table state and last hands
      // replace the ones shown since this page was loaded.
      ["section.state", "section[aria-labelledby=last-title]"].forEach(function (css) {
        const now = page.querySelector(css);
        const shown = document.querySelector(css);
        if (now && shown) { shown.replaceWith(document.importNode(now, true)); }
      });
      const entry = page.getElementById("entry");
      if (entry) { giveBack(entry, item); }
      return "stop";
    }
    async function pump() {
      if (sending || !form) { return; }
      sending = true;
      clearTimeout(timer);
      timer = null;
      retryAt = 0;
      try {
        for (;;) {
          const head = queue()[0];
          if (!head || head.state !== "waiting") { break; }
          if (!lease()) {  // another tab of this browser is sending: look again soon
            clearTimeout(timer);
            timer = setTimeout(pump, 2000);
            break;
          }
          render(true);
          let response;
          try {
            response = await send(head);
          } catch (error) {
            later();  // no answer at all: the Wi-Fi or the server is away
            break;
          }
          if (await settle(head, response) !== "next") { break; }
        }
      } finally {
        sending = false;
        release();
      }
      render(false);
      if (queue().length === 0 && lastSaved) {
        if (!touched) { window.location.assign(lastSaved.location); }
      }
    }

    // -- the band that says what waits ----------------------------------------------------
    function button(label, onClick, extra) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      if (extra) { b.className = extra; }
      b.addEventListener("click", onClick);
      return b;
    }
    function sendBehind() {
      let next = lastSaved ? lastSaved.saved + 1 : null;
      queue().forEach(function (i) {
        if (i.state !== "behind") { return; }
        change(i.id, { state: "waiting", number: next });
        next = next === null ? null : next + 1;
      });
      numbered(next === null ? parseInt(field("number").value, 10) : next);
      pump();
    }
    function discard(item) {
      if (window.confirm(fill(texts.discard_confirm, { n: item.number || "", label: item.label }))) {
        drop(item.id);
        if (form && item.id === givenBack) {  // the form showed it: it goes with it
          blankEntry(parseInt(field("number").value, 10));
          touched = false;
        }
        render(false);
      }
    }
    function sendAgain(item) {
      change(item.id, { state: "waiting" });
      pump();
    }
    // The table's state above the entry (dealer, pot, balances) is the server's, as of the
    // last hand it counted. While hands wait, or after some were sent from here, it says
    // so, and the dealer and lead follow the entry's, so the two never disagree.
    function markPending(count) {
      const state = document.querySelector("section.state");
      if (!state || !form) { return; }
      let note = state.querySelector(".pending-note");
      const stale = count > 0 || lastSaved !== null;
      state.classList.toggle("pending", stale);
      if (!stale) {
        if (note) { note.remove(); }
        return;
      }
      if (!note) {
        note = document.createElement("p");
        note.className = "pending-note";
        state.appendChild(note);
      }
      note.textContent = count > 0 ?
        fill(count === 1 ? texts.pending_one : texts.pending_many, { count: count }) :
        texts.pending_sent;
      const dealer = field("dealer");
      const turn = state.querySelectorAll(".turn strong");
      if (dealer && dealer.value && turn.length >= 2) {
        const seats = Array.from(dealer.options, function (o) { return o.value; });
        turn[0].textContent = dealer.value;
        turn[1].textContent = seats[(seats.indexOf(dealer.value) + 1) % seats.length];
      }
    }
    function render(busy) {
      const items = queue();
      // A hand given back into the form is being corrected there, not waiting to be sent.
      markPending(items.filter(function (i) { return i.id !== givenBack; }).length);
      band.textContent = "";
      if (items.length === 0) {
        band.hidden = !(lastSaved && touched);
        if (!band.hidden) {
          band.className = "outbox done";
          const p = document.createElement("p");
          p.textContent = texts.all_saved + " ";
          const link = document.createElement("a");
          link.href = lastSaved.location;
          link.textContent = texts.show;
          p.appendChild(link);
          band.appendChild(p);
        }
        return;
      }
      band.hidden = false;
      const head = items[0];
      band.className = "outbox" + (head.state === "waiting" ? "" : " stopped");
      const title = document.createElement("p");
      const strong = document.createElement("strong");
      if (head.state === "held") {
        strong.textContent = fill(texts.held, { n: head.number || "" });
      } else if (head.state === "behind") {
        strong.textContent = fill(items.length === 1 ? texts.behind_one : texts.behind_many,
                                  { count: items.length });
      } else {
        strong.textContent = fill(items.length === 1 ? texts.waiting_one : texts.waiting_many,
                                  { count: items.length });
      }
      title.appendChild(strong);
      if (!form) {
        strong.textContent = texts.closed;
      } else if (head.state === "held" && head.message && head.id !== givenBack) {
        // Given back, the form below says what to fix, beside the fields.
        title.appendChild(document.createTextNode(" " + head.message));
      }
      band.appendChild(title);
      const list = document.createElement("ul");
      items.forEach(function (item) {
        const li = document.createElement("li");
        li.textContent = (item.number ? fill(texts.hand, { n: item.number }) : texts.next_hand) +
          (item.label ? ": " + item.label : "");
        if (item.state !== "waiting" || !form) {
          li.appendChild(button(texts.discard, function () { discard(item); }, "link"));
        }
        list.appendChild(li);
      });
      band.appendChild(list);
      const actions = document.createElement("p");
      if (!form) {
        band.appendChild(actions);
        return;
      }
      if (locked) {
        const link = document.createElement("a");
        link.href = texts.unlock_url + "?next=" + encodeURIComponent(window.location.pathname);
        link.textContent = texts.unlock;
        actions.appendChild(link);
      } else if (head.state === "waiting") {
        const wait = retryAt ? Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)) : 0;
        actions.appendChild(document.createTextNode(
          busy ? texts.sending : wait ? fill(texts.retry, { seconds: wait }) + " " : ""));
        if (!busy) { actions.appendChild(button(texts.send_now, pump)); }
      } else if (head.state === "behind") {
        actions.appendChild(button(texts.send_behind, sendBehind, "primary"));
      } else if (head.state === "held" && head.id !== givenBack) {
        actions.appendChild(button(texts.send_again, function () { sendAgain(head); }));
      }
      band.appendChild(actions);
    }

    function start() {
      if (!form) {  // a closed evening: what waits here is shown, never sent
        render(false);
        window.addEventListener("storage", function () { render(false); });
        return;
      }
      watch();
      touched = Boolean(document.querySelector("#entry .error, #entry #conflict"));
      const head = queue()[0];
      if (head && head.state === "held") {
        change(head.id, { state: "waiting" });  // sent again, it comes back into the form
      }
      const items = queue();
      const last = items.length ? items[items.length - 1].number : null;
      if (blank && last !== null && last >= parseInt(field("number").value, 10)) {
        numbered(last + 1);  // the hands waiting here come first
      }
      window.addEventListener("online", pump);
      window.addEventListener("storage", function () { render(sending); });
      setInterval(function () { if (retryAt && !sending) { render(false); } }, 1000);
      render(false);
      pump();
    }

    return { take: take, start: start };
  }

  window.ScorekeeperOutbox = { create: create };
})();

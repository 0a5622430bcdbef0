// Typing a paper sheet back in (docs/recording.md "Back from paper"). The page works
// without this script: a plain form of lines, checked on the server. The script adds the
// keyboard's moves (Enter and Tab to the next column, arrows between lines, a complete
// code moving on by itself) and checks the lines as they are typed, each showing its hand,
// payments and totals, or what to mend, in place.
(function () {
  "use strict";
  const form = document.getElementById("paper");
  if (!form) { return; }
  document.documentElement.classList.add("js");

  const COLUMNS = ["dealer", "contract", "who", "points", "extra"];
  const codes = JSON.parse(form.dataset.codes || "[]").map(plain);
  const contracts = JSON.parse(form.dataset.contracts || "[]").map(plain);
  const short = JSON.parse(form.dataset.short || "{}");
  const kontra = form.dataset.kontra === "1";
  const singleWho = form.dataset.singleWho === "1";
  const tally = form.dataset.tally === "1";
  const passed = plain(form.dataset.pass || "");
  const longPoints = form.dataset.longPoints === "1";
  const misere = plain(form.dataset.misere || "m");
  const body = form.querySelector("tbody");

  function plain(text) {
    return (text || "").trim().toLowerCase()
      .replace(/[\u2212\u2013\u2014]/g, "-").replace(/[\u00d7*]/g, "x").replace(/[\u00b7.\s]/g, "");
  }
  function rows() { return Array.from(body.querySelectorAll("tr.paper-line")); }
  function field(row, name) { return row.querySelector(".paper-" + name + " input"); }
  function rowOf(input) { return input.closest("tr.paper-line"); }
  function columnOf(input) { return COLUMNS.find(function (n) { return input.closest(".paper-" + n); }); }

  // A code is complete when it is one of the list and no other one starts with it.
  function complete(typed, list) {
    return list.indexOf(typed) >= 0 && list.filter(function (c) { return c.indexOf(typed) === 0; }).length === 1;
  }

  function focusField(row, name) {
    if (!row) { return; }
    const input = field(row, name);
    if (input) { input.focus(); input.select(); }
  }
  function nextRow(row) {
    let next = row.nextElementSibling;
    if (!next) { addRows(4); next = row.nextElementSibling; }
    return next;
  }
  function moveOn(input) {
    const row = rowOf(input);
    const at = COLUMNS.indexOf(columnOf(input));
    if (at === COLUMNS.length - 1) { focusField(nextRow(row), "contract"); return; }
    focusField(row, COLUMNS[at + 1]);
  }
  function isMisere(row) { return plain(field(row, "contract").value) === misere; }

  // Whether a column's text is whole, so the cursor may go on by itself.
  function whole(input) {
    const row = rowOf(input);
    const typed = plain(input.value);
    switch (columnOf(input)) {
      case "contract": return !kontra && complete(typed, contracts);
      case "who":
        if (isMisere(row) || tally) { return false; }
        return singleWho ? complete(typed, codes) : pair(typed);
      case "points":
        if (/^[+-]$/.test(typed) || /^a?v[+-]$/.test(typed)) { return true; }
        if (!/^\d+$/.test(typed)) { return false; }
        return longPoints ? (typed.length === 3 || (typed.length === 2 && typed[0] !== "1")) : typed.length === 2;
      default: return false;
    }
  }
  // Two players' codes one after the other (the Bieterin and her partner), with or
  // without a "/" between them, read one way only.
  function pair(typed) {
    const joined = typed.replace("/", "");
    let found = 0;
    for (let cut = 1; cut < joined.length; cut++) {
      if (complete(joined.slice(0, cut), codes) && complete(joined.slice(cut), codes)) { found += 1; }
    }
    return found === 1;
  }

  form.addEventListener("input", function (event) {
    const input = event.target;
    if (!input.matches("input[type=text]")) { return; }
    if (event.inputType && event.inputType.indexOf("delete") === 0) { schedule(); return; }
    if (whole(input)) { moveOn(input); }
    const row = rowOf(input);
    if (!row.nextElementSibling || !row.nextElementSibling.nextElementSibling) { addRows(4); }
    schedule();
  });

  form.addEventListener("keydown", function (event) {
    const input = event.target;
    if (!input.matches("input[type=text]")) { return; }
    const row = rowOf(input);
    const name = columnOf(input);
    if (event.key === "Enter") {
      event.preventDefault();
      // Enter ends the line from the points on (a Misère says everything in Who); Tab
      // goes on to the last column.
      const ended = name === "points" || name === "extra" ||
        (name === "who" && (isMisere(row) || plain(field(row, "contract").value) === "=")) ||
        (name === "contract" && passed && plain(input.value) === passed);
      if (ended) { focusField(nextRow(row), "contract"); } else { moveOn(input); }
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      focusField(nextRow(row), name);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      focusField(row.previousElementSibling, name);
    }
  });

  // More lines as the last ones fill: each a copy of a blank one, numbered on.
  function addRows(count) {
    const all = rows();
    const template = all[all.length - 1];
    for (let i = 0; i < count; i++) {
      const index = rows().length;
      const copy = template.cloneNode(true);
      copy.className = "paper-line";
      copy.dataset.line = String(index);
      copy.querySelectorAll("input").forEach(function (input) {
        input.name = input.name.replace(/lines-\d+-/, "lines-" + index + "-");
        input.id = input.id.replace(/lines-\d+-/, "lines-" + index + "-");
        if (input.type === "checkbox") { input.checked = false; } else { input.value = ""; input.placeholder = ""; }
        input.setAttribute("aria-invalid", "false");
        input.setAttribute("aria-describedby", "line-" + index + "-said");
      });
      copy.querySelector(".paper-result").id = "line-" + index + "-said";
      copy.querySelector(".paper-result").replaceChildren();
      copy.querySelector(".paper-totals").replaceChildren();
      body.appendChild(copy);
    }
    number();
  }

  // Each line's hand number: the evening's next for the first line, one more for each.
  function number() {
    const first = parseInt(form.dataset.first, 10);
    rows().forEach(function (row, i) {
      const cell = row.querySelector("th");
      cell.textContent = String(first + i);
      row.querySelectorAll("input[type=text]").forEach(function (input) {
        const label = input.getAttribute("aria-label") || "";
        input.setAttribute("aria-label", label.replace(/\d+/, cell.textContent));
      });
    });
  }

  function moves(amounts) {
    const out = document.createDocumentFragment();
    Object.keys(amounts).forEach(function (player, i) {
      if (i) { out.appendChild(document.createTextNode(" ")); }
      const span = document.createElement("span");
      span.className = "paper-move";
      const who = document.createElement("abbr");
      who.title = player;
      who.textContent = short[player] || player;
      const value = amounts[player];
      const amount = document.createElement("span");
      amount.className = "amount" + (value > 0 ? " plus" : value < 0 ? " minus" : "");
      amount.textContent = value > 0 ? "+" + value : String(value).replace("-", "\u2212");
      span.append(who, "\u00a0", amount);
      out.appendChild(span);
    });
    return out;
  }

  function show(found) {
    const typed = rows().filter(function (row) {
      return COLUMNS.slice(1).some(function (c) { return field(row, c).value.trim(); });
    });
    const byRow = {};
    typed.forEach(function (row, i) { byRow[row.dataset.line] = found.lines[i]; });
    rows().forEach(function (row) {
      const line = byRow[row.dataset.line];
      const said = row.querySelector(".paper-result");
      const totals = row.querySelector(".paper-totals");
      const confirm = row.querySelector("input[type=checkbox]");
      row.className = "paper-line" + (line ? " " + line.state : "");
      said.replaceChildren();
      totals.replaceChildren();
      COLUMNS.forEach(function (name) {
        const problems = line && (line.refused || line.confirm) || {};
        field(row, name).setAttribute("aria-invalid", problems[name] ? "true" : "false");
      });
      if (!line) { return; }
      if (line.state === "ok" && line.seated) {
        said.textContent = form.dataset.newTable.replace("{n}", line.number) + " " + line.seated.join(", ");
        return;
      }
      if (line.state === "ok") {
        field(row, "dealer").placeholder = line.dealer || "";
        said.appendChild(moves(line.deltas));
        totals.appendChild(moves(line.balances));
        return;
      }
      if (line.state === "waiting") {
        const wait = document.createElement("span");
        wait.className = "muted";
        wait.textContent = form.dataset.waiting;
        said.appendChild(wait);
        return;
      }
      const list = document.createElement("ul");
      list.className = "paper-problems";
      const problems = line.refused || line.confirm;
      Object.keys(problems).forEach(function (column) {
        problems[column].forEach(function (message) {
          const item = document.createElement("li");
          item.textContent = message;
          list.appendChild(item);
        });
      });
      said.appendChild(list);
      if (line.state === "confirm") {
        const label = document.createElement("label");
        label.className = "paper-confirm";
        label.append(confirm, " " + form.dataset.asWritten);
        said.appendChild(label);
      } else {
        const hidden = document.createElement("span");
        hidden.hidden = true;
        hidden.appendChild(confirm);
        said.appendChild(hidden);
      }
    });
  }

  let asked = 0;
  function check() {
    const mine = ++asked;
    fetch(form.dataset.check, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (found) { if (found && mine === asked) { show(found); } })
      .catch(function () { /* offline: the Check button still checks */ });
  }
  let timer;
  function schedule() { clearTimeout(timer); timer = setTimeout(check, 250); }

  focusField(rows()[0], "contract");
})();

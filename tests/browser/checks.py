"""What the browser tests check on a page as it is drawn, each check run in the page.

The pages are read across the table and used with one finger, on phones, tablets and a
projector, by players who rarely touch a computer otherwise (docs/presentation.md). The
checks here say, each in its own words, what on a page stands in such a person's way:
``problems_on`` (names, headings, signs, finger-sized targets, nothing sideways),
``layout_problems`` (columns under their heads, names whole, nothing covered or overlapping)
and ``axe_findings`` (axe-core, from ``axe-playwright-python``).
"""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import ConsoleMessage, Page

MIN_TARGET = 44

#: The checks, run in the page. Returns one line per problem found.
CHECKS = r"""
({minTarget}) => {
  const problems = [];
  const shown = (el) => el.checkVisibility({visibilityProperty: true});
  const describe = (el) => {
    const name = el.getAttribute("name") ? `[name=${el.getAttribute("name")}]` : "";
    const cls = typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.textContent || el.value || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${name}${cls}> "${text}"`;
  };
  const ariaName = (el) => {
    const ids = (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
    const byIds = ids.map((id) => document.getElementById(id)?.textContent || "").join(" ");
    return (byIds.trim() || (el.getAttribute("aria-label") || "")).trim();
  };

  // Every field has a label (or an ARIA name).
  for (const el of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (!shown(el)) continue;
    const label = Array.from(el.labels || []).map((l) => l.textContent.trim()).join(" ");
    if (!label && !ariaName(el)) problems.push(`field without a label: ${describe(el)}`);
  }

  // Every button says what it does.
  for (const el of document.querySelectorAll(
      "button, [role=button], input[type=submit], input[type=button]")) {
    if (!shown(el)) continue;
    const name = ariaName(el) || el.textContent.trim() || (el.value || "").trim()
      || (el.title || "").trim();
    if (!name) problems.push(`button without a name: ${describe(el)}`);
  }

  // One h1, and no level skipped on the way down.
  const levels = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"))
    .filter(shown).map((h) => Number(h.tagName[1]));
  const h1s = levels.filter((level) => level === 1).length;
  if (h1s !== 1) problems.push(`${h1s} h1 headings instead of one`);
  if (levels.length && levels[0] !== 1) problems.push(`the first heading is h${levels[0]}`);
  levels.forEach((level, i) => {
    if (i > 0 && level > levels[i - 1] + 1) {
      problems.push(`heading h${level} follows h${levels[i - 1]}`);
    }
  });

  // Amounts carry their sign; colour (plus/minus, won/lost) is only a second signal.
  for (const el of document.querySelectorAll(".amount")) {
    const text = el.textContent.trim();
    // Money carries its currency before or after (CHF +0.30, +0,30 EUR).
    const signed = /^([A-Z]{3}\s)?([+\u2212]\d[\d'.,]*|0([.,]00)?)(\s[A-Z]{3})?$/;
    if (!signed.test(text)) problems.push(`amount without a sign: "${text}"`);
  }
  for (const el of document.querySelectorAll(".plus, .minus, .won, .lost")) {
    if (!shown(el) || el.classList.contains("amount")) continue;
    if (!/[+\u2212]/.test(el.textContent)) {
      problems.push(`won/lost shown by colour only: ${describe(el)}`);
    }
  }
  for (const el of document.querySelectorAll(".choice input:checked + span")) {
    if (!shown(el)) continue;
    const mark = getComputedStyle(el, "::before").content;
    if (!mark.includes("\u2713")) problems.push(`chosen without a tick: ${describe(el)}`);
  }

  // Targets for a finger: buttons, the choice buttons, fields, selects, links.
  const targets = document.querySelectorAll(
    "button, .button, .choice span, select, textarea, main a, summary, "
    + "input:not([type=hidden]):not([type=radio]):not([type=checkbox])");
  for (const el of targets) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width < minTarget - 0.5 || box.height < minTarget - 0.5) {
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      problems.push(`target ${size} px: ${describe(el)}`);
    }
  }

  // Nothing scrolls sideways.
  const wide = document.documentElement.scrollWidth;
  if (wide > window.innerWidth) {
    const culprits = Array.from(document.querySelectorAll("main *"))
      .filter((el) => shown(el) && el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 3).map(describe);
    problems.push(`scrolls sideways: ${wide} px wide in ${window.innerWidth} px; ${culprits}`);
  }
  return problems;
}
"""


def problems_on(page: Page) -> list[str]:
    """What the checks find on the page as it is now."""
    return list(page.evaluate(CHECKS, {"minTarget": MIN_TARGET}))


#: axe-core, loaded once; it is put into each page it checks.
AXE = Axe()
#: The impacts that fail a page.
AXE_FAILS = ("serious", "critical")
#: Findings right for their page: (page, rule id) and why.
AXE_ALLOWED: dict[tuple[str, str], str] = {
    ("projector", "meta-refresh"): "the hall's screen turns its pages by itself: nobody "
    "reads it up close or types on it, and it has no controls to pause",
}


def axe_findings(page: Page, name: str) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (axe runs in the
    page: a page opened without JavaScript would never answer)."""
    found = AXE.run(page).response["violations"]
    return [
        f"axe {v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in found
        if v["impact"] in AXE_FAILS and (name, v["id"]) not in AXE_ALLOWED
    ]


#: In the page, put into the checks below: whether an element is there for screen readers
#: only (the visually-hidden pattern: clipped to nothing, or a box of a pixel that hides
#: what overflows it). Its text wraps letter by letter and its controls are drawn nowhere,
#: by design.
READER_ONLY = r"""
const readerOnly = (el) => {
  for (let at = el; at && at !== document.documentElement; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (style.position === "absolute" && style.clip !== "auto") return true;
    const box = at.getBoundingClientRect();
    if (style.overflow === "hidden" && (box.width <= 1 || box.height <= 1)) return true;
  }
  return false;
};
"""


def in_page(script: str) -> str:
    """``script`` with the helpers the checks share put in at its ``/* helpers */``."""
    return script.replace("/* helpers */", READER_ONLY)


#: In the page: body cells that do not stand under their column's head (each table whose
#: head row has no spans): a cell whose left and right edges are off its head's by more
#: than a pixel, or a row that is not laid out as a table row at all.
MISALIGNED = r"""
() => {
  /* helpers */
  const found = [];
  for (const table of document.querySelectorAll("table")) {
    const head = table.tHead && table.tHead.rows[0];
    const spans = head && Array.from(head.cells).some((c) => c.colSpan > 1);
    // A table drawn as cards (a phone's season table) keeps its head for screen readers.
    if (!head || spans || !table.checkVisibility() || readerOnly(head)) continue;
    const columns = Array.from(head.cells, (c) => c.getBoundingClientRect());
    for (const body of table.tBodies) {
      for (const row of body.rows) {
        const display = getComputedStyle(row).display;
        if (display !== "table-row") {
          found.push(`a row of table.${table.className} is drawn as ${display}`);
          continue;
        }
        Array.from(row.cells).forEach((cell, i) => {
          const r = cell.getBoundingClientRect(), c = columns[i];
          if (c && (Math.abs(r.left - c.left) > 1 || Math.abs(r.right - c.right) > 1)) {
            const at = (b) => `${Math.round(b.left)}-${Math.round(b.right)}`;
            found.push(`table.${table.className} row ${row.rowIndex} cell ${i + 1}: `
              + `${at(r)} under ${at(c)}`);
          }
        });
      }
    }
  }
  return found;
}
"""


def misaligned(page: Page) -> list[str]:
    """The body cells of the page's tables that do not line up under their heads."""
    return list(page.evaluate(in_page(MISALIGNED)))


#: In the page: words broken inside over two lines, in the elements ``selector`` finds
#: (a name "Kalberma|tten" in a narrow tile). A word whose letters lie on two lines has
#: client rectangles at two heights. A line may end at a space or after a hyphen
#: ("Anna-|Katharina"): each part of a double name counts as a word of its own.
BROKEN_WORDS = r"""
(selector) => {
  /* helpers */
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility()) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // A list's options are drawn by the browser's own picker, not the page.
      if (node.parentElement.closest("select, datalist, script, style, noscript")) continue;
      for (const match of node.data.matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
        if (tops.size > 1 && !readerOnly(node.parentElement)) {
          const at = node.parentElement;
          const cls = typeof at.className === "string" && at.className.trim()
            ? "." + at.className.trim().split(/\s+/).join(".") : "";
          broken.push(`${match[0]} (in <${at.tagName.toLowerCase()}${cls}>)`);
        }
      }
    }
  }
  return broken;
}
"""


def broken_words(page: Page, selector: str) -> list[str]:
    """The words broken over two lines inside the elements ``selector`` finds."""
    return list(page.evaluate(in_page(BROKEN_WORDS), selector))


#: In the page: every control that, scrolled to the middle of the screen, is not what a
#: finger at its centre touches (the Save bar, a banner or another box lies over it). A
#: control a label stands for is found through its label (the choice buttons hide their
#: radio input under the label). The page is scrolled back to its top afterwards.
COVERED = r"""
() => {
  /* helpers */
  const found = [];
  const controls = document.querySelectorAll(
    "a[href], button, select, textarea, summary, label.choice, [tabindex='0'], "
    + "input:not([type=hidden])");
  const describe = (el) => `<${el.tagName.toLowerCase()}> "`
    + (el.textContent || el.value || el.name || "").trim().replace(/\s+/g, " ").slice(0, 40)
    + `"`;
  for (const el of controls) {
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    if (readerOnly(el)) continue;
    el.scrollIntoView({block: "center", inline: "center"});
    const box = el.getClientRects()[0];
    if (!box || box.width < 1 || box.height < 1) continue;
    const left = Math.max(box.left, 0), right = Math.min(box.right, window.innerWidth);
    const top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
    if (right <= left || bottom <= top) continue;  // kept off the screen (a skip link)
    const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    const label = hit && hit.closest("label");
    const own = hit && (hit === el || el.contains(hit) || (label && label.control === el));
    if (!own) {
      const by = hit ? describe(hit) + (hit.className ? `.${hit.className}` : "") : "nothing";
      found.push(`${describe(el)} is covered by ${by}`);
    }
  }
  window.scrollTo(0, 0);
  return found;
}
"""

#: In the page: two controls whose boxes overlap, where neither holds the other, and a
#: control whose text sticks out of its box (over its neighbour's). Controls
#: in a bar that stays in place while the page scrolls (the Save bar) are left to
#: ``COVERED``: any control may pass under them.
OVERLAPPING = r"""
() => {
  /* helpers */
  const found = [];
  const pinned = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const position = getComputedStyle(at).position;
      if (position === "fixed" || position === "sticky") return true;
    }
    return false;
  };
  const controls = Array.from(document.querySelectorAll(
      "a[href], button, select, textarea, summary, label.choice, "
      + "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"))
    .filter((el) => el.checkVisibility({visibilityProperty: true, opacityProperty: true})
      && !pinned(el) && !readerOnly(el))
    .map((el) => ({el, boxes: Array.from(el.getClientRects())
      .filter((b) => b.width >= 1 && b.height >= 1)}));
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const describe = (el) => `<${el.tagName.toLowerCase()}> "`
    + (el.textContent || el.value || el.name || "").trim().replace(/\s+/g, " ").slice(0, 30)
    + `"`;
  for (const {el} of controls) {
    // Text that sticks out of its own control's box is drawn over its neighbour's.
    const style = getComputedStyle(el);
    if (style.display !== "inline" && style.overflowX === "visible"
        && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      found.push(`${describe(el)} sticks out of its box: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  controls.forEach((one, i) => {
    for (const other of controls.slice(i + 1)) {
      if (one.el.contains(other.el) || other.el.contains(one.el)) continue;
      if (one.boxes.some((a) => other.boxes.some((b) => meet(a, b)))) {
        found.push(`${describe(one.el)} overlaps ${describe(other.el)}`);
      }
    }
  });
  return found;
}
"""


def covered(page: Page) -> list[str]:
    """The controls something else lies over, each scrolled to the middle of the screen."""
    return list(page.evaluate(in_page(COVERED)))


def overlapping(page: Page) -> list[str]:
    """The pairs of controls drawn over each other."""
    return list(page.evaluate(in_page(OVERLAPPING)))


def layout_problems(page: Page) -> list[str]:
    """What the layout gate finds on the page as it is now, besides ``problems_on``: a
    column out of line, a word broken anywhere on the page (a name of 40 characters must
    wrap between its words), a covered control, two controls over each other."""
    broken = [f"word broken over two lines: {word}" for word in broken_words(page, "body")]
    return misaligned(page) + broken + covered(page) + overlapping(page)


def listen(page: Page) -> list[str]:
    """What the browser refuses on ``page`` under the content security policy, from now on
    (the list grows as it reports)."""
    refused: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(f"{page.url}: {message.text}")

    page.on("console", heard)
    return refused

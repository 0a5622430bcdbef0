"""Fuzzing every page form (issue #8 "Bad input": zero 500s, and every refused request leaves
the database unchanged).

Every POST route outside ``/api`` is read from the app's ``url_map``. Its form is the one
the pages really render (read from the world's pages, see ``world.scrape_forms``): each
request sends that form's fields with their shown values, another of their choices, a
number, junk (huge, unicode, NUL) or nothing, plus unknown fields, to the form's own
address or to another object's (a missing one too), as any of the callers. CSRF is off for
these requests (as in the ``app`` fixture); one more test per route sends the form with
CSRF on and no token, which must be refused with 400.

An answer must not be a server error. Unless it redirects (the page's way of saying it
saved), every table's rows must be as before, ``login_attempt`` aside: it counts wrong
passwords, PINs and table codes on purpose.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from tests.conftest import sqlite_only
from tests.fuzz.strategies import (
    fill,
    headers,
    json_values,
    mutated,
    names,
    path_values,
    raw_bodies,
    texts,
    weighted,
)
from tests.fuzz.world import (
    PASSWORD,
    PIN,
    FormField,
    PageForm,
    World,
    url_rules,
    without_counted,
)

#: The fuzzers' world is a SQLite file of its own, put back after every change (world.py).
pytestmark = sqlite_only

PAGE_RULES = url_rules(api=False, method="POST")
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "15"))
#: Checking a password takes a moment: the login gets fewer requests.
SLOW = {"tournaments.login"}
FUZZ_SETTINGS = settings(
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
#: Names typed into seats and payments: real ones, a stranger, and spellings of real ones.
PLAYER_NAMES = ["Anna", "Bert", "Clara", "Dora", "Emil", "Zora", "anna", " Bert "]
#: Actions no page shows as a form of their own: the forms whose fields they receive.
FORM_OF = {"hands.preview": "hands.create", "paper.check": "paper.save"}


def forms_for(world: World, endpoint: str) -> list[PageForm]:
    """The rendered forms that post to ``endpoint`` (or carry its fields).

    A new hand is also entered with the fields of a stored hand's edit form, filled with
    what the table played, so that valid hands reach the app too.
    """
    wanted = FORM_OF.get(endpoint, endpoint)
    found = [form for form in world.forms if form.endpoint == wanted]
    if wanted == "hands.create":
        found += [
            replace(form, endpoint=wanted, action=form.action.rsplit("/", 2)[0])
            for form in world.forms
            if form.endpoint == "hands.update"
        ]
    filled = prefilled(world).get(wanted)
    if filled:
        found += [
            replace(
                form, fields=[replace(c, value=filled.get(c.name, c.value)) for c in form.fields]
            )
            for form in found
        ]
    return found


def prefilled(world: World) -> dict[str, dict[str, str]]:
    """What a person would type into these forms before sending them."""
    return {
        "evenings.create": {f"seat_{i}": name for i, name in enumerate(PLAYER_NAMES[:4])},
        "tables.open": {"code": world.tournaments[0].codes[0]},
        "tournaments.swap": {"a": "1", "b": "2"},
        "tournaments.login": {"password": PASSWORD},
        "tournaments.create": {"title": "Herbstturnier", "password": PASSWORD},
        "tournaments.register": {"name": "Zora"},
        "access_pages.unlock": {"pin": PIN},
    }


def named_choices(world: World) -> dict[str, list[str]]:
    """Values that make sense for fields of these names (a name, a real code or password),
    so that some generated posts succeed."""
    codes = [c for t in world.tournaments for c in t.codes]
    return {
        "code": [*codes, *(c.lower() for c in codes), "ABC-DEF"],
        "password": [PASSWORD, "wrong-password"],
        "pin": [PIN, "0000"],
        "next": ["/tournaments", "//elsewhere.example/", "https://elsewhere.example/"],
        "reason": ["verzählt", "undo", " "],
        "correction": ["Zahlendreher", ""],
        "name": ["Zora", "Ida", "ida"],
        "club": ["Bern"],
        "number": ["", "40", "1"],
        "a": ["1", "2", "3", "4", "5", "6", "99"],
        "b": ["1", "2", "3", "4", "5", "6", "99"],
        "title": ["Herbstturnier", ""],
        "payer": PLAYER_NAMES,
        "payee": PLAYER_NAMES,
        "amount": ["1", "10", "60", "-5"],
    }


def _choice(world: World, control: FormField) -> st.SearchStrategy[list[str]]:
    """Another value the control offers: a radio or select option, checkboxes, a button, a
    sensible value for its name, or a number."""
    if control.kind == "checkbox":
        return st.lists(st.sampled_from(control.options), unique=True)
    if control.options:
        return st.sampled_from(control.options).map(lambda v: [v])
    if control.kind == "date":
        return st.sampled_from(["2026-11-21", "2026-02-30", "21.11.2026", "0000-01-01"]).map(
            lambda v: [v]
        )
    known = named_choices(world).get(control.name)
    if control.name.startswith("seat_"):
        known = PLAYER_NAMES
    if known:
        return st.sampled_from(known).map(lambda v: [v])
    return st.integers(-5, 130).map(lambda n: [str(n)])


def _shown(control: FormField) -> list[str]:
    """What a browser sends for the control as the page shows it (its first button
    pressed)."""
    if control.kind in ("radio", "checkbox", "select"):
        if control.kind == "select" and not control.chosen and control.options:
            return control.options[:1]
        return list(control.chosen)
    if control.kind == "submit":
        return control.options[:1]
    return [control.value]


@st.composite
def file_upload(draw: st.DrawFn, world: World) -> tuple[io.BytesIO, str]:
    """An uploaded archive: a real one, a damaged one, JSON of any shape, or no JSON."""
    archives = st.sampled_from(world.archives)
    content = draw(
        weighted(
            (30, archives.map(lambda a: json.dumps(a).encode())),
            (40, archives.flatmap(mutated).map(lambda a: json.dumps(a).encode())),
            (15, json_values().map(lambda v: json.dumps(v).encode())),
            (15, raw_bodies),
        )
    )
    name = draw(st.sampled_from(["evening.json", "", "x" * 300, "../../evening.json", "a\x00"]))
    return io.BytesIO(content), name


@st.composite
def form_data(draw: st.DrawFn, world: World, form: PageForm) -> MultiDict[str, Any]:
    """The form's fields, each as shown, another choice, junk, or left out; and strangers.

    How wild a post is varies from example to example, so that careful posts (which the
    app saves) and wild ones (which it refuses) both occur.
    """
    choice = draw(st.sampled_from([0, 0, 15, 60]), label="choice rate")
    junk = draw(st.sampled_from([0, 0, 10, 40]), label="junk rate")
    omit = draw(st.sampled_from([0, 0, 5, 15]), label="omit rate")
    pairs: list[tuple[str, Any]] = []
    for control in form.fields:
        if control.kind == "file":
            if draw(st.integers(0, 9)):
                pairs.append((control.name, draw(file_upload(world))))
            continue
        how = draw(
            weighted(
                (100, st.just("shown")),
                (choice, st.just("choice")),
                (junk, st.just("junk")),
                (omit, st.just("omit")),
            )
        )
        if how == "shown":
            values = _shown(control)
        elif how == "choice":
            values = draw(_choice(world, control))
        elif how == "junk":
            values = draw(st.lists(texts, min_size=1, max_size=3))
        else:
            values = []
        pairs += [(control.name, value) for value in values]
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        pairs.append((draw(st.one_of(names, st.text(max_size=10))), draw(texts)))
    return MultiDict(pairs)


def _safe(value: Any) -> Any:
    """Form values travel as UTF-8: a lone surrogate goes as the bytes Python writes for it
    (not UTF-8, which the app must refuse or replace)."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return value


def post_form(world: World, data: st.DataObject, rule: str, endpoint: str) -> None:
    """Draw one form post to ``rule``, send it, check the answer and the database."""
    forms = forms_for(world, endpoint)
    form = data.draw(st.sampled_from(forms), label="form")
    if endpoint == form.endpoint and data.draw(st.integers(0, 9)) < 7:
        path = form.action
    else:
        path = fill(rule, data.draw(path_values(world, rule), label="path values"))
    fields = data.draw(form_data(world, form), label="fields")
    caller, sent = data.draw(headers(world), label="caller and headers")
    sent.pop("Idempotency-Key", None)
    pin = data.draw(st.integers(0, 9), label="pin") == 0
    note(f"POST {path} as {caller}{' with a PIN' if pin else ''}, headers {sent!r}")
    note(f"fields {list(fields.items(multi=True))!r}"[:2000])
    encoded = MultiDict([(k, _safe(v)) for k, v in fields.items(multi=True)])

    before = world.snapshot()
    with world.pin(pin):
        response = world.client().post(path, data=encoded, headers=sent)
    after = world.snapshot()
    try:
        note(f"answer {response.status_code} {response.location or ''}")
        assert response.status_code < 500, response.get_data()[:500]
        if not 300 <= response.status_code < 400:
            assert without_counted(after) == without_counted(before), "a refusal changed data"
    finally:
        world.reset_if_changed(after)


@pytest.mark.parametrize(
    ("rule", "endpoint", "method"), PAGE_RULES, ids=[r for r, _, _ in PAGE_RULES]
)
def test_page_form_survives_bad_input(world: World, rule: str, endpoint: str, method: str) -> None:
    @settings(FUZZ_SETTINGS, max_examples=max(3, EXAMPLES // 3) if endpoint in SLOW else EXAMPLES)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        post_form(world, data, rule, endpoint)

    fuzz()


@pytest.mark.parametrize(
    ("rule", "endpoint", "method"), PAGE_RULES, ids=[r for r, _, _ in PAGE_RULES]
)
def test_page_form_without_csrf_token_is_refused(
    world: World, rule: str, endpoint: str, method: str
) -> None:
    """The form as the page shows it, from the organiser's browser session, but without
    the page's token."""
    form = forms_for(world, endpoint)[0]
    fields = MultiDict([(c.name, v) for c in form.fields if c.kind != "file" for v in _shown(c)])
    before = world.snapshot()
    with world.configured(WTF_CSRF_ENABLED=True):
        response = world.client().post(
            form.action, data=fields, headers=world.callers["organiser-cookie"]
        )
    after = world.snapshot()
    world.reset_if_changed(after)
    assert response.status_code == 400, response.get_data()[:300]
    assert after == before


def test_every_page_form_is_fuzzed(world: World) -> None:
    """Every POST route of the pages has a rendered form to draw its fields from, and the
    parametrisation covers every such route the app has now."""
    live = sorted(
        (rule.rule, rule.endpoint, "POST")
        for rule in world.app.url_map.iter_rules()
        if "POST" in (rule.methods or set())
        and not rule.rule.startswith("/api/")
        and rule.endpoint != "static"
    )
    assert live == PAGE_RULES
    without_form = [endpoint for _, endpoint, _ in PAGE_RULES if not forms_for(world, endpoint)]
    assert not without_form, f"no page of the world shows a form for {without_form}"

"""The club's pages (docs/club.md, "Pages"): table groups, their members and evenings,
the season table with its downloads, a member's season and two members side by side.

Groups hold every regular's name and history: the players page's rule decides who
reaches them (``for_the_installation``). Writes go through ``write``; a refusal is shown
at the field it names.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from scorekeeper import operations
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import InvalidInputError, InvalidSettingsError, msg
from scorekeeper.core.statistics import compare, player_statistics, season_table
from scorekeeper.core.validation import name_key
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, GroupEvening, Member, TableGroup
from scorekeeper.db.tournament_models import TournamentTable
from scorekeeper.operations import carried_pots, club_statistics, table_groups
from scorekeeper.operations.club_statistics import Filters, Season, person_key, year_of
from scorekeeper.web.club import forms as club_forms
from scorekeeper.web.club import presenting
from scorekeeper.web.club.figure_labels import by_game, game_title, group_label
from scorekeeper.web.club.queries import DEFAULT_SORT, read_filters, read_order
from scorekeeper.web.club.shapes import ordered
from scorekeeper.web.evenings.exports import download
from scorekeeper.web.evenings.pages import local_today
from scorekeeper.web.forms import chosen_id, place_errors
from scorekeeper.web.jinja_filters import day
from scorekeeper.web.json_shapes import text
from scorekeeper.web.managed import for_the_installation
from scorekeeper.web.pdf import render_pdf
from scorekeeper.web.writing import Answered, Written, write

bp = for_the_installation(Blueprint("groups", __name__, url_prefix="/groups"))

#: Evenings of no group offered to put into a group: the most recent ones.
OFFERED_EVENINGS = 100


def load(group_id: int) -> TableGroup:
    """The group, or 404."""
    try:
        return table_groups.get_group(group_id)
    except table_groups.GroupNotFoundError:
        abort(404)


def load_member(group: TableGroup, member_id: int) -> Member:
    """The group's member, or 404."""
    try:
        return table_groups.get_member(group, member_id)
    except table_groups.GroupNotFoundError:
        abort(404)


def alphabetical(name: str) -> tuple[str, str]:
    """Where a name stands in a list by name: "Äbi" with the A, "émile" with the E, case
    ignored; names that differ only there keep one order."""
    folded = name_key(name)
    bare = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
    return bare, folded


def evening_label(evening: Evening) -> str:
    """An evening as a list names it: its date, title or game, and number."""
    day = club_statistics.evening_day(evening).strftime("%d.%m.%Y")
    name = evening.title or text(get_variant(evening.game, evening.variant).title)
    return f"{day} · {name} (#{evening.id})"


# --- The groups -------------------------------------------------------------------------


@bp.get("")
def index() -> str:
    """Every group with its evenings and members, and the form to start one."""
    return render_groups(club_forms.name_form("new"))


def render_groups(form: club_forms.NameForm) -> str:
    """The list of groups with ``form`` (refused or blank)."""
    counts: dict[int, int] = dict(
        db.session.execute(
            select(GroupEvening.group_id, db.func.count()).group_by(GroupEvening.group_id)
        ).all()
    )
    groups = [(g, counts.get(g.id, 0), len(g.members)) for g in table_groups.all_groups()]
    return render_template("groups/index.html", groups=groups, form=form)


@bp.post("")
def create() -> Response | tuple[str, int]:
    """Start a group; then its page."""
    form = club_forms.name_form("new", request.form)

    def make() -> Written[Response | tuple[str, int]]:
        try:
            group = table_groups.create_group({"name": form.name.data or ""})
        except InvalidSettingsError as error:
            place_errors(form, error.errors, text)
            raise Answered(lambda: (render_groups(form), 422)) from None
        flash(gettext("The group %(name)s has started.", name=group.name))
        return Written(redirect(url_for("groups.show", group_id=group.id), 303))

    return write(make)


# --- One group: its name, members and evenings ---------------------------------------------


def free_evenings() -> list[Evening]:
    """Recent evenings of no group, tournament tables left out (they join none)."""
    grouped = select(GroupEvening.evening_id)
    tables = select(TournamentTable.evening_id)
    return list(
        db.session.scalars(
            select(Evening)
            .where(Evening.id.not_in(grouped), Evening.id.not_in(tables))
            .order_by(Evening.id.desc())
            .limit(OFFERED_EVENINGS)
        )
    )


def render_group(
    group: TableGroup,
    refused: dict[str, Any] | None = None,
    evening_problem: tuple[int, list[str]] | None = None,
    confirm: tuple[int, int, str] | None = None,
) -> str:
    """The group's page; ``refused``: forms that came back with their errors, by name;
    ``evening_problem``: why a button of one of its evenings did nothing; ``confirm``:
    a merge (kept member, other member and its name) to ask about once more."""
    forms = refused or {}
    members = sorted(group.members, key=lambda m: (alphabetical(m.name), m.id))
    rename = forms.get("rename") or club_forms.name_form("group", name=group.name)
    member_forms = []
    for m in members:
        others = [(str(o.id), o.name) for o in members if o.id != m.id]
        member_forms.append(
            (
                m,
                forms.get(f"member-{m.id}") or club_forms.name_form(f"m{m.id}", name=m.name),
                forms.get(f"merge-{m.id}") or club_forms.merge_form(f"g{m.id}", others),
                sorted(n.player.name for n in m.names),
            )
        )
    offered = [(str(e.id), evening_label(e)) for e in free_evenings()]
    evenings = table_groups.evenings_of(group)
    by_id = {e.id: e for e in evenings}
    # Links never leave a group (moving a linked evening is refused), so both ends are here.
    came = {
        later: by_id[earlier]
        for later, earlier in carried_pots.links_among(list(by_id)).items()
        if earlier in by_id
    }
    went = {earlier.id: by_id[later] for later, earlier in came.items()}
    # Where a refused form sits, for the alert at the top of a long page to lead there.
    refused_at = f"evening-{evening_problem[0]}" if evening_problem else None
    for name in forms:
        kind, _, number = name.partition("-")
        refused_at = f"member-{number}" if number else "evenings" if kind == "evening" else None
    return render_template(
        "groups/show.html",
        group=group,
        rename=rename,
        members=member_forms,
        evenings=evenings,
        came=came,
        went=went,
        evening_problem=evening_problem,
        refused_at=refused_at,
        confirm=confirm,
        evening_label=evening_label,
        put_in=forms.get("evening") or club_forms.evening_form(offered),
        offered=offered,
        open_pots=carried_pots.open_pots(group.id),
    )


@bp.get("/<int:group_id>")
def show(group_id: int) -> str:
    """The group: its name, members (rename, merge) and evenings (put in, take out)."""
    return render_group(load(group_id))


def refused_with(
    group_id: int, name: str, form: Any, error: InvalidSettingsError, field: str = "name"
) -> Answered:
    """The refusal shown at ``field`` of ``form`` on the group's page, with status 422."""
    for messages in error.errors.values():
        form[field].errors = [*form[field].errors, *(text(m) for m in messages)]
    return Answered(lambda: (render_group(load(group_id), {name: form}), 422))


@bp.post("/<int:group_id>/name")
def rename(group_id: int) -> Response | tuple[str, int]:
    """Give the group another name."""
    form = club_forms.name_form("group", request.form)

    def make() -> Written[Response | tuple[str, int]]:
        try:
            table_groups.rename_group(load(group_id), {"name": form.name.data or ""})
        except InvalidSettingsError as error:
            raise refused_with(group_id, "rename", form, error) from None
        flash(gettext("The group is renamed."))
        return Written(redirect(url_for("groups.show", group_id=group_id), 303))

    return write(make)


@bp.post("/<int:group_id>/members/<int:member_id>/name")
def rename_member(group_id: int, member_id: int) -> Response | tuple[str, int]:
    """What the group calls a member from now on."""
    form = club_forms.name_form(f"m{member_id}", request.form)

    def make() -> Written[Response | tuple[str, int]]:
        group = load(group_id)
        table_groups.lock_group(group)
        member = load_member(group, member_id)
        try:
            table_groups.rename_member(member, {"name": form.name.data or ""})
        except InvalidSettingsError as error:
            raise refused_with(group_id, f"member-{member_id}", form, error) from None
        flash(gettext("The member is now called %(name)s.", name=member.name))
        return Written(redirect(url_for("groups.show", group_id=group_id, _anchor="members"), 303))

    return write(make)


@bp.post("/<int:group_id>/members/<int:member_id>/merge")
def merge(group_id: int, member_id: int) -> Response | tuple[str, int]:
    """Another member is the same person: their names become this member's."""
    group = load(group_id)
    others = [(str(o.id), o.name) for o in group.members if o.id != member_id]
    form = club_forms.merge_form(f"g{member_id}", others, request.form)

    def make() -> Written[Response | tuple[str, int]]:
        group = load(group_id)
        table_groups.lock_group(group)
        keep = load_member(group, member_id)
        chosen = form.other.data or ""
        try:
            number = chosen_id(chosen)
            if number is None:
                raise InvalidSettingsError.single("other", msg("Choose one from the list."))
            try:
                other = table_groups.get_member(group, number)
            except table_groups.GroupNotFoundError:
                raise Answered(lambda: member_gone(group_id)) from None
            name = other.name
            table_groups.check_merge(group, keep, other)
            if request.form.get("confirmed") != "1" or request.form.get("other_name") != name:
                # A merge cannot be undone: the page asks once more, naming both. A
                # confirmation that named someone else (a page from before another merge,
                # the number since taken by a new member) asks again about who it is now.
                asked = (keep.id, other.id, name)
                raise Answered(lambda: render_group(load(group_id), confirm=asked))
            table_groups.merge_members(group, keep, other)
        except InvalidSettingsError as error:
            raise refused_with(group_id, f"merge-{member_id}", form, error, "other") from None
        flash(gettext("%(other)s and %(name)s are one person now.", other=name, name=keep.name))
        return Written(redirect(url_for("groups.show", group_id=group_id, _anchor="members"), 303))

    return write(make)


def member_gone(group_id: int) -> Response:
    """The group's members again, when the member chosen to merge is listed no more: the
    same merge tapped twice, or from a page shown before another merge."""
    flash(gettext("That member is not listed any more: merged already, nothing to do."), "warning")
    return redirect(url_for("groups.show", group_id=group_id, _anchor="members"), 303)


@bp.post("/<int:group_id>/evenings")
def put_in(group_id: int) -> Response | tuple[str, int]:
    """Put an evening of no group into this group."""
    offered = [(str(e.id), evening_label(e)) for e in free_evenings()]
    form = club_forms.evening_form(offered, request.form)

    def make() -> Written[Response | tuple[str, int]]:
        group = load(group_id)
        chosen = form.evening.data or ""
        number = chosen_id(chosen)
        evening = operations.evening_row(number) if number is not None else None
        if evening is None or table_groups.group_of(evening.id) is not None:
            form.evening.errors = [gettext("Choose an evening from the list.")]
            raise Answered(lambda: (render_group(load(group_id), {"evening": form}), 422))
        table_groups.put_in_group(evening, group)
        flash(gettext("The evening belongs to this group now."))
        return Written(redirect(url_for("groups.show", group_id=group_id, _anchor="evenings"), 303))

    return write(make)


@bp.post("/<int:group_id>/evenings/<int:evening_id>/out")
def take_out(group_id: int, evening_id: int) -> Response:
    """Take an evening out of the group: it belongs to no group then."""

    def make() -> Written[Response]:
        group = load(group_id)
        evening = operations.evening_row(evening_id)
        if evening is None:
            abort(404)
        found = table_groups.group_of(evening.id)
        if found is not None and found.id == group.id:
            try:
                table_groups.put_in_group(evening, None)
            except InvalidSettingsError as error:
                raise evening_refused(group_id, evening_id, error) from None
            flash(gettext("The evening belongs to no group now."))
        return Written(redirect(url_for("groups.show", group_id=group_id), 303))

    return write(make)


@bp.post("/<int:group_id>/evenings/<int:evening_id>/carried-pot/out")
def without_carried_pot(group_id: int, evening_id: int) -> Response | tuple[str, int]:
    """Let one of the group's evenings open without the pot it took over: the earlier
    evening's pot is open again, to be taken over by another (docs/club.md)."""

    def make() -> Written[Response | tuple[str, int]]:
        group = load(group_id)
        current = operations.current_view(evening_id)
        found = table_groups.group_of(evening_id) if current is not None else None
        if current is None or found is None or found.id != group.id:
            abort(404)
        evening = current.evening
        came_from = evening.carried_from
        before = operations.current_view(came_from) if came_from is not None else None
        if before is not None:
            earlier = before.evening
            if evening.hands:
                played = msg("Hands were played with that pot, so it stays with this evening.")
                refusal = InvalidSettingsError.single("carried_from", played)
                raise evening_refused(group_id, evening_id, refusal)
            if evening.closed_at is not None:
                closed = msg(
                    "This evening is closed: reopen it on its settlement page first, then "
                    "open it without that pot."
                )
                refusal = InvalidSettingsError.single("carried_from", closed)
                raise evening_refused(group_id, evening_id, refusal)
            try:
                carried_pots.remove_link(evening_id, source="page")
            except InvalidInputError as error:
                raise evening_refused(group_id, evening_id, error) from None
            flash(
                gettext(
                    "The evening of %(day)s opens without a carried pot now; the pot of the "
                    "evening of %(earlier)s is open again.",
                    day=day(carried_pots.day_of(evening)),
                    earlier=day(carried_pots.day_of(earlier)),
                )
            )
        # The page's top, where the message stands: on a phone the list is far below.
        return Written(redirect(url_for("groups.show", group_id=group_id), 303))

    return write(make)


def evening_refused(group_id: int, evening_id: int, error: InvalidInputError) -> Answered:
    """The group's page again, with why the button of evening ``evening_id`` did nothing
    said at that evening; status 422."""
    problems = [text(m) for messages in error.errors.values() for m in messages]
    return Answered(
        lambda: (render_group(load(group_id), evening_problem=(evening_id, problems)), 422)
    )


# --- The season ---------------------------------------------------------------------------


def asked_season(group: TableGroup) -> tuple[Season, dict[str, list[str]]]:
    """The season the query asks for, and the filters' refusals by field (then the
    current year is shown)."""
    try:
        filters = read_filters(request.args, local_today())
        problems: dict[str, list[str]] = {}
    except InvalidSettingsError as error:
        filters = year_of(local_today())
        problems = {k: [text(m) for m in v] for k, v in error.errors.items()}
    return club_statistics.season(group, filters), problems


def asked_order() -> tuple[str, bool, dict[str, list[str]]]:
    """The column asked to sort by and whether most comes first, and the refusals by field
    (then the table is sorted by money, most first)."""
    try:
        key, descending = read_order(request.args)
        return key, descending, {}
    except InvalidSettingsError as error:
        return DEFAULT_SORT, True, {k: [text(m) for m in v] for k, v in error.errors.items()}


def query_of(filters: Filters) -> dict[str, str]:
    """The filters as a query, for links and downloads."""
    query = {"from": filters.start.isoformat(), "to": filters.end.isoformat()}
    if filters.game:
        query["game"] = filters.game
    if filters.variant:
        query["variant"] = filters.variant
    return query


@bp.get("/<int:group_id>/season")
def season(group_id: int) -> tuple[str, int]:
    """The season table: a table per game, unit and currency, sortable by its headings."""
    return season_page(load(group_id))


def season_page(group: TableGroup) -> tuple[str, int]:
    """The season table as the query asks for it; 422 with the refusals at their fields
    when a filter or the order is not one the page offers."""
    found, problems = asked_season(group)
    key, descending, order_problems = asked_order()
    problems = {**problems, **order_problems}
    rows = ordered(found, season_table(found.evenings), key, descending)
    query = query_of(found.filters)
    order = {"sort": key, "order": "desc" if descending else "asc"}
    page = render_template(
        "groups/season.html",
        season=found,
        group=found.group,
        tables=presenting.tables(rows),
        headers=presenting.headers(group.id, query, key, descending),
        query=query,
        # The filters' form and the downloads keep the order the table is shown in.
        order=order,
        downloads={**query, **order},
        problems=problems,
        games=presenting.choices_of_games(),
        variants=presenting.choices_of_variants(),
        average_cents=presenting.average_cents,
    )
    return page, 422 if problems else 200


def season_download(group_id: int) -> tuple[Season, tuple[Any, ...]]:
    """The season and its rows for a download; the page with its refusals (422) instead
    when the query is not one the page would offer, so a link typed by hand never
    downloads a table the reader did not ask for."""
    group = load(group_id)
    found, problems = asked_season(group)
    key, descending, order_problems = asked_order()
    if problems or order_problems:
        abort(make_response(*season_page(group)))
    return found, ordered(found, season_table(found.evenings), key, descending)


@bp.get("/<int:group_id>/season.csv")
def season_csv(group_id: int) -> Response:
    """The season table as a spreadsheet."""
    found, rows = season_download(group_id)
    data = presenting.season_csv(found, rows)
    return download(data, "text/csv", season_filename(found, "csv"))


@bp.get("/<int:group_id>/season.pdf")
def season_pdf(group_id: int) -> Response:
    """The season table as a printout, in the reader's language."""
    found, rows = season_download(group_id)
    data = render_pdf(
        "pdf/season.html",
        language=str(get_locale()),
        season=found,
        tables=presenting.tables(rows),
        average_cents=presenting.average_cents,
    )
    return download(data, "application/pdf", season_filename(found, "pdf"), inline=True)


def season_filename(found: Season, ext: str) -> str:
    """The download's name: the range and the group's number."""
    f = found.filters
    return f"{f.start.isoformat()}-{f.end.isoformat()}-season-{found.group.id}.{ext}"


# --- A member, and two side by side -------------------------------------------------------


@bp.get("/<int:group_id>/members/<int:member_id>")
def member(group_id: int, member_id: int) -> tuple[str, int]:
    """A member's season: every evening, the running result, every figure in words."""
    group = load(group_id)
    found, problems = asked_season(group)
    person = load_member(group, member_id)
    stats = player_statistics(found.evenings, person_key(person))
    figures = by_game((k, (v,)) for k, v in stats.figures())
    page = render_template(
        "groups/member.html",
        group=group,
        member=person,
        season=found,
        stats=stats,
        rows=season_table(found.evenings, {person_key(person)}),
        charts=presenting.running_charts(stats.running),
        figures=figures,
        others=[m for m in group.members if m.id != person.id],
        query=query_of(found.filters),
        problems=problems,
        average_cents=presenting.average_cents,
        titles=evening_titles(e.evening_id for e in stats.evenings),
        game_title=game_title,
    )
    return page, 422 if problems else 200


def evening_titles(ids: Any) -> dict[int, str]:
    """Each evening's title (or game), to name it in a list."""
    wanted = list(ids)
    if not wanted:
        return {}
    found = db.session.scalars(select(Evening).where(Evening.id.in_(wanted)))
    return {e.id: e.title or text(get_variant(e.game, e.variant).title) for e in found}


def chosen_member(group: TableGroup, key: str) -> Member | None:
    """The member the query names under ``key``, or None."""
    number = chosen_id(request.args.get(key, ""))
    if number is None:
        return None
    try:
        return table_groups.get_member(group, number)
    except table_groups.GroupNotFoundError:
        return None


@bp.get("/<int:group_id>/compare")
def compare_members(group_id: int) -> tuple[str, int]:
    """Two members side by side, ``?a=3&b=7``; without both, the form to choose them."""
    group = load(group_id)
    found, problems = asked_season(group)
    a, b = chosen_member(group, "a"), chosen_member(group, "b")
    groups: list[tuple[str, Any, Any, str, str]] = []
    figures: list[Any] = []
    if a is not None and b is not None:
        both = compare(
            player_statistics(found.evenings, person_key(a)),
            player_statistics(found.evenings, person_key(b)),
        )
        pairs = [(f.key, (f.a, f.b)) for f in both.figures]
        groups = [
            (words, va, vb, k.split(".")[3], k.split(".")[2].strip("-"))
            for k, (va, vb) in pairs
            if (words := group_label(k)) is not None
            and not (k.endswith(".money") and k.split(".")[2] == "-")  # no money kept
        ]
        figures = by_game(pairs)
    page = render_template(
        "groups/compare.html",
        group=group,
        season=found,
        a=a,
        b=b,
        group_figures=groups,
        figures=figures,
        query=query_of(found.filters),
        problems=problems,
    )
    return page, 422 if problems else 200

"""The screens, rendered on the server (Jinja2, autoescaped) and refreshed with htmx.

Pages that carry no fight — the fight list with "new fight" and "import", and the shells of the GM
screen (``/fights/{id}``) and the player screen (``/join/{id}``) — need no token. A shell holds its
token in the address's fragment (``#t=...``), which a browser never sends to a server: the page's
script (``static/kassen.js``) puts it in the ``Authorization`` header of every request it makes. The
fight itself comes in partials (``/ui/...``) rendered for that token's viewer — the GM sees everything,
a side its view — and every change goes through the JSON API. A partial is re-fetched when the fight's
event stream announces a new state, so every open screen follows the table within a second.
"""

from __future__ import annotations

__all__ = ["router", "templates"]

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

import jinja2
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from kassen import __version__, i18n
from kassen.core.menu import MAX_PATH
from kassen.core.report import outcome_text, render_event
from kassen.i18n import N_, S_
from kassen.web.api import CallerDep, FightId, TablesDep, base_url
from kassen.web.callers import Caller
from kassen.web.cards import cards
from kassen.web.language import words_for_script
from kassen.web.problems import Problem
from kassen.web.replay import Live
from kassen.web.rules import ruleset_word
from kassen.web.tables import Tables

router = APIRouter(include_in_schema=False)

_RULE = re.compile(r"^(?P<text>.*?)\s+\[(?P<rule>[A-Za-z0-9][A-Za-z0-9._\-]*(?:, ?[A-Za-z0-9._\-]+)*)\]$")


@cache
def templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("kassen.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    # every word of a page looked up when it is rendered, in the viewer's language (a context
    # variable set per request: kassen.web.language); trimmed as the extraction reads them
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
    )
    env.globals["version"] = __version__
    env.globals["lang"] = i18n.current_language
    env.globals["tt"] = i18n.translate_text
    env.globals["script_words"] = words_for_script
    env.globals["languages"] = LANGUAGE_NAMES
    env.globals["ruleset_word"] = ruleset_word
    env.globals["policy_word"] = policy_word
    env.globals["policy_choice"] = policy_choice
    env.globals["who_word"] = who_word
    env.filters["tojson_attr"] = _tojson_attr
    return env


#: The page's language switch: each language named in its own words.
LANGUAGE_NAMES: tuple[tuple[str, str], ...] = (("en", "English"), ("ja", "日本語"))


def _tojson_attr(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def render(name: str, *, http_status: int = 200, **context: Any) -> HTMLResponse:
    return HTMLResponse(templates().get_template(name).render(**context), status_code=http_status)


def split_line(line: str) -> dict[str, Any]:
    """A narrated line as text, rule and indent (``  Energy 12 → 7  [SG.CNT.5]``)."""
    stripped = line.lstrip(" ")
    indent = (len(line) - len(stripped)) // 2
    match = _RULE.match(stripped)
    if match is None:
        return {"text": stripped, "rule": "", "indent": indent}
    return {"text": match["text"], "rule": match["rule"], "indent": indent}


# -- pages without a fight -------------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse)
def index(tables: TablesDep) -> HTMLResponse:
    fights, total = tables.listing(limit=200, offset=0)
    groups: dict[str, list[Any]] = {}
    sides: dict[str, str] = {}
    for b in tables.catalog.items():
        groups.setdefault(b.ruleset, []).append(b)
        sides[b.ident] = ",".join(tables.catalog.sides(b.ident))
    return render(
        "index.html", fights=fights, total=total, groups=groups, sides=sides, policy_choices=POLICY_CHOICES
    )


#: The policies the screens offer for a side (spec, words); a spec of the GM's own is shown as it is.
POLICY_CHOICES: tuple[tuple[str, str], ...] = (
    ("", N_("its players")),
    ("search:time=1.0", N_("search (strong: about 1 s a decision)")),
    ("search:iterations=200", N_("search (quick)")),
    ("heuristic", N_("heuristic")),
    ("scenario", N_("the scenario's own policies")),
    ("random", N_("random")),
    ("first-legal", N_("first legal action")),
)


def who_word(who: str) -> str:
    """Who acts or acted, as a page says it: a unit's or side's name as its scenario writes it (a name is
    never translated, even one that is also a word of the data: a unit named Oni stays Oni), the GM and
    nobody in the viewer's words."""
    return i18n.translate_text(who) if who in (S_("the GM"), S_("nobody")) else who


def policy_choice(spec: str, words: str) -> str:
    """An option of the "who plays each side" menu: a known choice's words in the viewer's language, a
    spec of the GM's own as it is."""
    return i18n.gettext(words) if spec in dict(POLICY_CHOICES) else words


def policy_word(spec: str) -> str:
    """A side's policy as a page says it: the spec itself in English (as the GM typed it), the choice's
    words in another language where it is one of :data:`POLICY_CHOICES` (else the spec, a name)."""
    words = dict(POLICY_CHOICES).get(spec)
    if words is None or i18n.current_language() == i18n.SOURCE:
        return spec
    return i18n.gettext(words)


def result_words(result: Any, names: Mapping[str, str]) -> str:
    """How the fight ended, in the viewer's words (:func:`kassen.core.report.outcome_text`'s English:
    ``winner: The raiders (no unit left able to act)``); the reason, kept in English in the data, is
    translated as it is shown."""
    if i18n.current_language() == i18n.SOURCE:
        return outcome_text(result, names)
    reason = i18n.translate_text(str(result.reason))
    if result.winner is None:
        return i18n.gettext("no winner ({reason})").format(reason=reason)
    winner = names.get(result.winner, result.winner)
    return i18n.gettext("winner: {name} ({reason})").format(name=winner, reason=reason)


@router.get("/fights/{fight_id}", response_class=HTMLResponse)
def gm_screen(fight_id: FightId) -> HTMLResponse:
    return render("table.html", fight_id=fight_id, role="gm")


@router.get("/join/{fight_id}", response_class=HTMLResponse)
def player_screen(fight_id: FightId) -> HTMLResponse:
    return render("table.html", fight_id=fight_id, role="player")


# -- partials (a token in the header) ----------------------------------------------------------------------
@router.get("/ui/fights/{fight_id}/screen", response_class=HTMLResponse)
def screen(
    request: Request,
    fight_id: FightId,
    caller: CallerDep,
    tables: TablesDep,
    p: Annotated[list[str] | None, Query(max_length=MAX_PATH)] = None,
    gm: bool = False,
) -> HTMLResponse:
    path = [s for s in (p or []) if 0 < len(s) <= 200]
    with tables.reading(fight_id) as live, i18n.speaking_for(live.fight.ruleset.info.name):
        return render("screen.html", **screen_context(tables, live, caller, path, gm=gm))


@router.get("/ui/fights/{fight_id}/entries/{index}", response_class=HTMLResponse)
def entry(fight_id: FightId, index: int, caller: CallerDep, tables: TablesDep) -> HTMLResponse:
    """One log entry with every explanation step (opened on demand)."""
    with tables.reading(fight_id) as live:
        fight = live.fight
        if not 0 <= index < len(fight.entries):
            raise Problem(404, "no_entry", S_("no such log entry"))
        item = tables.entries(live, caller, start=index)[0]
        names = fight.ruleset.names(fight.initial_state)
        lines = [
            split_line(ln)
            for e in item["events"]
            for ln in render_event(fight.ruleset, e, names, verbose=True)
            if ln.strip()
        ]
    return render("entry.html", lines=lines)


@router.get("/ui/fights/{fight_id}/links", response_class=HTMLResponse)
def links(request: Request, fight_id: FightId, caller: CallerDep, tables: TablesDep) -> HTMLResponse:
    join, expires = tables.links(fight_id, caller)
    base = base_url(request)
    with tables.reading(fight_id) as live:
        names = live.fight.ruleset.names(live.fight.initial_state)
    items = []
    for side, token in join.items():
        url = f"{base}/join/{fight_id}#t={token}"
        name = names.get(side, side)
        items.append(
            {
                "side": side,
                "name": name,
                "url": url,
                "qr": qr_svg(url, i18n.gettext("{name}'s join link").format(name=name)),
                "expires": _when(expires.get(side)),
            }
        )
    host = (urlsplit(base).hostname or "").lower()
    return render(
        "links.html",
        items=items,
        base=base,
        local=host in ("localhost", "127.0.0.1", "::1") or host.startswith("127."),
        gm_url=f"{base}/fights/{fight_id}#t={caller.token}",
        gm_expires=_when(expires.get("gm")),
    )


def qr_svg(url: str, title: str) -> Markup:
    """``url`` as a QR code, an inline SVG (dark modules on white in either colour scheme: phone
    cameras read dark on light; error correction M survives a glare or a smudge)."""
    import segno

    code = segno.make(url, error="m", micro=False, boost_error=False)
    svg = code.svg_inline(
        scale=4, border=4, dark="#000", light="#fff", title=title, omitsize=True, svgclass="qr"
    )
    return Markup(svg)


def _when(at: datetime | None) -> str:
    return "" if at is None else at.strftime("%Y-%m-%d %H:%M UTC")


def screen_context(
    tables: Tables, live: Live, caller: Caller, path: Sequence[str], *, gm: bool
) -> dict[str, Any]:
    """Everything the screen partial shows, for ``caller``'s viewer only."""
    fight = live.fight
    fight_id = live.row.id
    view = tables.view(live, caller, log=False)
    names = dict(view["names"])
    menu: dict[str, Any] | None = None
    crumbs: list[dict[str, str]] = []
    notice = ""
    use_gm = gm and caller.gm
    if fight.pending is None and (use_gm or view["may_decide"]):
        try:
            menu = tables.choices(live, caller, path, gm=use_gm)
        except Problem as problem:  # a path gone stale: start the decision again
            notice = problem.message
            path = []
            menu = tables.choices(live, caller, path, gm=use_gm) if problem.status == 422 else None
        if menu is not None:
            for i in range(len(path)):
                step = tables.choices(live, caller, path[:i], gm=use_gm)
                label = next((o["label"] for o in step["options"] if o["id"] == path[i]), path[i])
                crumbs.append({"label": label, "href": screen_url(fight_id, path[: i + 1], use_gm)})
            for option in menu["options"]:
                option["odds_list"] = _odds(option.get("odds"))
                option["next"] = [*path, option["id"]]
                option["href"] = screen_url(fight_id, option["next"], use_gm)
    entries = tables.entries(live, caller)
    ids = fight.state_ids() if caller.gm else []
    log = []
    for item in reversed(entries[-300:]):
        actor = item["actor"] or {}
        who = names.get(actor.get("id", ""), S_("the GM") if actor.get("kind") == "gm" else "")
        log.append(
            {
                "index": item["index"],
                "who": who,
                "lines": [split_line(ln) for ln in item["lines"]],
                "state_id": ids[item["index"] + 1] if ids else "",
            }
        )
    result = fight.result
    played = fight.policy_specs()
    actor = fight.to_move
    acting = actor.id if actor is not None and actor.kind == "unit" and result is None else None
    unit_cards, order_lines = cards(fight, view["state"], view["status"], names, acting)
    sides = [
        {
            "id": side,
            "name": names.get(side, side),
            "spec": played.get(side, ""),
            "choices": [
                *POLICY_CHOICES,
                *([(played[side], played[side])] if played.get(side, "") not in dict(POLICY_CHOICES) else []),
            ],
        }
        for side in fight.sides()
    ]
    return {
        "fight": view["fight"],
        "sides": sides,
        "policy_turn": tables.played_by(fight),
        "role": "gm" if caller.gm else "player",
        "side": caller.side,
        "side_name": names.get(caller.side or "", caller.side or ""),
        "state_id": fight.view_id(caller.viewer),
        "seq": live.seq,
        "over": result is not None,
        "result": result_words(result, names) if result is not None else "",
        "status": view["status"],
        "cards": unit_cards,
        "order_lines": order_lines,
        "to_move": tables.who(fight),
        "may_decide": view["may_decide"],
        "menu": menu,
        "gm_menu": use_gm,
        "crumbs": crumbs,
        "pending": view["pending"],
        "pending_lines": [split_line(ln) for ln in (view["pending"] or {}).get("lines", [])],
        "log": log,
        "older": max(0, len(entries) - 300),
        "start_state_id": ids[0] if ids else "",
        "can_undo": caller.gm and (bool(fight.entries) or fight.pending is not None),
        "notice": notice,
        "start_href": screen_url(fight_id, [], use_gm),
        "start_href_turn": screen_url(fight_id, [], False),
        "back_href": screen_url(fight_id, path[:-1], use_gm),
        "gm_href": screen_url(fight_id, [], True),
    }


def screen_url(fight_id: str, path: Sequence[str], gm: bool) -> str:
    """The screen partial at ``path`` of a decision (``gm``: of the GM's moves)."""
    query = [("p", step) for step in path] + ([("gm", "1")] if gm else [])
    return f"/ui/fights/{fight_id}/screen" + (f"?{urlencode(query)}" if query else "")


def _odds(odds: dict[str, Any] | None) -> list[dict[str, str]]:
    """An option's odds as the page shows them: each outcome's name (a word of the ruleset's, in the
    viewer's language) with its percentage, and each expected value."""
    if not odds:
        return []
    out = [
        {"name": i18n.translate_text(k), "shown": f"{v['percent']:.1f}%", "exact": str(v["p"])}
        for k, v in odds["outcomes"].items()
    ]
    out += [
        {
            "name": i18n.gettext("expected {name}").format(name=i18n.translate_text(k)),
            "shown": f"{v['approx']:.2f}",
            "exact": str(v["value"]),
        }
        for k, v in odds["expected"].items()
    ]
    return out

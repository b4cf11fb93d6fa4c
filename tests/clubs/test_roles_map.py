"""What a page offers is exactly what the house allows (issue 56), for every role over every club
and event control: the way flask's tutorial (``test_author_required``) checks that the blog shows
no edit link to whoever may not edit, and refuses that edit with 403.

For each role and each control, in a fresh club (the controls change it: a removal, a hand-over,
the club deleted), the role's browser opens the pages it can reach (the club, the event, a
table's game, a player's own page) and the control is *offered* when one of them holds its form
(or its link); then the control is used for real, and it is *allowed* when it was done. The two
must agree. Every 403 on the way names the thing refused, in the caller's language (never the
game page's "Only the scorer's device..."); the club's routes answer 404 to whoever is not a
member, as for a club that does not exist.

``ROLE_MAP`` is filled as the tests run; :func:`table` prints it (role x control: offered /
allowed) for the issue's closing note.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from flask_babel import force_locale, gettext

from scorekeeper.access import REFUSED
from scorekeeper.clubs import service as clubs
from scorekeeper.db import db
from scorekeeper.events import rounds
from scorekeeper.events import service as events
from scorekeeper.models import Club, Member
from scorekeeper.web.errors import GENERIC
from tests.conftest import bearer

ROLES = ("owner", "admin", "member", "director", "table", "player", "stranger")
# Each role reads the pages in its own language: every 403 is checked in the caller's words.
LANGUAGE = {
    "owner": "en",
    "admin": "pl",
    "member": "pt",
    "director": "pl",
    "table": "pt",
    "player": "en",
    "stranger": "pl",
}
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
NUMBERS = itertools.count(1)
# (role, control) -> (offered, allowed), filled as the tests run: the table of the note.
ROLE_MAP: dict[tuple[str, str], tuple[bool, bool]] = {}


@dataclass
class World:
    """One club (Olga owns it; Ada and Abe are admins; Mel and Max members), an event of it with
    round 1 started and table 1's game finished, and a browser per role."""

    slug: str
    name: str
    ids: dict[str, int]  # member name -> member id
    devices: dict[str, int]  # member name -> their device key's id
    invite_id: int
    event_id: str
    game: str  # table 1's game
    loser: str  # a player of its side that did not win: who may confirm its result
    player_page: str
    browsers: dict[str, object]


def build(app) -> World:
    n = next(NUMBERS)
    name = f"Roles {n}"
    keys: dict[str, str] = {}
    with app.app_context():
        made = clubs.create_club(name, "Olga")
        club = made.club
        keys["Olga"] = made.key
        admin_invite = clubs.make_invite(club, "admin")
        for who, invite in (
            ("Ada", admin_invite),
            ("Abe", admin_invite),
            ("Mel", made.invite),
            ("Max", made.invite),
        ):
            keys[who] = clubs.join(club, invite, who)[1]
        slug = club.slug
        members = {m.name: m for m in clubs.members(club)}
        ids = {who: m.id for who, m in members.items()}
        devices = {who: clubs.keys_of(m)[0].id for who, m in members.items()}
        invite_id = clubs.open_invites(club)[0].id
        event, director_key = events.create_event(
            {"name": "Night", "format": "progressive", "game": "euchre", "players": PLAYERS}
            | {"hands": 1, "rounds": 2, "confirm": True},
            club_id=club.id,
        )
        rounds.start_round(event)
        table = events.document(event, director=True)["rounds"][0]["tables"][0]
        event_id, game, edit_key = event.id, table["game"], table["edit_key"]
        loser = table["seats"][1]  # seats 0 and 2 make their hand (MADE_02) and win
        player_page = f"/e/{event_id}/p/0/{events.player_token(event, 0)}"
    setup = app.test_client()
    assert setup.post(f"/api/games/{game}/deals", json=MADE_02, headers=bearer(edit_key)).status_code == 201
    browsers = {}
    for role in ROLES:
        browser = app.test_client()
        browser.set_cookie("lang", LANGUAGE[role])
        browsers[role] = browser
    for role, who in (("owner", "Olga"), ("admin", "Ada"), ("member", "Mel")):
        browsers[role].set_cookie("member", keys[who])
    assert browsers["director"].get(f"/e/{event_id}/direct?key={director_key}").status_code == 303
    assert browsers["table"].get(f"/g/{game}?key={edit_key}").status_code in (200, 303)
    return World(slug, name, ids, devices, invite_id, event_id, game, loser, player_page, browsers)


@dataclass(frozen=True)
class Control:
    """One thing a page may offer: its address (None: not this role's to have, e.g. leaving a
    club one is not in), what using it sends, and the refusals that name it."""

    method: str
    url: Callable[[World, str], str | None]
    data: Callable[[World], dict] = lambda w: {}
    refused: tuple[str, ...] = ()


MEMBER_NAME = {"owner": "Olga", "admin": "Ada", "member": "Mel"}


def mine(role: str) -> str | None:
    return MEMBER_NAME.get(role)


def member_url(path: str, who: str) -> Callable[[World, str], str]:
    return lambda w, role: f"/c/{w.slug}/members/{w.ids[who]}/{path}"


def device_url(who: str) -> Callable[[World, str], str]:
    return lambda w, role: f"/c/{w.slug}/devices/{w.devices[who]}/signout"


CONFIRMED = {"confirmed": "yes"}
CONTROLS: dict[str, Control] = {
    "make an invite": Control(
        "POST", lambda w, r: f"/c/{w.slug}/invites", lambda w: {"role": "member"}, ("invites",)
    ),
    "revoke an invite": Control(
        "POST", lambda w, r: f"/c/{w.slug}/invites/{w.invite_id}/revoke", refused=("invites",)
    ),
    "make Mel (member) an admin": Control(
        "POST", member_url("role", "Mel"), lambda w: {"role": "admin"}, ("roles",)
    ),
    "make Abe (admin) a member": Control(
        "POST", member_url("role", "Abe"), lambda w: {"role": "member"}, ("roles", "unmake_admin")
    ),
    "make Olga (owner) a member": Control(
        "POST", member_url("role", "Olga"), lambda w: {"role": "member"}, ("roles",)
    ),
    "remove Max (member)": Control("POST", member_url("remove", "Max"), lambda w: CONFIRMED, ("remove",)),
    "remove Abe (admin)": Control(
        "POST", member_url("remove", "Abe"), lambda w: CONFIRMED, ("remove", "remove_admin")
    ),
    "remove Olga (owner)": Control("POST", member_url("remove", "Olga"), lambda w: CONFIRMED, ("remove",)),
    "hand the club to Ada": Control("POST", member_url("owner", "Ada"), lambda w: CONFIRMED, ("hand_over",)),
    "sign out Max's device": Control("POST", device_url("Max"), refused=("sign_out",)),
    "sign out Abe's device": Control("POST", device_url("Abe"), refused=("sign_out", "sign_out_admin")),
    "sign out Olga's device": Control("POST", device_url("Olga"), refused=("sign_out", "sign_out_admin")),
    "sign out my device": Control(
        "POST", lambda w, r: mine(r) and f"/c/{w.slug}/devices/{w.devices[mine(r)]}/signout"
    ),
    "leave the club": Control(
        "POST",
        lambda w, r: mine(r) and f"/c/{w.slug}/members/{w.ids[mine(r)]}/remove",
        lambda w: CONFIRMED,
        ("remove",),
    ),
    "add a device": Control("POST", lambda w, r: f"/c/{w.slug}/device-link"),
    "delete the club": Control(
        "POST", lambda w, r: f"/c/{w.slug}/delete", lambda w: {**CONFIRMED, "confirm": w.name}, ("delete",)
    ),
    "tidy the players list": Control("GET", lambda w, r: f"/c/{w.slug}/players/tidy", refused=("tidy",)),
    "new event": Control("GET", lambda w, r: f"/c/{w.slug}/events/new"),
    "start a round": Control(
        "POST", lambda w, r: f"/e/{w.event_id}/rounds", lambda w: {"close": "y"}, ("start_round",)
    ),
    "change the event's players": Control(
        "POST", lambda w, r: f"/e/{w.event_id}/players", lambda w: {"add": "Zed"}, ("players",)
    ),
    "correct a table": Control(
        "GET", lambda w, r: f"/e/{w.event_id}/tables/{w.game}/correct", refused=("correct_table",)
    ),
    # Confirming is a change to the table's game: its scorers' (and directors'), as the game says.
    "confirm a table's result": Control(
        "POST", lambda w, r: f"/g/{w.game}/confirm", lambda w: {"by": w.loser}, ("game",)
    ),
}


def pages(world: World, role: str) -> list[str]:
    """What the role can open: the club, the event, table 1's game, and a player their own page."""
    urls = [f"/c/{world.slug}", f"/e/{world.event_id}", f"/g/{world.game}"]
    return urls + [world.player_page] if role == "player" else urls


def offered(world: World, role: str, method: str, url: str) -> bool:
    """Whether a page the role opens holds this control: a post form to it, or a link to it."""
    browser = world.browsers[role]
    pattern = r'<form method="post" action="([^"]+)"' if method == "POST" else r'href="([^"]+)"'
    for page in pages(world, role):
        answer = browser.get(page)
        if answer.status_code != 200:
            continue
        targets = {html.unescape(t).split("?")[0].split("#")[0] for t in re.findall(pattern, answer.text)}
        if url in {t.replace("http://localhost", "") for t in targets}:
            return True
    return False


def words(app, key: str, language: str) -> str:
    """A refusal's words (access.REFUSED, or the game page's own) in ``language``."""
    text = GENERIC[403] if key == "game" else REFUSED[key]
    with app.test_request_context(), force_locale(language):
        return gettext(text)


def used(app, world: World, role: str, name: str, control: Control, url: str) -> bool:
    """Use the control; True when it was done. A refusal must say what it refused."""
    browser = world.browsers[role]
    answer = browser.open(url, method=control.method, data=control.data(world))
    if answer.status_code in (200, 303):
        return True
    assert answer.status_code in (403, 404, 409), (role, name, answer.status_code)
    if answer.status_code == 403:
        said = html.unescape(answer.text)
        language = LANGUAGE[role]
        mine = [words(app, key, language) for key in control.refused]
        assert any(m in said for m in mine), (role, name, language, said[-600:])
        if "game" not in control.refused:
            # Its own words, not the game page's (issue 56's bug).
            assert words(app, "game", language) not in said, (role, name)
        if language != "en":
            # In the caller's language: the catalogs have it translated.
            assert not any(words(app, key, "en") in said for key in control.refused), (role, name)
    return False


@pytest.mark.parametrize("role", ROLES)
def test_a_page_offers_exactly_what_the_role_may_do(app, role):
    disagree = []
    for name, control in CONTROLS.items():
        world = build(app)
        url = control.url(world, role)
        if url is None:  # leaving a club, one's own device: no such thing for a non-member
            ROLE_MAP[(role, name)] = (False, False)
            continue
        shown = offered(world, role, control.method, url)
        done = used(app, world, role, name, control, url)
        ROLE_MAP[(role, name)] = (shown, done)
        if shown != done:
            disagree.append((name, "offered" if shown else "not offered", "allowed" if done else "refused"))
    assert not disagree, (role, disagree)


def test_the_roles_the_spec_gives(app):
    """The rules themselves (clubs.md, events.md), not only their agreement with the pages."""
    expect_allowed = {
        "owner": set(CONTROLS) - {"remove Olga (owner)", "make Olga (owner) a member", "leave the club"},
        "admin": {
            "make an invite",
            "revoke an invite",
            "make Mel (member) an admin",
            "remove Max (member)",
            "sign out Max's device",
            "sign out my device",
            "leave the club",
            "add a device",
            "tidy the players list",
            "new event",
            "start a round",
            "change the event's players",
            "correct a table",
            "confirm a table's result",
        },
        "member": {"sign out my device", "leave the club", "add a device", "new event"},
        "director": {"start a round", "change the event's players", "correct a table"},
        "table": {"confirm a table's result"},
        "player": set(),
        "stranger": set(),
    }
    for role, allowed in expect_allowed.items():
        for name, control in CONTROLS.items():
            if name not in allowed:
                continue
            world = build(app)
            url = control.url(world, role)
            assert url is not None and used(app, world, role, name, control, url), (role, name)
    # And one of each kind refused, by the one that may not.
    for role, name in (
        ("admin", "remove Abe (admin)"),
        ("admin", "make Abe (admin) a member"),
        ("member", "make an invite"),
    ):
        world = build(app)
        assert not used(app, world, role, name, CONTROLS[name], CONTROLS[name].url(world, role))


def test_the_api_refuses_a_member_in_words_of_the_thing_refused(app):
    """A plain member's admin calls answer 403 saying what was refused, in their language."""
    world = build(app)
    with app.app_context():
        club = db.session.query(Club).filter_by(slug=world.slug).one()
        mel = db.session.query(Member).filter_by(club_id=club.id, name="Mel").one()
        key = clubs.device_link(mel)
        mel_key = clubs.join(club, key, None)[1]
        invites = len(clubs.open_invites(club))
    calls = [
        ("POST", f"/api/clubs/{world.slug}/invites", {"role": "member"}, "invites"),
        ("DELETE", f"/api/clubs/{world.slug}/members/Max", None, "remove"),
        ("DELETE", f"/api/clubs/{world.slug}/invites/whatever", None, "invites"),
    ]
    for language in ("en", "pl", "pt"):
        for method, url, body, key in calls:
            headers = {**bearer(mel_key), "Accept-Language": language}
            answer = app.test_client().open(url, method=method, json=body, headers=headers)
            assert answer.status_code == 403, (url, answer.status_code)
            assert answer.json["errors"][0]["message"] == words(app, key, language), (language, url)
    with app.app_context():  # nothing was done
        assert db.session.query(Member).filter_by(club_id=club.id, name="Max").count() == 1
        assert len(clubs.open_invites(db.session.get(Club, club.id))) == invites


def table() -> str:
    """The role x control table (offered / allowed) from the last run, in Markdown."""
    lines = ["| control | " + " | ".join(ROLES) + " |", "|---|" + "---|" * len(ROLES)]
    for name in CONTROLS:
        cells = []
        for role in ROLES:
            shown, done = ROLE_MAP.get((role, name), (None, None))
            cells.append(
                "?" if shown is None else f"{'offered' if shown else '-'} / {'allowed' if done else '-'}"
            )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)

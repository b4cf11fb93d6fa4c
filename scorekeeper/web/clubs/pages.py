"""A club's pages (clubs.md, Pages): the club, joining by invite, members and invites for
admins, its players, their records, the ratings, and the admins' tidy tools for the players list.

Thin views: each parses, calls :mod:`scorekeeper.clubs.service` or :mod:`scorekeeper.clubs.roster`,
and answers. Who may open a club page is :func:`~scorekeeper.web.auth.club_route`'s one
decision (404 to anyone who is not a member); who may do what there, :mod:`scorekeeper.access`'s
predicates, which the page's buttons, these views and the service all ask.
"""

from __future__ import annotations

import hmac
from typing import Any

import click
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal
from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import lazyload

from ... import limits, read
from ...access import REFUSED, Membership, club_events, club_games, club_seats
from ...clubs import figures, roster, service
from ...db import db
from ...forms.base import choices
from ...games import GAMES
from ...i18n import counted, render
from ...models import Club, Game, Member, MemberKey, Player, Seat
from ...refusals import Refusal
from ...rules import InvalidFacts
from ...rules.base import MAX_NAME
from ..auth import club_route, may, viewer
from ..games.records import games_list
from ..via import form_via
from .forms import InviteForm, JoinForm, NewClubForm
from .member_cookie import forget_member_key, keep_member_key

bp = Blueprint("clubs", __name__, cli_group="ratings")


def refuse(message: str, status: int = 422) -> ResponseReturnValue:
    return render_template("error.html", code=status, error=None, message=message), status


def said(exc: Refusal) -> str:
    """A service refusal in the page's language."""
    return render(exc.message)


def back(club: Club) -> ResponseReturnValue:
    return redirect(url_for(".show", slug=club.slug), 303)


# -- a new club, the club's page -------------------------------------------------------------


def admin_key_tested() -> bool:
    """Whether making a club tests the operator's ``ADMIN_KEY`` (``CLUB_CREATION=admin``)."""
    return current_app.config.get("CLUB_CREATION", "open") == "admin"


def creation_allowed(key: str | None) -> bool:
    """``CLUB_CREATION=admin``: only with the operator's ``ADMIN_KEY``; ``open``: anyone.

    The admin key found right is proven for the caller's address (limits.right_credential), as
    every other credential is: the operator is never refused while a prankster keeps the address
    over its failures (issue 57, N12)."""
    if not admin_key_tested():
        return True
    expected = current_app.config.get("ADMIN_KEY")
    right = bool(expected and key and hmac.compare_digest(str(key).encode(), str(expected).encode()))
    if right:
        limits.right_credential(key)
    return right


@bp.route("/clubs/new", methods=["GET", "POST"])
@limits.limit("clubs")
def new() -> ResponseReturnValue:
    form = NewClubForm()
    needs_key = current_app.config.get("CLUB_CREATION", "open") == "admin"
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            admin_key = request.form.get("admin_key") or None
            if admin_key:
                limits.check_credentials(admin_key)
            if not creation_allowed(admin_key):
                if admin_key:
                    limits.failed_credential(admin_key)
                form.name.errors = [
                    *form.name.errors,
                    _("Making a club on this server needs the operator's key."),
                ]
                status = 403
            else:
                try:
                    made = service.create_club(form.name.data, form.player.data, form_via().device)
                except Refusal as exc:
                    getattr(form, exc.field or "name", form.name).errors = [said(exc)]
                else:
                    flash(_("%(club)s is made. Invite its members below.", club=made.club.name), "ok")
                    # The invite made with the club, shown once on its page (its token is kept
                    # only as a hash): in this device's signed session until then.
                    session["new_invite"] = [made.club.slug, made.invite]
                    return keep_member_key(back(made.club), made.key)
    return render_template("clubs/new.html", form=form, needs_key=needs_key), status


@bp.get("/c/<slug>")
@club_route()
def show(club: Club, me: Membership) -> ResponseReturnValue:
    """The club: its games in progress and finished, events, players, ratings, members; for
    admins, the invites."""
    games = db.session.scalars(club_games(viewer(), club.id).options(lazyload(Game.deals)).limit(60)).all()
    in_progress: list[tuple[Game, read.Summary, read.Summary]] = []
    finished: list[tuple[Game, read.Summary, read.Summary]] = []
    for game, summary in read.list_views(games):
        (finished if summary.finished else in_progress).append((game, summary, summary))
    everyone = service.members(club)
    devices = {m.id: service.keys_of(m) for m in everyone if may().see_devices(club.id, m.id)}
    made = session.get("new_invite")
    first_invite = None
    if isinstance(made, list) and len(made) == 2 and made[0] == club.slug:
        session.pop("new_invite")
        first_invite = url_for(".join", slug=club.slug, token=made[1], _external=True)
    page = render_template(
        "clubs/show.html",
        first_invite=first_invite,
        club=club,
        me=me,
        in_progress=in_progress[:30],
        finished=finished[:30],
        games=GAMES,
        events=db.session.scalars(club_events(viewer(), club.id)).all(),
        members=everyone,
        devices=devices,
        invites=service.open_invites(club) if may().run_club(club.id) else [],
        invite_form=InviteForm(),
    )
    if first_invite is None:
        return page
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"  # the invite link is shown once
    return response


@bp.get("/c/<slug>/games")
@club_route()
def games(club: Club, me: Membership) -> ResponseReturnValue:
    """Every game of the club, newest first (archived ones too), filtered as the list does."""
    return games_list(club_games(viewer(), club.id, archived=None), roster.regular_names(club.id), club)


# -- joining ----------------------------------------------------------------------------------


@bp.route("/c/<slug>/join/<token>", methods=["GET", "POST"])
@limits.limit("joins")
def join(slug: str, token: str) -> ResponseReturnValue:
    """Join by an invite: pick one's player (not yet taken) or add a new name; the device becomes
    a member. A wrong, revoked or expired invite answers 404, as a club that does not exist."""
    limits.check_credentials(token)
    club = db.session.scalar(select(Club).where(Club.slug == slug)) if service.SLUG.fullmatch(slug) else None
    invite = service.live_invite(club, token) if club is not None else None
    if club is None or invite is None:
        limits.failed_credential(token)
        abort(404)
    limits.right_credential(token)
    already = viewer().of(club.id)
    device_only = invite.role.startswith("device:")
    if already is not None:  # a second name for the same device: a POST joins no more than a GET
        flash(_("This device is a member of %(club)s already.", club=club.name), "ok")
        return back(club)
    form = JoinForm()
    free = service.free_players(club)
    # Nobody to pick: no choice to make, just the name (its label says so, not "Or a new name").
    form.pick.choices = choices([(name, name) for name in free] + [("", _("Someone new"))]) if free else []
    if not free:
        form.name.label.text = _("Your name")
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            name = form.chosen()
            if not device_only and not name:
                form.name.errors = [*form.name.errors, _("Pick your name, or type a new one.")]
            else:
                try:
                    member, key = service.join(club, token, name, form_via().device)
                except Refusal as exc:
                    if exc.status == 404:
                        abort(404)
                    form.name.errors = [*form.name.errors, said(exc)]
                else:
                    flash(_("Welcome to %(club)s, %(name)s.", club=club.name, name=member.name), "ok")
                    return keep_member_key(back(club), key)
    return render_template(
        "clubs/join.html", club=club, form=form, free=free, device_only=device_only, max_name=MAX_NAME
    ), status


# -- invites, members, devices (admins; a member for their own devices) ------------------


@bp.post("/c/<slug>/invites")
@club_route("admin", REFUSED["invites"])
def make_invite(club: Club, me: Membership) -> ResponseReturnValue:
    """A new invite, shown once as a link and a QR code (its token is kept only as a hash)."""
    form = InviteForm()
    if not form.validate_on_submit():
        return refuse(_("An invite lasts 1 to 3650 days, or leave it out for no end."))
    token = service.make_invite(club, form.role.data, form.expires.data, acting(me))
    link = url_for(".join", slug=club.slug, token=token, _external=True)
    return render_template("clubs/link.html", club=club, link=link, device=False)


@bp.post("/c/<slug>/invites/<int:invite_id>/revoke")
@club_route("admin", REFUSED["invites"])
def revoke_invite(club: Club, me: Membership, invite_id: int) -> ResponseReturnValue:
    try:
        service.revoke_invite_by_id(club, invite_id, acting(me))
    except Refusal as exc:
        if exc.status != 404:
            return refuse(said(exc), exc.status)
        abort(404)
    flash(_("Invite revoked: nobody new can join with it."), "ok")
    return back(club)


def confirmed() -> bool:
    """Whether this post is the second step of a change that cannot be taken back (clubs.md):
    the first answers :func:`confirm_page` and does nothing."""
    return request.form.get("confirmed") == "yes"


def confirm_page(
    club: Club, heading: str, consequence: str, button: str, type_name: bool = False
) -> ResponseReturnValue:
    """The second step: what the change will do, and the form that does it (to the same URL)."""
    return render_template(
        "clubs/confirm.html",
        club=club,
        heading=heading,
        consequence=consequence,
        button=button,
        action=request.path,
        type_name=type_name,
    )


def acting(me: Membership) -> Member:
    """The caller's member row: the services judge it again as it is inside their change."""
    member = db.session.get(Member, me.member_id)
    if member is None:  # removed since this request began
        abort(404)
    return member


def member_of(club: Club, member_id: int) -> Member:
    member = db.session.get(Member, member_id)
    if member is None or member.club_id != club.id:
        abort(404)
    return member


@bp.post("/c/<slug>/members/<int:member_id>/remove")
@club_route()
def remove_member(club: Club, me: Membership, member_id: int) -> ResponseReturnValue:
    """An admin removes a member, or a member leaves; their devices stop at once."""
    member = member_of(club, member_id)
    leaving = member.id == me.member_id
    # The one rule (access.py), asked before the question is asked; the service asks it again.
    refused = may().removal_refused(club.id, member)
    if refused is not None:
        return refuse(said(refused), refused.status)
    if not confirmed():
        if leaving:
            return confirm_page(
                club,
                _("Leave %(club)s?", club=club.name),
                _("Every device of yours stops at once: you can come back only with a new invite."),
                _("Leave the club"),
            )
        return confirm_page(
            club,
            _("Remove %(name)s from %(club)s?", name=member.name, club=club.name),
            _(
                "Their devices stop at once and they can come back only with a new invite. Their games stay the club's."
            ),
            _("Remove"),
        )
    try:
        service.remove_member(club, member.name, acting(me))
    except Refusal as exc:
        return refuse(said(exc), exc.status)
    if leaving:
        flash(_("You have left %(club)s.", club=club.name), "ok")
        return redirect(url_for("main.index"), 303)
    flash(_("%(name)s is no longer a member.", name=member.name), "ok")
    return back(club)


@bp.post("/c/<slug>/members/<int:member_id>/role")
@club_route("admin", REFUSED["roles"])
def set_role(club: Club, me: Membership, member_id: int) -> ResponseReturnValue:
    member = member_of(club, member_id)
    try:
        service.set_role(club, member.name, request.form.get("role", ""), acting(me))
    except Refusal as exc:
        return refuse(said(exc), exc.status)
    return back(club)


@bp.post("/c/<slug>/members/<int:member_id>/owner")
@club_route("owner", REFUSED["hand_over"])
def hand_over(club: Club, me: Membership, member_id: int) -> ResponseReturnValue:
    member = member_of(club, member_id)
    refused = may().hand_over_refused(club.id, member)
    if refused is not None:
        return refuse(said(refused), refused.status)
    if not confirmed():
        return confirm_page(
            club,
            _("Hand %(club)s over to %(name)s?", club=club.name, name=member.name),
            _(
                "%(name)s becomes its owner: they alone may delete the club or hand it on. You stay an admin.",
                name=member.name,
            ),
            _("Hand the club over"),
        )
    try:
        service.hand_over(club, acting(me), member.name)
    except Refusal as exc:
        return refuse(said(exc), exc.status)
    flash(_("%(name)s owns %(club)s now.", name=member.name, club=club.name), "ok")
    return back(club)


@bp.post("/c/<slug>/devices/<int:key_id>/signout")
@club_route()
def sign_out(club: Club, me: Membership, key_id: int) -> ResponseReturnValue:
    """Sign a device out: its owner-member or an admin. Signing out this device leaves its cookie
    holding a dead key, which is dropped here."""
    row = db.session.get(MemberKey, key_id)
    member = db.session.get(Member, row.member_id) if row is not None else None
    if row is None or member is None or member.club_id != club.id:
        abort(404)
    try:
        service.sign_out(member, key_id, acting(me))
    except Refusal as exc:
        return refuse(said(exc), exc.status)
    flash(_("Device signed out."), "ok")
    if key_id == me.key_id:
        return forget_member_key(redirect(url_for("main.index"), 303), club.id)
    return back(club)


@bp.post("/c/<slug>/device-link")
@club_route()
def device_link(club: Club, me: Membership) -> ResponseReturnValue:
    """A one-time link (an hour) that signs one more of this member's devices in."""
    member = db.session.get(Member, me.member_id)
    assert member is not None
    token = service.device_link(member)
    link = url_for(".join", slug=club.slug, token=token, _external=True)
    return render_template("clubs/link.html", club=club, link=link, device=True)


@bp.post("/c/<slug>/delete")
@club_route("owner", REFUSED["delete"])
def delete(club: Club, me: Membership) -> ResponseReturnValue:
    """The owner deletes the club, typing its name on the second page: its games, events and players go."""
    if not confirmed():
        return confirm_page(
            club,
            _("Delete %(club)s?", club=club.name),
            _(
                "Every game, event, player, member and invite of %(club)s is deleted for good: it cannot be undone.",
                club=club.name,
            ),
            _("Delete the club"),
            type_name=True,
        )
    if request.form.get("confirm", "").strip() != club.name:
        return refuse(_("Type the club's name exactly to delete it: nothing was deleted."))
    name = club.name
    service.delete_club(club, acting(me))
    flash(_("%(club)s is deleted.", club=name), "ok")
    return forget_member_key(redirect(url_for("main.index"), 303), me.club_id)


# -- players and ratings ------------------------------------------------------------------------


@bp.get("/c/<slug>/ratings")
@club_route()
def leaderboard(club: Club, me: Membership) -> ResponseReturnValue:
    """The club's leaderboard of one game kind (``?game=``) or of every game: ordinal, games, trend."""
    game = request.args.get("game") or None
    if game is not None and game not in GAMES:
        abort(404)
    hidden = roster.private_names(club.id)
    board = roster.club_ratings(club.id, game)
    return render_template(
        "clubs/ratings.html",
        club=club,
        me=me,
        game=game,
        games=GAMES,
        players=[p for p in board.leaderboard if p.name not in hidden],
        matches=board.matches,
    )


@bp.cli.command("rebuild")
@click.option("--game", "kind", default=None, help="Only this game kind (default: overall and every kind).")
@click.option("--club", "slug", default=None, help="Only this club (default: every club).")
def rebuild_command(kind: str | None, slug: str | None) -> None:
    """Derive the ratings from scratch, from every finished game in the order they finished."""
    if kind is not None and kind not in GAMES:
        raise click.BadParameter(f"one of {', '.join(sorted(GAMES))}", param_hint="--game")
    chosen = db.session.scalars(select(Club).order_by(Club.slug)).all()
    if slug is not None:
        chosen = [c for c in chosen if c.slug == slug]
        if not chosen:
            raise click.BadParameter(f"no club {slug!r}", param_hint="--club")
    for club in chosen:
        click.echo(f"[{club.slug}]")
        scopes = roster.rebuild(club.id, [kind] if kind else None)
        for scope, board in scopes.items():
            games_ = counted("%(num)s game", "%(num)s games", board.matches)
            players = counted("%(num)s player", "%(num)s players", len(board.leaderboard))
            click.echo(f"{scope or 'overall'}: {games_}, {players}")
            for place, p in enumerate(board.leaderboard, 1):
                click.echo(
                    f"  {place:>3}. {p.name:<40} {p.ordinal:8.2f}  (mu {p.mu:.2f}, sigma {p.sigma:.2f}, "
                    + counted("%(num)s game", "%(num)s games", p.games)
                    + ")"
                )


def with_player(name: str):
    return Game.id.in_(select(Seat.game_id).where(Seat.name == name))


@bp.get("/c/<slug>/players")
@club_route()
def players(club: Club, me: Membership) -> ResponseReturnValue:
    """Everyone who has sat at one of the club's games, most recently seen first."""
    rows = db.session.execute(
        club_seats(viewer(), club.id).order_by(func.max(Game.updated_at).desc(), Seat.name).limit(1000)
    ).all()
    return render_template("clubs/players.html", club=club, me=me, players=rows)


@bp.get("/c/<slug>/player")
@club_route()
def player(club: Club, me: Membership) -> ResponseReturnValue:
    """One player's record in the club: games played and won per game kind, rating, last games."""
    name = request.args.get("name", "").strip()
    if not name or len(name) > MAX_NAME:
        return redirect(url_for(".players", slug=club.slug), 303)
    query = (
        club_games(viewer(), club.id, archived=None).options(lazyload(Game.deals)).where(with_player(name))
    )
    items = read.list_views(db.session.scalars(query).all())
    if not items:
        abort(404)
    played = [figures.Played(g.id, g.kind, g.updated_at, tuple(g.players), summary) for g, summary in items]
    return render_template(
        "clubs/player.html",
        club=club,
        me=me,
        stats=figures.player_stats(name, played),
        games=GAMES,
        **player_rating(club, name),
    )


def player_rating(club: Club, name: str) -> dict[str, object]:
    """A player's page's rating part: overall rating, its history as a chart, opponents."""
    rating = roster.club_ratings(club.id, None).player(name)
    if rating is None:
        return {"rating": None, "rating_chart": None}
    # The chart draws whole numbers: an ordinal to the nearest point reads the same at phone size.
    line = [0, *(round(point.ordinal) for point in rating.history)]
    chart = figures.running_chart([name], [line], number=format_decimal)
    return {"rating": rating, "rating_chart": chart}


# -- the players list's tidy tools (admins) --------------------------------------------------


@bp.get("/c/<slug>/players/tidy")
@club_route("admin", REFUSED["tidy"])
def tidy(club: Club, me: Membership) -> ResponseReturnValue:
    """Rename, merge and mark private: the admins' page for the club's players list."""
    counts = {name: played for name, played, _last in db.session.execute(club_seats(viewer(), club.id))}
    private = roster.private_names(club.id)
    names = roster.regular_names(club.id, 1000)
    return render_template(
        "clubs/tidy.html",
        club=club,
        players=[(name, counts.get(name, 0), name in private) for name in names],
        renames=roster.rename_groups(club.id),
        max_name=MAX_NAME,
    )


def to_tidy(club: Club) -> ResponseReturnValue:
    return redirect(url_for(".tidy", slug=club.slug), 303)


@bp.post("/c/<slug>/players/rename")
@club_route("admin", REFUSED["tidy"])
def rename(club: Club, me: Membership) -> ResponseReturnValue:
    """Rename a player in every club game; to a name already in the list, it merges the two spellings."""
    old = request.form.get("old", "").strip()
    new = request.form.get("new", "").strip()
    if not old or len(old) > MAX_NAME or not roster.games_with(club.id, old):
        return refuse(_("Nobody called %(name)s has played: nothing was changed.", name=old[:MAX_NAME]))
    if not new or len(new) > MAX_NAME:
        return refuse(_("A new name has 1 to %(max)s characters.", max=MAX_NAME))
    if new == old:
        return to_tidy(club)
    try:
        done = roster.rename_everywhere(club.id, old, new, form_via(), by=me.name)
    except roster.NameClash as clash:
        return refuse(
            counted(
                "%(old)s and %(new)s played in the same game (%(games)s): one person cannot sit twice, "
                "so nothing was changed.",
                "%(old)s and %(new)s played in the same games (%(games)s): one person cannot sit twice, "
                "so nothing was changed.",
                len(clash.games),
                old=old,
                new=new,
                games=", ".join(g.id for g in clash.games),
            )
        )
    except InvalidFacts as exc:
        return refuse(" ".join(render(e.message) for e in exc.errors))
    flash(
        counted(
            "%(old)s is now %(new)s in %(num)s game.",
            "%(old)s is now %(new)s in %(num)s games.",
            done.games,
            old=old,
            new=new,
        ),
        "ok",
    )
    return to_tidy(club)


@bp.post("/c/<slug>/players/undo")
@club_route("admin", REFUSED["tidy"])
def undo_rename(club: Club, me: Membership) -> ResponseReturnValue:
    group = request.form.get("group", "")
    undone = roster.undo_rename(club.id, group, form_via(), by=me.name) if group and len(group) <= 64 else 0
    if not undone:
        return refuse(_("That rename cannot be undone any more: the games have moved on."), 409)
    flash(counted("Rename undone in %(num)s game.", "Rename undone in %(num)s games.", undone), "ok")
    return to_tidy(club)


@bp.post("/c/<slug>/players/private")
@club_route("admin", REFUSED["tidy"])
def set_private(club: Club, me: Membership) -> ResponseReturnValue:
    """Mark a player private (left out of the club's leaderboard) or public again."""
    name = request.form.get("name", "").strip()
    if not name or len(name) > MAX_NAME:
        abort(400)
    known: Any = roster.games_with(club.id, name) or db.session.scalar(
        select(Player).where(Player.club_id == club.id, Player.name == name)
    )
    if not known:
        return refuse(_("Nobody called %(name)s has played: nothing was changed.", name=name))
    roster.set_private(club.id, name, request.form.get("private") == "1", by=me.name)
    return to_tidy(club)

"""The lobby (issue 14 §1): seeks anyone may accept, listed live to every lobby viewer, and
quick pairing. A seek is a room offered to all: accepting it takes a free seat, and the last
seat taken starts the game for everyone seated (the seeker's page follows ``seek_accepted``)."""

from django.db import transaction

from games import policy, selectors
from games.identity import Player
from games.models import Game, Room, Seek
from games.services import events, rooms, steps
from games.shared.bots import bots_among
from games.shared.errors import Conflict, Forbidden, NotFound, ServiceError
from games.shared.ratings import rating_of
from games.shared.time_controls import speed_of

QUICK_VARIANT: dict[str, object] = {}  # quick pairing plays the standard 8x8 game


def create_seek(
    *,
    player: Player,
    variant: object,
    color: str,
    time_control: str | None,
    rated: bool,
    rating_range: int | None = None,
) -> Seek:
    """Offer a room in the lobby: the seeker takes the ``color`` seat (or a random one); with a
    ``rating_range``, only players rated within that many points of the seeker may take it.
    A player has at most ``policy.OPEN_SEEKS_PER_PLAYER`` open seeks."""
    refuse_bots(player)
    if rating_range is not None and player.user_id is None:
        raise Forbidden("rating_range_needs_account", field="rating_range")
    with transaction.atomic():
        _refuse_too_many_seeks(player=player)
        room = rooms.create_room(
            player=player,
            variant=variant,
            seats=None,
            time_control=time_control,
            rated=rated,
            color=color,
        )
        seek = Seek.objects.create(room=room, rating_range=rating_range)
        events.publish_lobby()
    return seek


def accept_seek(*, player: Player, seek_id: str) -> Room:
    """Take a free seat of an open seek; the last one starts the game (and closes the seek)."""
    refuse_bots(player)
    with transaction.atomic():
        seek = _locked_seek(seek_id)
        game = seek.room.game
        if any(player.holds(seat) for seat in game.seats.all()):
            raise ServiceError("own_seek" if _offered_by(seek.room, player) else "already_seated")
        if game.status != Game.Status.WAITING:
            raise Conflict("seek_taken")
        if not in_rating_range(seek, player=player, rating_range=None):
            raise ServiceError("outside_rating_range", limit=seek.rating_range)
        room = rooms.join_room(player=player, code=seek.room.code)
        started = room.game.status != Game.Status.WAITING
        events.publish_lobby(accepted=seek.public_id if started else None)
    return room


def cancel_seek(*, player: Player, seek_id: str) -> None:
    """The seeker takes their seek back before it is accepted (its waiting room goes too)."""
    with transaction.atomic():
        seek = _locked_seek(seek_id)
        room = seek.room
        if not _offered_by(room, player):
            raise Forbidden("not_your_seek")
        if room.game.status != Game.Status.WAITING:
            raise Conflict("seek_taken")
        room.game.delete()  # the room and the seek with it; the game never started
        events.publish_lobby()


def quick_pairing(
    *, player: Player, time_control: str | None, rated: bool, rating_range: int | None = None
) -> tuple[Room, bool]:
    """Accept the oldest open standard 2-player seek of the same time control and rating kind
    from someone else (both rated within the ``rating_range`` of each, when either asks for one),
    or else offer one with a random colour. Returns the room and whether a game started."""
    refuse_bots(player)
    if rating_range is not None and player.user_id is None:
        raise Forbidden("rating_range_needs_account", field="rating_range")
    for seek in selectors.matching_seeks(player, time_control=time_control, rated=rated):
        if not in_rating_range(seek, player=player, rating_range=rating_range):
            continue
        try:
            return accept_seek(player=player, seek_id=seek.public_id), True
        except (Conflict, NotFound):
            continue  # taken meanwhile: try the next
    seek = create_seek(
        player=player,
        variant=QUICK_VARIANT,
        color="random",
        time_control=time_control,
        rated=rated,
        rating_range=rating_range,
    )
    return seek.room, False


def refuse_bots(player: Player) -> None:
    """Bots meet people by challenge only (lichess's rule): 403 ``bot_uses_challenges``."""
    if bots_among([player.user_id]):
        raise Forbidden("bot_uses_challenges")


def in_rating_range(seek: Seek, *, player: Player, rating_range: int | None) -> bool:
    """Whether ``player`` and the seeker are rated within the seek's range and ``rating_range``
    of each other (in the seek's speed class); a range asks for two ratings."""
    limits = [limit for limit in (seek.rating_range, rating_range) if limit is not None]
    if not limits:
        return True
    speed = speed_of(seek.room.game.time_control)
    mine = rating_of(player.user_id, speed)
    theirs = rating_of(seek.room.owner_user_id, speed)
    return mine is not None and theirs is not None and abs(mine - theirs) <= min(limits)


def _offered_by(room: Room, player: Player) -> bool:
    return (room.owner_user_id, room.owner_guest_id) == (player.user_id, player.guest_id)


def _refuse_too_many_seeks(*, player: Player) -> None:
    """``Conflict`` when the player already has the most open seeks allowed (serialised per
    player, so concurrent offers cannot all slip through)."""
    steps.serialise(purpose="seeks", key=player)
    open_seeks = Seek.objects.filter(
        room__owner_user_id=player.user_id,
        room__owner_guest_id=player.guest_id,
        room__game__status=Game.Status.WAITING,
    ).count()
    if open_seeks >= policy.OPEN_SEEKS_PER_PLAYER:
        raise Conflict("too_many_seeks", limit=policy.OPEN_SEEKS_PER_PLAYER)


def _locked_seek(seek_id: str) -> Seek:
    seek = Seek.objects.select_related("room").filter(public_id=seek_id).first()
    if seek is None:
        raise NotFound("seek_not_found")
    seek.room.game = steps.locked_game(game_id=seek.room.game_id)
    return seek

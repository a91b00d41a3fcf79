"""The game state's player cards: each seated account's rating in the game's class, whether it
is provisional, and, once a rated game has finished, how the game changed it."""

import pytest

from games import presenters
from games.accounts.models import TABLES, PlayerRating, RatingChange
from games.models import Game
from games.services import games, rooms
from tests.games.accounts.conftest import play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db


def seat_ratings(game: Game) -> dict[str, dict | None]:
    game.refresh_from_db()
    return {seat["color"]: seat["rating"] for seat in presenters.game_state(game)["seats"]}


def test_cards_show_each_account_rating_and_the_change_after_a_rated_game(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    PlayerRating.objects.create(user_id=bob.user_id, pool="untimed", rating=1712.4, deviation=80)
    game = room_game(alice, bob)

    assert seat_ratings(game) == {
        "black": {"value": 1500, "provisional": True, "change": None},
        "white": {"value": 1712, "provisional": False, "change": None},
    }
    play_out(game, BLACK_WIPES_OUT, {0: alice, 1: bob})

    after = seat_ratings(game)
    alice_change = RatingChange.objects.get(game=game, user_id=alice.user_id).delta
    bob_change = RatingChange.objects.get(game=game, user_id=bob.user_id).delta
    assert alice_change > 0 > bob_change
    assert after["black"] == {
        "value": 1500 + alice_change,
        "provisional": True,
        "change": alice_change,
    }
    assert after["white"]["change"] == bob_change
    assert after["white"]["value"] == round(PlayerRating.objects.get(user_id=bob.user_id).rating)


def test_the_rating_is_of_the_game_class_and_none_for_the_cpu(make_player) -> None:
    alice = make_player("alice")
    PlayerRating.objects.create(user_id=alice.user_id, pool="blitz", rating=1640, deviation=70)
    PlayerRating.objects.create(user_id=alice.user_id, pool="untimed", rating=1390, deviation=70)
    game = games.create_cpu_game(
        player=alice, variant={}, level="easy", color="black", undo_allowed=False, rated=False
    )
    games.resign(player=alice, game_id=game.pk)

    # A casual game changes nothing, so its finished cards show no change.
    assert seat_ratings(game) == {
        "black": {"value": 1390, "provisional": False, "change": None},
        "white": None,
    }
    blitz = room_game(alice, make_player("bob"), time_control="3+2")
    assert seat_ratings(blitz)["black"]["value"] == 1640


def test_a_table_shows_the_tables_rating(make_player) -> None:
    alice, bob, carol = (make_player(name) for name in ("alice", "bob", "carol"))
    PlayerRating.objects.create(user_id=carol.user_id, pool=TABLES, rating=1810, deviation=90)
    room = rooms.create_room(
        player=alice, variant={"players": 3}, seats=None, time_control=None, rated=True
    )
    rooms.join_room(player=bob, code=room.code)
    rooms.join_room(player=carol, code=room.code)

    ratings = seat_ratings(Game.objects.get(pk=room.game_id))
    assert ratings["black"]["value"] == 1500
    assert [rating["value"] for rating in ratings.values()][-1] == 1810

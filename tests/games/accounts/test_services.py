"""Elo ratings: changed exactly once when a rated game finishes, never for unrated games."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.accounts.models import PlayerRating, RatingChange
from games.accounts.selectors import rating_of
from games.accounts.services import expected_score, new_rating, rate_finished_game
from games.identity import Player
from games.models import Game
from games.public import FinishedGame, FinishedSeat
from games.services import games, presence, rooms
from tests.games.accounts.conftest import DRAW_ON_6X6, play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db


def counts(player: Player) -> tuple[int, int, int, int, int]:
    rating = PlayerRating.objects.get(user_id=player.user_id)
    return rating.rating, rating.played, rating.won, rating.lost, rating.drawn


def test_elo_expected_scores_add_up_and_favour_the_stronger() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1700, 1500) + expected_score(1500, 1700) == pytest.approx(1)
    assert expected_score(2000, 1000) > 0.99
    assert new_rating(1500, 1500, 1.0) == 1516
    assert new_rating(1500, 1500, 0.5) == 1500
    assert new_rating(1500, 2000, 0.0) == 1498


def test_a_room_win_moves_both_ratings_once(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    assert game.status == Game.Status.FINISHED
    assert counts(alice) == (1516, 1, 1, 0, 0)
    assert counts(bob) == (1484, 1, 0, 1, 0)
    change = RatingChange.objects.get(game=game, user_id=bob.user_id)
    assert (change.rating_before, change.rating_after, change.score) == (1500, 1484, 0.0)


def test_a_draw_leaves_equal_ratings_and_counts_a_draw(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob, {"board": "6x6"}), DRAW_ON_6X6, {0: alice, 1: bob})

    assert game.result["draw"] is True
    assert counts(alice) == (1500, 1, 0, 0, 1)
    assert counts(bob) == (1500, 1, 0, 0, 1)


def test_resigning_counts_as_a_loss(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)
    games.play_move(player=alice, game_id=game.pk, notation="d3", ply=0)
    games.resign(player=alice, game_id=game.pk)

    assert counts(alice) == (1484, 1, 0, 1, 0)
    assert counts(bob) == (1516, 1, 1, 0, 0)


def test_the_next_game_starts_from_the_new_ratings(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})
    play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    assert rating_of(alice.user_id) == new_rating(1516, 1484, 1.0)
    assert counts(alice)[1:] == (2, 2, 0, 0)


def test_versus_the_cpu_the_account_plays_the_levels_fixed_rating(make_player) -> None:
    alice = make_player("alice")
    easy = games.create_cpu_game(
        player=alice, variant={}, level="easy", color="black", undo_allowed=False
    )
    play_out(easy, BLACK_WIPES_OUT, {0: alice})
    assert rating_of(alice.user_id) == 1500 + 2  # beating a 1000-rated CPU earns little

    strong = games.create_cpu_game(
        player=alice, variant={}, level="strong", color="black", undo_allowed=False
    )
    games.resign(player=alice, game_id=strong.pk)
    assert counts(alice) == (new_rating(1502, 2000, 0.0), 2, 1, 1, 0)
    assert RatingChange.objects.get(game=strong).opponent_rating == 2000


def test_finishing_again_never_counts_twice(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    seats = (FinishedSeat("black", None, alice.user_id), FinishedSeat("white", None, bob.user_id))
    finished = FinishedGame(game_id=game.pk, hot_seat=False, seats=seats, winner="black")
    rate_finished_game(finished=finished)
    rate_finished_game(finished=finished)

    assert RatingChange.objects.filter(game=game).count() == 2
    assert counts(alice) == (1516, 1, 1, 0, 0)


def test_hot_seat_games_are_not_rated(make_player) -> None:
    alice = make_player("alice")
    game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
    play_out(game, BLACK_WIPES_OUT, {0: alice, 1: alice})

    assert not RatingChange.objects.exists()
    assert rating_of(alice.user_id) == 1500


def test_games_with_a_guest_are_not_rated(make_player) -> None:
    alice, guest = make_player("alice"), Player(guest_id="a-guest-browser")
    play_out(room_game(alice, guest), BLACK_WIPES_OUT, {0: alice, 1: guest})
    cpu_game = games.create_cpu_game(
        player=guest, variant={}, level="easy", color="black", undo_allowed=False
    )
    play_out(cpu_game, BLACK_WIPES_OUT, {0: guest})

    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()


def test_three_player_games_are_not_rated(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    room = rooms.create_room(
        player=alice,
        variant={"players": 3},
        seats=[rooms.SeatSpec("human"), rooms.SeatSpec("human"), rooms.SeatSpec("cpu", "easy")],
    )
    rooms.join_room(player=bob, code=room.code)
    games.resign(player=alice, game_id=room.game_id)

    assert Game.objects.get(pk=room.game_id).status == Game.Status.FINISHED
    assert not RatingChange.objects.exists()


def test_a_room_the_cpu_took_over_is_rated_against_that_level(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)
    game.seats.filter(color=1).update(absent_since=timezone.now() - timedelta(minutes=3))
    presence.take_over_seat(player=alice, game_id=game.pk, color="white", level="strong")
    games.resign(player=alice, game_id=game.pk)

    [change] = RatingChange.objects.filter(game=game)
    assert (change.user_id, change.opponent_rating) == (alice.user_id, 2000)
    assert counts(alice) == (1498, 1, 0, 1, 0)
    assert not PlayerRating.objects.filter(user_id=bob.user_id).exists()

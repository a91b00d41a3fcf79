"""Ratings: Glicko-2 per time class for 2 players, OpenSkill for 3-4 player tables; changed
exactly once when a rated game finishes, never for casual games or games with hints or undo."""

from datetime import timedelta

import glicko2
import pytest
from django.utils import timezone

from ai_worker.engine import Board
from games import policy
from games.accounts.models import TABLES, PlayerRating, RatingChange
from games.accounts.selectors import rating_of
from games.accounts.services import (
    PROVISIONAL_DEVIATION,
    Standing,
    glicko2_update,
    is_provisional,
    rate_finished_game,
    seat_scores,
)
from games.identity import Player
from games.models import Game
from games.public import FinishedGame, FinishedSeat
from games.services import cpu, games, presence, rooms
from games.shared.errors import Forbidden
from games.shared.time_controls import TimeControl
from tests.games.accounts.conftest import DRAW_ON_6X6, play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db

START = Standing(1500.0, 350.0, 0.06)


def counts(player: Player, pool: str = "untimed") -> tuple[int, int, int, int, int]:
    rating = PlayerRating.objects.get(user_id=player.user_id, pool=pool)
    return round(rating.rating), rating.played, rating.won, rating.lost, rating.drawn


def glicko(rating: Standing, opponent: Standing, score: float) -> tuple[int, float]:
    """The rating (rounded) and deviation Glickman's example implementation gives."""
    player = glicko2.Player(rating.rating, rating.deviation, rating.volatility)
    player.update_player([opponent.rating], [opponent.deviation], [score])
    return round(player.rating), player.rd


def test_glicko2_winner_gains_what_the_loser_loses_and_both_grow_surer() -> None:
    winner, loser = glicko2_update([START, START], [1.0, 0.0])
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rating > 1600
    assert winner.deviation < 350
    assert loser.deviation < 350
    drawn = glicko2_update([START, START], [0.5, 0.5])
    assert [standing.rating for standing in drawn] == [pytest.approx(1500)] * 2
    favourite, _outsider = glicko2_update([Standing(1900, 60, 0.06), START], [1.0, 0.0])
    assert favourite.rating - 1900 < 5  # beating a weaker player earns little


def test_scores_and_the_provisional_marker() -> None:
    assert seat_scores((1, 2)) == [1.0, 0.0]
    assert seat_scores((1, 1)) == [0.5, 0.5]
    assert seat_scores((2, 1, 3)) == [0.5, 1.0, 0.0]
    assert seat_scores((1, 1, 3, 4)) == [pytest.approx(2.5 / 3)] * 2 + [pytest.approx(1 / 3), 0.0]
    assert is_provisional(350.0)
    assert not is_provisional(PROVISIONAL_DEVIATION)


def test_a_room_win_moves_both_ratings_once(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    assert game.status == Game.Status.FINISHED
    won, won_deviation = glicko(START, START, 1.0)
    lost, _ = glicko(START, START, 0.0)
    assert counts(alice) == (won, 1, 1, 0, 0)
    assert counts(bob) == (lost, 1, 0, 1, 0)
    change = RatingChange.objects.get(game=game, user_id=bob.user_id)
    assert (change.rating_before, round(change.rating_after), change.score) == (1500, lost, 0.0)
    assert (change.pool, change.opponent_rating) == ("untimed", 1500)
    alice_rating = PlayerRating.objects.get(user_id=alice.user_id)
    assert alice_rating.deviation == pytest.approx(won_deviation)
    assert is_provisional(alice_rating.deviation)


def test_a_rated_blitz_game_moves_the_blitz_ratings_only(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob, time_control="3+2"), BLACK_WIPES_OUT, {0: alice, 1: bob})

    won, _ = glicko(START, START, 1.0)
    assert game.result["reason"] == "end"
    assert counts(alice, "blitz") == (won, 1, 1, 0, 0)
    assert rating_of(alice.user_id, "blitz") == won
    assert rating_of(alice.user_id) == 1500  # the untimed class is untouched
    assert not PlayerRating.objects.filter(pool="untimed").exists()
    assert RatingChange.objects.get(game=game, user_id=bob.user_id).pool == "blitz"


def test_each_time_control_is_rated_in_its_own_class() -> None:
    classes = {
        text: policy.time_class(TimeControl.parse(text))
        for text in ("1+0", "3+2", "5+3", "10+0", "3d")
    }
    assert classes == {
        "1+0": "bullet",
        "3+2": "blitz",
        "5+3": "blitz",
        "10+0": "rapid",
        "3d": "correspondence",
    }
    assert policy.time_class(None) == "untimed"
    assert "correspondence" in policy.TIME_CLASSES


def test_a_draw_leaves_equal_ratings_and_counts_a_draw(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob, {"board": "6x6"}), DRAW_ON_6X6, {0: alice, 1: bob})

    assert game.result["draw"] is True
    assert counts(alice) == (1500, 1, 0, 0, 1)
    assert counts(bob) == (1500, 1, 0, 0, 1)


def test_resigning_counts_as_a_loss(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)
    games.play_move(player=alice, public_id=game.public_id, notation="d3", ply=0)
    games.play_move(
        player=bob, public_id=game.public_id, notation="c5", ply=1
    )  # rated once both moved
    games.resign(player=alice, game_id=game.pk)

    lost, _ = glicko(START, START, 0.0)
    assert counts(alice) == (lost, 1, 0, 1, 0)
    assert counts(bob)[1:] == (1, 1, 0, 0)


def test_the_next_game_starts_from_the_new_ratings(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})
    first = PlayerRating.objects.get(user_id=alice.user_id)
    second = PlayerRating.objects.get(user_id=bob.user_id)
    play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    expected, _ = glicko(
        Standing(first.rating, first.deviation, first.volatility),
        Standing(second.rating, second.deviation, second.volatility),
        1.0,
    )
    assert rating_of(alice.user_id) == expected
    assert counts(alice)[1:] == (2, 2, 0, 0)


def test_versus_the_cpu_the_account_plays_the_levels_fixed_rating(make_player) -> None:
    alice = make_player("alice")
    easy = games.create_cpu_game(
        player=alice, variant={}, level="easy", color="black", undo_allowed=False, rated=True
    )
    play_out(easy, BLACK_WIPES_OUT, {0: alice})
    after_easy = PlayerRating.objects.get(user_id=alice.user_id)
    assert round(after_easy.rating) == glicko(START, Standing(1000, 60, 0.06), 1.0)[0]

    strong = games.create_cpu_game(
        player=alice, variant={}, level="strong", color="black", undo_allowed=False, rated=True
    )
    games.resign(player=alice, game_id=strong.pk)
    before = Standing(after_easy.rating, after_easy.deviation, after_easy.volatility)
    expected, _ = glicko(before, Standing(2000, 60, 0.06), 0.0)
    assert counts(alice) == (expected, 2, 1, 1, 0)
    assert RatingChange.objects.get(game=strong).opponent_rating == 2000


def test_casual_games_and_games_with_hints_or_undo_are_never_rated(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    casual = games.create_cpu_game(
        player=alice, variant={}, level="easy", color="black", undo_allowed=True
    )
    play_out(casual, BLACK_WIPES_OUT, {0: alice})
    hinted = games.create_cpu_game(
        player=alice, variant={}, level="easy", color="black", undo_allowed=False
    )
    cpu.request_hint(player=alice, game_id=hinted.pk)
    play_out(hinted, BLACK_WIPES_OUT, {0: alice})
    casual_room = rooms.create_room(player=alice, variant={}, seats=None, rated=False)
    rooms.join_room(player=bob, code=casual_room.code)
    play_out(Game.objects.get(pk=casual_room.game_id), BLACK_WIPES_OUT, {0: alice, 1: bob})

    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()


def test_a_rated_game_that_somehow_recorded_a_hint_is_not_rated(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(hint_count=1)  # e.g. a row from before the rule
    play_out(game, BLACK_WIPES_OUT, {0: alice, 1: bob})

    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert not RatingChange.objects.exists()


def test_finishing_again_never_counts_twice(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    seats = (FinishedSeat("black", None, alice.user_id), FinishedSeat("white", None, bob.user_id))
    finished = FinishedGame(
        game_id=game.pk, hot_seat=False, seats=seats, winner="black", rated=True, ranks=(1, 2)
    )
    rate_finished_game(finished=finished)
    rate_finished_game(finished=finished)

    assert RatingChange.objects.filter(game=game).count() == 2
    assert counts(alice) == (glicko(START, START, 1.0)[0], 1, 1, 0, 0)


def test_hot_seat_games_are_not_rated(make_player) -> None:
    alice = make_player("alice")
    game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
    play_out(game, BLACK_WIPES_OUT, {0: alice, 1: alice})

    assert not RatingChange.objects.exists()
    assert rating_of(alice.user_id) == 1500


def test_games_with_a_guest_are_not_rated(make_player) -> None:
    alice, guest = make_player("alice"), Player(guest_id="a-guest-browser")
    with pytest.raises(Forbidden):  # a rated room takes accounts only
        room_game(alice, guest)
    casual = rooms.create_room(player=alice, variant={}, seats=None)
    rooms.join_room(player=guest, code=casual.code)
    play_out(Game.objects.get(pk=casual.game_id), BLACK_WIPES_OUT, {0: alice, 1: guest})
    cpu_game = games.create_cpu_game(
        player=guest, variant={}, level="easy", color="black", undo_allowed=False, rated=True
    )
    play_out(cpu_game, BLACK_WIPES_OUT, {0: guest})

    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()


def test_three_player_tables_are_rated_with_openskill_by_place(make_player) -> None:
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    room = rooms.create_room(player=alice, variant={"players": 3}, seats=None, rated=True)
    rooms.join_room(player=bob, code=room.code)
    rooms.join_room(player=carol, code=room.code)
    for ply, player in enumerate((alice, bob, carol)):  # rated once everyone has moved
        board = Board.from_text(Game.objects.get(pk=room.game_id).position)
        games.play_move(
            player=player,
            public_id=room.game.public_id,
            notation=str(board.legal_moves[0]),
            ply=ply,
        )
    games.resign(player=alice, game_id=room.game_id)

    game = Game.objects.get(pk=room.game_id)
    assert game.status == Game.Status.FINISHED
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert set(changes) == {alice.user_id, bob.user_id, carol.user_id}
    assert {change.pool for change in changes.values()} == {TABLES}
    assert changes[alice.user_id].score == 0.0  # resigned: last
    assert changes[alice.user_id].rating_after < 1500
    assert min(changes[bob.user_id].rating_after, changes[carol.user_id].rating_after) > 1500
    assert changes[alice.user_id].opponent_rating is None
    assert not PlayerRating.objects.filter(pool="untimed").exists()
    assert counts(alice, TABLES)[1:] == (1, 0, 1, 0)


def test_a_room_the_cpu_took_over_is_rated_against_that_level(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)
    game.seats.filter(color=1).update(absent_since=timezone.now() - timedelta(minutes=3))
    presence.take_over_seat(player=alice, game_id=game.pk, color="white", level="strong")
    games.resign(player=alice, game_id=game.pk)

    [change] = RatingChange.objects.filter(game=game)
    assert (change.user_id, change.opponent_rating) == (alice.user_id, 2000)
    assert counts(alice) == (glicko(START, Standing(2000, 60, 0.06), 0.0)[0], 1, 0, 1, 0)
    assert not PlayerRating.objects.filter(user_id=bob.user_id).exists()

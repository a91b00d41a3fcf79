"""The CPU's turns and hints: storing what the workers found, asking for a hint, and queueing
again a CPU turn whose task was lost."""

from django.db import transaction
from django.utils import timezone

from ai_worker.engine import COLOR_NAMES, Board
from ai_worker.levels import HINT_LEVEL
from games import policy, selectors
from games.identity import Player
from games.models import Game
from games.services import clocks, events, games, steps
from games.shared.errors import ServiceError


def apply_cpu_move(*, game_id: int, ply: int, position: str, notation: str) -> bool:
    """Store the CPU's move searched in ``position`` at ``ply``; stale or repeated does nothing.

    The position guards against an undo followed by other moves back to the same ply; a CPU
    out of time loses on time instead. The flag is read from the locked row (no look of its
    own before the lock: one query less per reply, as for a person's move).
    """
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        flag_fell = clocks.out_of_time(game, timezone.now())
        board = Board.from_text(game.position)
        turn = game.ply == ply and game.position == position and selectors.cpu_to_move(game, board)
        if turn and not flag_fell:
            games.play(game=game, board=board, move=games.parse_move(notation=notation))
            steps.commit(game=game, board=board, kind="move", fields=games.PLAY_FIELDS)
            return True
    if flag_fell:  # ends on time in a transaction of its own, as ``games.play_move``
        games.end_if_out_of_time(game_id=game_id)
    return False


def request_hint(*, player: Player, game_id: int) -> Game:
    """G2: ask a worker for the strong CPU's move in the current position (counted once per ply;
    asked again while it is pending, the search is sent again)."""
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        mine = steps.colors_of(game=game, player=player)
        if game.mode == Game.Mode.ROOM:
            raise ServiceError("hint_not_available")
        if game.rated:
            raise ServiceError("rated_no_hint")
        steps.require_active(game=game)
        board = Board.from_text(game.position)
        if board.turn not in mine:
            raise ServiceError("not_your_turn", color=COLOR_NAMES[board.turn])
        if game.hint and game.hint["ply"] == game.ply:
            if not game.hint["move"]:  # asked again while pending: its task may have been lost
                events.send_search(game=game, search=events.Search(events.HINT_TASK, HINT_LEVEL))
            return game
        game.hint = {"ply": game.ply, "move": None}
        game.hint_count += 1
        steps.commit(
            game=game,
            board=board,
            kind="hint",
            fields=("hint", "hint_count"),
            search=events.Search(events.HINT_TASK, HINT_LEVEL),
        )
    return game


def store_hint(
    *, game_id: int, ply: int, position: str, notation: str, score: float, exact: bool
) -> bool:
    """Store the hint searched in ``position`` at ``ply`` with its expected final disc
    difference (``score``, exact or estimated) for the side to move; stale or repeated does
    nothing."""
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        pending = game.hint and game.hint["ply"] == ply and not game.hint["move"]
        if game.ply != ply or game.position != position or not pending:
            return False
        game.hint = {"ply": ply, "move": notation, "score": score, "exact": exact}
        steps.commit(game=game, board=Board.from_text(game.position), kind="hint", fields=["hint"])
    return True


def watched_game(*, game_id: int) -> Game:
    """A game someone reads (the API's ``GET``, a websocket's state): a game whose player to move
    has run out of time ends on time first, and a stalled CPU turn is queued again. The one read
    that may write."""
    if games.end_if_out_of_time(game_id=game_id):
        return selectors.game(game_id)
    game = selectors.game(game_id)
    if selectors.cpu_turn_stalled(game):
        requeue_stalled_cpu_turn(game_id=game.pk)
    return game


def requeue_stalled_cpu_turn(*, game_id: int) -> bool:
    """Queue the CPU again when its turn has waited too long (a lost task must not stall), or
    was held back by the per-player limit that now lets it go."""
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        if not selectors.cpu_turn_stalled(game) or not selectors.may_queue_search(game):
            return False
        game.cpu_queued_at = timezone.now()
        board = Board.from_text(game.position)
        events.send_search(
            game=game,
            search=events.Search(events.CPU_MOVE_TASK, selectors.level_to_move(game, board)),
        )
        game.save(update_fields=["cpu_queued_at"])
    return True


def requeue_stalled_cpu_turns() -> int:
    """The safety net for lost CPU tasks that nobody's reading of the game has noticed: queue the
    CPU again in every game where its turn has stalled; returns how many were queued."""
    return sum(
        requeue_stalled_cpu_turn(game_id=game_id) for game_id in selectors.stalled_cpu_game_ids()
    )


def queue_waiting_turns(*, players: list[Player], answered: int) -> None:
    """A search of these players was answered in the game ``answered``: queue their other CPU
    turns that waited for it (the longest waiting first) while they are under
    ``QUEUED_SEARCHES_PER_PLAYER``. The answered game is not one of them: a turn of its own held
    back now is held by the same limit (and its lock taken again for nothing cost every reply
    three queries)."""
    for player in players:
        for game_id in selectors.waiting_cpu_game_ids(player, besides=answered):
            if selectors.queued_searches(player) >= policy.QUEUED_SEARCHES_PER_PLAYER:
                break
            requeue_stalled_cpu_turn(game_id=game_id)

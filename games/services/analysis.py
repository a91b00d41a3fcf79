"""Analyses of a game's positions (issue 12 §3): asking for one, and storing what the worker
found. A worker fills it in with ``ai_worker.search.analyse`` (``games.tasks.analyse_position``,
queued below every live move); the request never waits for it."""

from django.db import transaction
from django.utils import timezone

from ai_worker.search import Analysis
from games import selectors
from games.identity import Player
from games.models import Game, PositionAnalysis
from games.services import events, steps
from games.shared.errors import ServiceError


def request_analysis(*, player: Player, game_id: int, ply: int | None) -> PositionAnalysis:
    """Ask for the value of every legal move at ``ply`` (default: the current position) of a
    game the player sits in. Refused in an online room's game until it has ended; while the game
    is on, an analysis counts as a hint (so a rated game refuses it). Asking again for the same
    position gives the same analysis (pending or done)."""
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        steps.colors_of(game=game, player=player)
        if game.status == Game.Status.WAITING:
            raise ServiceError("waiting_for_players")
        active = game.status == Game.Status.ACTIVE
        if active and game.mode == Game.Mode.ROOM:
            raise ServiceError("analysis_not_available")
        if active and game.rated:
            raise ServiceError("rated_no_hint")
        ply = game.ply if ply is None else ply
        if ply > game.ply:
            raise ServiceError("ply_out_of_range", field="ply", last=game.ply)
        board = selectors.board_at(game, ply)
        if board.is_game_over():
            raise ServiceError("nothing_to_analyse", field="ply", ply=ply)
        position = board.to_text()
        analysis, created = PositionAnalysis.objects.select_for_update().get_or_create(
            game=game, ply=ply, defaults={"position": position}
        )
        if not created and analysis.position == position:
            return analysis
        if not created:  # an undo and other moves changed the position of this ply
            analysis.position = position
            analysis.status = PositionAnalysis.Status.PENDING
            analysis.moves, analysis.depth, analysis.exact = [], 0, False
            analysis.finished_at = None
            analysis.save()
        if active:
            game.hint_count += 1
            game.save(update_fields=["hint_count"])
        events.send_analysis(analysis_id=analysis.pk)
    return analysis


def store_analysis(*, analysis_id: int, position: str, found: Analysis) -> bool:
    """Store the worker's ``found`` values for ``position``; a stale or repeated one does
    nothing (False)."""
    with transaction.atomic():
        analysis = PositionAnalysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.position != position:
            return False
        if analysis.status == PositionAnalysis.Status.DONE:
            return False
        analysis.moves = [
            {"move": str(scored.move), "score": scored.score, "exact": scored.exact}
            for scored in found.moves
        ]
        analysis.depth, analysis.exact = found.depth, found.exact
        analysis.status = PositionAnalysis.Status.DONE
        analysis.finished_at = timezone.now()
        analysis.save()
    return True

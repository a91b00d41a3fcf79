"""Celery tasks: the CPU's move, the hint, analyses of a position, the post-game review of one
move and the flag checks of clocks (the ``cpu`` queue; thin wrappers), and the sweeps of stalled
CPU turns and of overdue clocks (the default
queue, every few seconds by Celery beat).

The search runs outside any database lock; the result is stored by a service that locks the
game again and re-checks the ply, so a stale or repeated task does nothing. Their names are
``games.tasks.cpu_move``, ``games.tasks.hint``, ``games.tasks.analyse_position`` and
``games.tasks.review_move``, ``games.tasks.flag`` (``games.services.events`` sends them);
``games.tasks.flag_overdue_games`` and ``games.tasks.announce_online`` (who is online, to the
lobby) run on Celery beat.
"""

import logging
import time

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.db import InterfaceError, OperationalError

from ai_worker import review
from ai_worker.engine import Board
from ai_worker.search import SearchResult, analyse, choose_move, warmup
from games import policy, selectors
from games.services import analysis, cpu, games, reviews, watching
from reversi_site.process import freeze_what_is_loaded

SOFT_TIME_LIMIT = 20
HARD_TIME_LIMIT = 30
# A database error mid-task (PostgreSQL restarting, a lock wait cut short) retries the task with
# exponential back-off (1, 2, 4 ... at most 30 s, jittered); a repeat applies nothing twice.
SEARCH_TASK_OPTIONS: dict = {
    "soft_time_limit": SOFT_TIME_LIMIT,
    "time_limit": HARD_TIME_LIMIT,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "max_retries": 8,
}

logger = logging.getLogger(__name__)


@worker_process_init.connect
def warm_up_search(**kwargs: object) -> None:
    """Load the numba kernels in each worker process (from the cache ``make run`` builds), then
    put what is loaded out of the garbage collector's reach (``freeze_what_is_loaded``)."""
    logger.info("numba kernels ready in %.2f s", warmup())
    freeze_what_is_loaded()


@worker_ready.connect
def requeue_stalled_cpu_turns_at_start(**kwargs: object) -> None:
    """A starting worker queues again the CPU turns whose task was lost (e.g. while none ran)."""
    logger.info("%d stalled CPU turns queued again", cpu.requeue_stalled_cpu_turns())


@shared_task(time_limit=HARD_TIME_LIMIT)
def sweep_stalled_cpu_turns() -> int:
    """The periodic sweep (Celery beat, ``CELERY_BEAT_SCHEDULE``): queue again every CPU turn
    whose task was lost; how many were queued."""
    queued = cpu.requeue_stalled_cpu_turns()
    if queued:
        logger.warning("%d stalled CPU turns queued again", queued)
    return queued


def _search(job: selectors.SearchJob, purpose: str, game_id: int, ply: int) -> SearchResult:
    """``job``'s search, logged with its figures: nodes per CPU-second of this worker's thread
    and per wall-second (they differ by the share of a core the machine leaves it)."""
    started = time.thread_time()
    result = choose_move(job.board, job.level, seed=job.seed)
    cpu_seconds = time.thread_time() - started
    logger.info(
        "%s %s of game %d ply %d: %s, depth %d, %d nodes, CPU %.3f s, wall %.3f s",
        job.level, purpose, game_id, ply, result.move, result.depth, result.nodes,
        cpu_seconds, result.elapsed,
    )  # fmt: skip
    return result


@shared_task(**SEARCH_TASK_OPTIONS)
def cpu_move(game_id: int, ply: int) -> bool:
    """Play the CPU's move of game ``game_id`` at ``ply``; False when that turn is gone."""
    job = selectors.cpu_job(game_id, ply)
    if job is None:
        return False
    result = _search(job, "move", game_id, ply)
    return cpu.apply_cpu_move(
        game_id=game_id, ply=ply, position=job.position, notation=str(result.move)
    )


@shared_task(**SEARCH_TASK_OPTIONS)
def hint(game_id: int, ply: int) -> bool:
    """Compute the hint pending at ``ply`` (the strong CPU's move); False when it is stale."""
    job = selectors.hint_job(game_id, ply)
    if job is None:
        return False
    result = _search(job, "hint", game_id, ply)
    return cpu.store_hint(
        game_id=game_id,
        ply=ply,
        position=job.position,
        notation=str(result.move),
        score=result.score,
        exact=result.exact,
    )


@shared_task(**SEARCH_TASK_OPTIONS)
def flag(game_id: int, ply: int) -> bool:
    """The server's flag check of game ``game_id``'s turn at ``ply``, due when the mover's time
    runs out: ends the game on time; False when that turn was played meanwhile."""
    return games.end_if_out_of_time(game_id=game_id, ply=ply)


@shared_task(time_limit=HARD_TIME_LIMIT)
def flag_overdue_games() -> int:
    """Celery beat's sweep (``settings.CELERY_BEAT_SCHEDULE``): end on time every game whose
    player to move ran out without a flag check (a lost task, or a far-off correspondence one)."""
    return games.end_overdue_games()


@shared_task(time_limit=HARD_TIME_LIMIT)
def announce_online() -> bool:
    """Celery beat's push of who is online to the lobby viewers, when it changed."""
    return watching.announce_online()


@shared_task(**SEARCH_TASK_OPTIONS)
def analyse_position(analysis_id: int) -> bool:
    """Score every legal move of a pending analysis; False when it is done or stale."""
    job = selectors.analysis_job(analysis_id)
    if job is None:
        return False
    found = analyse(Board.from_text(job.position))
    return analysis.store_analysis(analysis_id=analysis_id, position=job.position, found=found)


@shared_task(**SEARCH_TASK_OPTIONS)
def review_move(game_id: int, ply: int) -> bool:
    """Review the move at ``ply`` of a finished game and queue the next one; False when that
    move is not the next to review (stale or repeated)."""
    job = selectors.review_job(game_id, ply)
    if job is None:
        return False
    reviewed = review.review_move(
        job.board,
        job.move,
        ply=ply,
        time_limit=policy.REVIEW_SECONDS_PER_MOVE,
        exact_empties=policy.REVIEW_EXACT_EMPTIES,
        exact_time_limit=policy.REVIEW_EXACT_SECONDS,
    )
    return reviews.store_move(game_id=game_id, ply=ply, entry=reviewed.to_json())

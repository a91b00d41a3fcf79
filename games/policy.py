"""The service's own rules, which are not the game's (those belong to the engine): when a seat
may be taken over, when a CPU turn counts as lost, how CPU tasks are prioritised (the levels
themselves are ``ai_worker.levels``). Services enforce them; presenters tell the page what
follows from them."""

from datetime import datetime, timedelta

from ai_worker.levels import EASY, NORMAL, STRONG

ABSENCE_BEFORE_TAKEOVER = timedelta(minutes=2)  # M3: a player away this long may be replaced
CPU_TURN_STALLED_AFTER = timedelta(seconds=60)  # a CPU turn without its move is queued again

# Redis broker priorities, 0 served first: a quick easy or normal reply never waits in the CPU
# queue behind strong searches of 1.5 s. A game has at most one CPU task in flight, so a strong
# game waits only for the quick tasks already queued, never starves.
TASK_PRIORITY_BY_LEVEL = {EASY: 0, NORMAL: 3, STRONG: 6}
# The levels searched on the strong queue (settings.CELERY_STRONG_QUEUE, its own worker): a
# strong search (and a hint, which is one) never holds a worker process that a quick level needs.
STRONG_QUEUE_LEVELS = frozenset({STRONG})
# A player's CPU searches queued at once (over all their games): more CPU turns wait, oldest
# first, until one of them is answered, so one client's flood of games never slows another's.
QUEUED_SEARCHES_PER_PLAYER = 2


def takeover_allowed_at(absent_since: datetime) -> datetime:
    """When the CPU may take the seat of a player away since ``absent_since``."""
    return absent_since + ABSENCE_BEFORE_TAKEOVER

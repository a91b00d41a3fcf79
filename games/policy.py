"""The service's own rules, which are not the game's (those belong to the engine): when a seat
may be taken over, when a CPU turn counts as lost, how CPU and flag tasks are prioritised (the
levels themselves are ``ai_worker.levels``), when a game may be aborted or drawn by agreement.
Services enforce them; presenters tell the page what follows from them."""

from datetime import datetime, timedelta

from ai_worker.levels import EASY, NORMAL, STRONG
from games.shared.time_controls import SPEEDS, TimeControl

ABSENCE_BEFORE_TAKEOVER = timedelta(minutes=2)  # M3: a player away this long may be replaced
# A move over HTTP renews its seats' absence clock when it was last renewed longer ago than
# this (not one UPDATE per move): a player who moves only over HTTP may be taken over at most
# this much before ABSENCE_BEFORE_TAKEOVER has passed since their last move.
SEEN_RENEWED_AFTER = timedelta(seconds=5)
# A CPU turn without its move this long is queued again (its task was lost: a worker killed, a
# Redis restart, a send while Redis was down); the sweep looks every STALLED_TURN_SWEEP_EVERY, so
# a lost turn moves again within 15 s. A repeated task costs nothing: the first to finish plays,
# the other finds its ply gone (and a strong search takes 1.5 s, far below this).
CPU_TURN_STALLED_AFTER = timedelta(seconds=10)
STALLED_TURN_SWEEP_EVERY = timedelta(seconds=5)
# A player's CPU games count as in progress while moved in the last CPU_GAME_IDLE_AFTER; at most
# settings.CPU_GAMES_IN_PROGRESS_LIMIT of them: one client must not fill the CPU queue that
# every player shares.
CPU_GAME_IDLE_AFTER = timedelta(hours=1)

# Redis broker priorities, 0 served first. Easy and normal share the quick queue in the order
# sent: both take milliseconds, and normal at 3 behind easy at 0 waited whenever easy kept the
# queue from emptying (mixed levels, 50 games: normal p50 4.3 s against easy's 0.2 s). Strong
# searches and hints (their own queue, STRONG_QUEUE_LEVELS) come before analyses and reviews.
TASK_PRIORITY_BY_LEVEL = {EASY: 0, NORMAL: 0, STRONG: 6}
# The levels searched on the strong queue (settings.CELERY_STRONG_QUEUE, its own worker): a
# strong search (and a hint, which is one) never holds a worker process that a quick level needs.
STRONG_QUEUE_LEVELS = frozenset({STRONG})
# A player's CPU searches queued at once (over all their games): more CPU turns wait, oldest
# first, until one of them is answered, so one client's flood of games never slows another's.
QUEUED_SEARCHES_PER_PLAYER = 2
# Analyses of a position (issue 12 §3) and post-game reviews (issue 14 §5, one short task per
# move) run on the strong queue's worker, behind its searches and hints: never on the quick
# queue, where a running one held a process that an easy or normal reply waited for.
ANALYSIS_TASK_PRIORITY = 9
REVIEW_SECONDS_PER_MOVE = 0.5  # the search's budget for each reviewed position
REVIEW_EXACT_EMPTIES = 20  # solved exactly from this many empties down, within:
REVIEW_EXACT_SECONDS = 3.0
MISTAKE_LOSS = 4.0  # discs lost by a move that the review marks as a mistake
# Reviews asked for (an imported game, a game that ended before reviews existed) cost a strong
# worker up to a minute each: a requester (an account, else a client address) has at most this
# many under way; a review whose task has not moved for REVIEW_STALLED_AFTER (a lost task) stops
# counting. Beyond, a 429 asking to retry after REVIEW_RETRY_AFTER (about one game's review).
REVIEWS_PER_REQUESTER = 3
REVIEW_STALLED_AFTER = timedelta(minutes=10)
REVIEW_RETRY_AFTER = 60  # seconds
# A game that ends here is reviewed on its own for its first player (account or guest), within
# the same cap per player, and while the whole site has fewer than AUTOMATIC_REVIEW_BACKLOG
# reviews under way (a strong worker reviews about two games a minute): beyond, the game gets no
# review until someone asks for one, so a flood of quick games cannot fill the strong queue.
AUTOMATIC_REVIEW_BACKLOG = 20

# Clocks: the flag check of a turn is a task due at the flag (first in the queue); flags further
# off than the horizon (correspondence) are found by the periodic sweep, which also catches a
# lost check. The Redis broker redelivers a delayed task after its visibility timeout (1 h).
FLAG_TASK_PRIORITY = 0
FLAG_TASK_HORIZON = timedelta(minutes=30)
FLAG_SWEEP_EVERY = timedelta(seconds=15)
# Who is online reaches the lobby's sockets this often at most (Celery beat), when it changed.
ONLINE_ANNOUNCE_EVERY = timedelta(seconds=5)

# Streams for API clients and bots (games.api.streams): an empty line this often (seconds), and
# at most this many open at once per account (an event stream and a game stream per game).
STREAM_KEEPALIVE = 5.0
STREAMS_PER_ACCOUNT = 8

# A game socket's resyncs (games.consumers): each stale one reads and sends the whole state, so
# a socket gets at most this many in any window of this many seconds (a client resyncs on a gap
# only); beyond, an error without a read.
SOCKET_SYNCS = 10
SOCKET_SYNC_WINDOW = 10.0


def takeover_allowed_at(absent_since: datetime) -> datetime:
    """When the CPU may take the seat of a player away since ``absent_since``."""
    return absent_since + ABSENCE_BEFORE_TAKEOVER


def abort_allowed(mode: str, players: int, moved: set[int]) -> bool:
    """A room game may be aborted (ended uncounted) until every colour has placed a disc."""
    return mode == "room" and len(moved) < players


def rated_so_far(*, seats: list[str], moved: set[int]) -> bool:
    """Whether a rated game may count now: a game between people only counts once every colour
    has placed a disc (before that it could be aborted; a second account resigning at once
    would farm rating points). Games with a CPU seat count from the start."""
    return "cpu" in seats or len(moved) == len(seats)


def draw_offers_allowed(mode: str, players: int, people: int) -> bool:
    """Draws are offered and agreed between the two people of a 2-player room game."""
    return mode == "room" and players == 2 and people == 2


# Challenges (issue 14 §1): how long one waits for its addressee, by kind of clock; the reasons
# a declined one may give (shown to the challenger in their language).
CHALLENGE_EXPIRES_AFTER = timedelta(minutes=10)
CORRESPONDENCE_CHALLENGE_EXPIRES_AFTER = timedelta(days=3)
DECLINE_REASONS = ("generic", "later", "too_fast", "too_slow", "rated", "casual", "variant")

# Lobby flooding: the open seeks one player may have at once (quick pairing's included); a
# challenger has one pending challenge per addressee.
OPEN_SEEKS_PER_PLAYER = 3


def hints_allowed(*, room: bool, rated: bool) -> bool:
    """Fair play: hints only in casual games versus the CPU or hot-seat, never in rooms."""
    return not room and not rated


# Rating classes: a timed game's speed class (bullet, blitz, rapid, classical by the expected
# length initial + 40 x increment, lichess's rule; correspondence its own), ``untimed`` without
# a clock (3-4 player tables have one OpenSkill class).
UNTIMED = "untimed"
TIME_CLASSES = (*SPEEDS, UNTIMED)


def time_class(control: TimeControl | None) -> str:
    """The rating class of a 2-player game with the time ``control`` (None: untimed)."""
    return UNTIMED if control is None else control.speed

"""Database models of the game service: games, their seats and move records, friend rooms.

Only ``games.services`` changes these rows; everything else reads them (``games.selectors``).
"""

from django.conf import settings
from django.db import models

from games.shared.ids import PUBLIC_ID_LENGTH, new_public_id


class Game(models.Model):
    """A game of any variant; ``position`` is the engine's position text after ``ply`` moves.

    Outside the database a game is known only by its random ``public_id`` (URLs, answers,
    events); the primary key stays internal (foreign keys, task arguments).
    """

    class Mode(models.TextChoices):
        CPU = "cpu", "versus CPU"
        LOCAL = "local", "hot seat"
        ROOM = "room", "friend room"
        IMPORTED = "imported", "imported record"

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting for players"
        ACTIVE = "active", "active"
        FINISHED = "finished", "finished"

    public_id = models.CharField(
        max_length=PUBLIC_ID_LENGTH, unique=True, default=new_public_id, editable=False
    )
    mode = models.CharField(max_length=8, choices=Mode.choices)
    variant = models.JSONField(default=dict)
    position = models.TextField()
    start_position = models.TextField(
        blank=True, help_text="the position the game began at, when not the variant's own start"
    )
    ply = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    result = models.JSONField(null=True, blank=True)
    rated = models.BooleanField(
        default=False, help_text="a rated game offers no hint or undo (issue 10 fair play)"
    )
    undo_allowed = models.BooleanField(default=False)
    undo_count = models.PositiveIntegerField(default=0)
    hint_count = models.PositiveIntegerField(default=0)
    hint = models.JSONField(null=True, blank=True)
    seed = models.BigIntegerField()
    cpu_queued_at = models.DateTimeField(null=True, blank=True)
    # Clocks (``games.services.clocks``): the time control ("" untimed), each colour's time left
    # in milliseconds when the current turn started, when it started, and when the player to
    # move runs out of time (the server ends the game on time then).
    time_control = models.CharField(max_length=16, blank=True)
    clock_ms = models.JSONField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    flag_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The colour that offers a draw (2 players), until the other accepts, declines or moves.
    draw_offer = models.PositiveSmallIntegerField(null=True, blank=True)
    # The ply at which a draw offer was last declined: the next offer waits for a move.
    draw_declined_ply = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["status", "updated_at"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.mode}, ply {self.ply}, {self.status})"


class Seat(models.Model):
    """One colour of a game, held by an account, a guest browser, a CPU level, or nobody yet."""

    class Kind(models.TextChoices):
        HUMAN = "human", "person"
        CPU = "cpu", "CPU"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    color = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    level = models.CharField(max_length=8, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    guest_id = models.CharField(max_length=64, blank=True, db_index=True)
    name = models.CharField(
        max_length=64, blank=True, help_text="a player named by an imported record"
    )
    absent_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["color"]
        constraints = [
            models.UniqueConstraint(fields=["game", "color"], name="seat_unique_color"),
            models.CheckConstraint(
                condition=~(models.Q(kind="cpu") & models.Q(level="")),
                name="seat_cpu_has_level",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.color} of game {self.game_id}"

    @property
    def is_taken(self) -> bool:
        """Whether someone (or the CPU) sits here."""
        return self.kind == self.Kind.CPU or self.user_id is not None or bool(self.guest_id)


class Move(models.Model):
    """One entry of a game's move record; ``ply`` is the number of moves before it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    notation = models.CharField(max_length=8)
    color = models.PositiveSmallIntegerField()
    flipped = models.JSONField(default=list)
    # In a timed game: each colour's time left in milliseconds after this move (increment added).
    clock_ms = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ply"]
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="move_unique_ply")]

    def __str__(self) -> str:
        return f"{self.ply}. {self.notation} (game {self.game_id})"

    @property
    def flip_count(self) -> int:
        return len(self.flipped)


class PositionAnalysis(models.Model):
    """The engine's value of every legal move of a game's position at ``ply`` (issue 12 §3),
    asked for through the API and filled in by a worker; ``position`` is the position text
    analysed (an undo and other moves make an older analysis of the same ply stale)."""

    class Status(models.TextChoices):
        PENDING = "pending", "being computed"
        DONE = "done", "done"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    ply = models.PositiveIntegerField()
    position = models.TextField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    moves = models.JSONField(default=list)  # [{"move", "score", "exact"}], best first
    depth = models.PositiveSmallIntegerField(default=0)
    exact = models.BooleanField(default=False)
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="analysis_unique_ply")]

    def __str__(self) -> str:
        return f"Analysis of ply {self.ply} of game {self.game_id} ({self.status})"


class Room(models.Model):
    """A friend room reached by its unguessable ``code``; a rematch opens the ``rematch`` room."""

    code = models.CharField(max_length=32, unique=True)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="room")
    owner_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    owner_guest_id = models.CharField(max_length=64, blank=True)
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Room {self.code}"

    @property
    def state(self) -> str:
        """``open`` while seats are free, then ``playing``, then ``finished``."""
        return {
            Game.Status.WAITING: "open",
            Game.Status.ACTIVE: "playing",
            Game.Status.FINISHED: "finished",
        }[Game.Status(self.game.status)]


class Seek(models.Model):
    """A room offered in the lobby to anyone (issue 14 §1): listed while its game waits for
    players; accepting it takes a free seat of the room, and the last one starts the game."""

    public_id = models.CharField(
        max_length=PUBLIC_ID_LENGTH, unique=True, default=new_public_id, editable=False
    )
    room = models.OneToOneField(Room, on_delete=models.CASCADE, related_name="seek")
    # Quick pairing's: only players rated within this many points of the seeker may take it.
    rating_range = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"Seek {self.public_id}"


class Challenge(models.Model):
    """A game offered to one account by name (issue 14 §1): pending until its addressee accepts
    (a room with both seated starts), declines with a reason, or it expires."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        CANCELLED = "cancelled", "cancelled"

    public_id = models.CharField(
        max_length=PUBLIC_ID_LENGTH, unique=True, default=new_public_id, editable=False
    )
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    variant = models.JSONField(default=dict)
    color = models.CharField(max_length=8)  # the challenger's: a colour name or "random"
    time_control = models.CharField(max_length=16, blank=True)
    rated = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decline_reason = models.CharField(max_length=16, blank=True)
    room = models.OneToOneField(
        Room, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["challenged", "status"])]

    def __str__(self) -> str:
        return f"Challenge {self.public_id}"


class GameReview(models.Model):
    """The engine's review of a finished (or imported) game, one move at a time.

    ``moves`` holds one entry per analysed ply, in order: the best move and its score, the
    played move's score (both in discs for the mover), the loss and whether it is exact;
    ``next_ply`` is the ply the next task reviews (``done`` once it reaches the game's end).
    ``requested_by`` is who asked for it (``games.shared.clients.requester_of``: an account or a
    guest's address, for the cap on reviews under way); for the automatic review of a game that
    finished here, its first player (``user:<id>`` or ``guest:<id>``).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    next_ply = models.PositiveIntegerField(default=0)
    moves = models.JSONField(default=list)
    requested_by = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["requested_by", "status"])]

    def __str__(self) -> str:
        return f"Review of game {self.game_id} ({self.status}, ply {self.next_ply})"

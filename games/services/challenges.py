"""Challenges addressed to an account by name (issue 14 §1): the addressee accepts (a room with
both seated starts at once), declines with a reason, or lets it expire; the challenger may take
it back. Both hear of every change on their lobby socket (``events.publish_to_user``)."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import policy, presenters
from games.identity import Player
from games.models import Challenge, Room
from games.services import events, games, rooms, steps
from games.shared.errors import Conflict, Forbidden, NotFound, ServiceError


def create_challenge(
    *,
    player: Player,
    username: str,
    variant: object,
    color: str,
    time_control: str | None,
    rated: bool,
) -> Challenge:
    """Challenge the account ``username`` to a 2-player game on these terms (one pending
    challenge at a time to the same account)."""
    if player.user_id is None:
        raise Forbidden("challenge_needs_account")
    addressee = get_user_model().objects.filter(username=username).first()
    if addressee is None:
        raise NotFound("player_not_found", field="username", username=username)
    if addressee.pk == player.user_id:
        raise ServiceError("challenge_yourself", field="username")
    parsed = games.parse_variant(data=variant, seed=steps.new_seed())
    if parsed.players != 2:
        raise ServiceError("challenge_two_players", field="variant.players")
    games.refuse_rated_handicap(variant=parsed, rated=rated)
    if color != "random":
        steps.color_index(color=color, players=2)
    control = rooms.parse_time_control(text=time_control)
    lifetime = (
        policy.CORRESPONDENCE_CHALLENGE_EXPIRES_AFTER
        if control and control.correspondence
        else policy.CHALLENGE_EXPIRES_AFTER
    )
    with transaction.atomic():
        steps.serialise(purpose="challenges", key=(player.user_id, addressee.pk))
        if Challenge.objects.filter(
            challenger_id=player.user_id,
            challenged=addressee,
            status=Challenge.Status.PENDING,
            expires_at__gt=timezone.now(),
        ).exists():
            raise Conflict("challenge_pending", field="username", username=username)
        challenge = Challenge.objects.create(
            challenger_id=player.user_id,
            challenged=addressee,
            variant=variant,
            color=color,
            time_control=control.name if control else "",
            rated=rated,
            expires_at=timezone.now() + lifetime,
        )
        _announce(challenge)
    return challenge


def accept_challenge(*, player: Player, challenge_id: str) -> Room:
    """The addressee accepts: a room with both seated, whose game starts now."""
    with transaction.atomic():
        challenge = _locked_pending(challenge_id, player=player, side="challenged")
        room = rooms.create_room(
            player=Player(user_id=challenge.challenger_id),
            variant=challenge.variant,
            seats=None,
            time_control=challenge.time_control or None,
            rated=challenge.rated,
            color=challenge.color,
        )
        rooms.join_room(player=player, code=room.code)
        challenge.status = Challenge.Status.ACCEPTED
        challenge.room = room
        challenge.save(update_fields=["status", "room"])
        _announce(challenge)
    return room


def decline_challenge(*, player: Player, challenge_id: str, reason: str) -> Challenge:
    """The addressee declines, giving one of ``policy.DECLINE_REASONS``."""
    if reason not in policy.DECLINE_REASONS:
        raise ServiceError(
            "bad_decline_reason", field="reason", choices=", ".join(policy.DECLINE_REASONS)
        )
    with transaction.atomic():
        challenge = _locked_pending(challenge_id, player=player, side="challenged")
        challenge.status = Challenge.Status.DECLINED
        challenge.decline_reason = reason
        challenge.save(update_fields=["status", "decline_reason"])
        _announce(challenge)
    return challenge


def cancel_challenge(*, player: Player, challenge_id: str) -> Challenge:
    """The challenger takes a pending challenge back."""
    with transaction.atomic():
        challenge = _locked_pending(challenge_id, player=player, side="challenger")
        challenge.status = Challenge.Status.CANCELLED
        challenge.save(update_fields=["status"])
        _announce(challenge)
    return challenge


def _locked_pending(challenge_id: str, *, player: Player, side: str) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged", "room")
        .filter(public_id=challenge_id)
        .first()
    )
    if challenge is None or player.user_id not in (
        challenge.challenger_id,
        challenge.challenged_id,
    ):
        raise NotFound("challenge_not_found")
    if getattr(challenge, f"{side}_id") != player.user_id:
        raise Forbidden(f"not_the_{side}")
    status = presenters.challenge_status(challenge, timezone.now())
    if status == "expired":
        raise Conflict("challenge_expired")
    if status != Challenge.Status.PENDING:
        raise Conflict("challenge_closed")
    return challenge


def _announce(challenge: Challenge) -> None:
    """Tell both players of the challenge's new state (on commit)."""
    for user_id in (challenge.challenger_id, challenge.challenged_id):
        events.publish_to_user(
            user_id=user_id,
            event={
                "type": "challenge",
                "challenge": presenters.challenge_state(challenge, viewer_id=user_id),
            },
        )

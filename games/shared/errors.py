"""The one error hierarchy of every service and API endpoint (games, accounts, community).

A service raises ``ServiceError`` or one of its status classes with a stable ``code``; the
message is looked up by that code in ``MESSAGES`` and translated when it is read, so a client
gets it in the request's language (``Accept-Language``, or the language chosen on the site).
``games.shared.api.api_exception_handler`` answers every one as ``{"error": {"code", "message",
"field"}}`` with the class's HTTP status.
"""

from collections.abc import Mapping
from typing import ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MESSAGES: Mapping[str, Promise] = {
    # requests
    "unknown_field": _("Unknown field."),
    "nested_too_deep": _("The JSON body is nested too deeply: at most %(limit)d levels."),
    "body_too_large": _("The request body is too large: at most %(limit)d bytes."),
    "service_unavailable": _(
        "The service is briefly unavailable. Please try again in %(seconds)d seconds."
    ),
    "server_error": _("Something went wrong on the server. Please try again later."),
    "throttled": _("Too many requests: please wait %(seconds)d s and try again."),
    "csrf_failed": _(
        "The CSRF token is missing or wrong: send the csrftoken cookie's value in the "
        "X-CSRFToken header (or reload the page and send the form again)."
    ),
    # websocket frames (games.consumers)
    "bad_message": _(
        'Unknown message: send {"type": "sync", "version": v} with the last version you have.'
    ),
    "too_many_syncs": _("Too many resyncs: at most %(count)d in %(seconds)d s. Wait a little."),
    # games and rooms
    "not_found": _("This game or room does not exist."),
    "invalid": _("The variant must be a JSON object."),
    "bad_variant": _("The variant setting “%(setting)s” is not allowed: %(detail)s."),
    "bad_color": _("Choose one of %(colors)s or random for a %(players)d-player game."),
    "seat_count": _("A %(players)d-player game needs %(players)d seats, not %(seats)d."),
    "no_person_seat": _("A room needs at least one person's seat."),
    "seat_taken": _("The %(color)s seat is already taken."),
    "room_full": _("Every seat of this room is taken."),
    "not_your_seat": _("You do not have a seat in this game."),
    "game_not_finished": _("A rematch starts after the game has ended."),
    "stale_ply": _("The game is at move %(ply)d, not %(sent)d: reload the game."),
    "not_your_turn": _("It is not your turn: %(color)s is to move."),
    "game_over": _("The game is over."),
    "waiting_for_players": _("The game starts when every seat is taken."),
    "too_many_cpu_games": _(
        "You already have %(limit)d games against the CPU in progress: finish or resign one "
        "before you start another."
    ),
    "undo_not_available": _("Undo is not available in online rooms."),
    "undo_disabled": _("Undo was not enabled when this game was set up."),
    "nothing_to_undo": _("You have no move to take back."),
    "hint_not_available": _("Hints are not available in online rooms."),
    "rated_no_hint": _("Hints are not available in a rated game."),
    "rated_no_undo": _("Undo is not available in a rated game."),
    "rated_not_available": _("A hot-seat game cannot be rated."),
    "rated_from_position": _("A game begun from a position cannot be rated."),
    "rated_handicap": _("A game with a handicap cannot be rated."),
    # records
    "export_not_finished": _("A game is exported once it has ended."),
    "export_unsupported": _("This game cannot be written in that format: %(detail)s."),
    "bad_record": _("The record cannot be read: %(detail)s."),
    "bad_record_move": _("Move %(number)d of the record: %(detail)s"),
    "start_with_variant": _("A game from a position (OBF) is standard 8x8: give no variant."),
    "start_game_over": _("Nobody can move in this position: the game would be over."),
    "review_not_finished": _("A game is analysed once it has ended."),
    "too_many_reviews": _(
        "You have %(count)d game analyses under way, the most at once: ask again in "
        "%(seconds)d s, once one is done."
    ),
    "analysis_not_available": _("Analysis of an online room's game starts when it has ended."),
    "ply_out_of_range": _("The game has %(last)d moves: choose a ply from 0 to %(last)d."),
    "nothing_to_analyse": _("The game is over at ply %(ply)d: there is no move to analyse."),
    "takeover_not_available": _("Only room games have absent players."),
    "not_an_opponent": _("The %(color)s seat is not another person's."),
    "player_present": _("The %(color)s player is connected."),
    "bad_time_control": _("Choose one of these time controls: %(choices)s."),
    "rated_needs_people": _("A rated game is played by people only: remove the CPU seats."),
    "rated_needs_account": _("Rated games are for signed-in players: sign up or log in."),
    "out_of_time": _("Too late: %(color)s ran out of time and the game is over."),
    "abort_not_allowed": _("A game can be aborted only before every player has moved."),
    "draw_not_available": _("Draws are agreed between the two players of an online game."),
    "no_draw_offer": _("Your opponent has not offered a draw."),
    "draw_just_declined": _("A draw was just declined: offer one again after the next move."),
    "not_a_person_seat": _("The %(color)s seat is the CPU's."),
    "seek_not_found": _("This seek is no longer in the lobby."),
    "seek_taken": _("Someone else took this seek first."),
    "not_your_seek": _("Only the player who offered a seek may take it back."),
    "outside_rating_range": _("This seek is for players rated within %(limit)d of its seeker."),
    "rating_range_needs_account": _("A rating range is for signed-in players: sign up or log in."),
    "own_seek": _("This is your own seek: wait for someone to accept it."),
    "already_seated": _("You already have a seat at this table: wait for the others."),
    "too_many_seeks": _(
        "You already have %(limit)d seeks in the lobby: take one back or wait for a player."
    ),
    "challenge_pending": _(
        "You have already challenged %(username)s: wait for an answer or take it back."
    ),
    "challenge_needs_account": _("Sign up or log in to challenge a player."),
    "challenge_yourself": _("You cannot challenge yourself."),
    "challenge_two_players": _("A challenge is a 2-player game."),
    "challenge_not_found": _("There is no such challenge."),
    "not_the_challenged": _("Only the challenged player may answer this challenge."),
    "not_the_challenger": _("Only the challenger may take this challenge back."),
    "challenge_expired": _("This challenge has expired."),
    "challenge_closed": _("This challenge was already answered or taken back."),
    "bad_decline_reason": _("Give one of these reasons: %(choices)s."),
    "player_recently_left": _(
        "The %(color)s player left %(away)d s ago; the CPU may take over after %(limit)d s."
    ),
    # moves the engine refuses (the engine's codes)
    "bad_square": _("%(move)s is not a square of this board."),
    "wall": _("%(move)s is a blocked cell."),
    "occupied": _("%(move)s is already taken."),
    "no_flips": _("%(move)s flips no disc."),
    "not_adjacent": _("%(move)s is not next to a disc."),
    "cannot_pass": _("You have a legal move, so you cannot pass."),
    "must_pass": _("You have no legal move and must pass."),
    # accounts
    "player_not_found": _("There is no player %(username)s."),
    "weak_password": _("Choose another password: %(reasons)s"),
    "username_taken": _("This username is taken."),
    "invalid_credentials": _("Wrong username or password."),
    "locked_out": _(
        "Too many wrong passwords for this account from your connection: try again in "
        "%(minutes)d minutes."
    ),
    "no_email": _("This account has no e-mail address yet."),
    "email_already_verified": _("This e-mail address is already verified."),
    "mail_capped": _(
        "Too many mails for this address just now (at most %(count)d in %(seconds)d seconds): "
        "please try again later."
    ),
    "bad_verification_link": _(
        "This verification link is wrong, has expired or is for another address: send a new one "
        "from your profile."
    ),
    "wrong_password": _("Wrong password."),
    "games_in_progress": _(
        "Games in progress: %(count)d. Finish or resign them before you delete the account."
    ),
    # community
    "invalid_rating": _("Choose one of: %(choices)s."),
    "invalid_action": _("Unknown moderation action."),
    "invalid_state": _("This action does not apply now: the %(what)s is %(status)s."),
    "no_open_reports": _("This comment has no open reports."),
    "not_moderator": _("Only moderators may do this."),
    "comment_not_found": _("No such comment."),
    "bug_report_not_found": _("No such bug report."),
    "rate_limited": _(
        "Too many posts: at most %(count)d in %(seconds)d seconds. Please wait a little."
    ),
    # comment rules (games.community.text_rules)
    "empty": _("Please write something first."),
    "too_long": _("Too long: at most %(limit)d characters (this one has %(length)d)."),
    "too_many_lines": _("Too many lines: at most %(limit)d."),
    "email_not_allowed": _("E-mail addresses are not allowed (rule: no contact details)."),
    "url_not_allowed": _(
        "Links and web addresses are not allowed (rule: no URLs, in any spelling)."
    ),
    "phone_not_allowed": _("Phone numbers are not allowed (rule: no contact details)."),
    "address_not_allowed": _(
        "Addresses are not allowed (rule: no real names, schools or addresses)."
    ),
    "school_not_allowed": _(
        "Names of schools and classes are not allowed (rule: no real names, schools or addresses)."
    ),
    "name_not_allowed": _(
        "Real names are not allowed: use your nickname (rule: no real names, schools or addresses)."
    ),
    "contact_not_allowed": _(
        "Messenger and social media IDs are not allowed (rule: no contact details)."
    ),
    "blocked_word": _("The word “%(word)s” is not allowed (rule: no abusive words)."),
    # access tokens and bots (issue 14 §6)
    "bad_scopes": _("Choose one or more scopes among: %(scopes)s."),
    "too_many_tokens": _("An account holds at most %(limit)d tokens: revoke one first."),
    "token_not_found": _("There is no such token."),
    "token_scope": _("This token lacks the scope “%(scope)s”."),
    "token_not_allowed": _("Tokens are managed from a signed-in browser, not with a token."),
    "not_signed_in": _("Sign in, or send an access token."),
    "bot_has_played": _("Only an account that has never played may become a bot."),
    "bot_uses_challenges": _("Bots play challenges only: no lobby seeks and no quick pairing."),
    "too_many_streams": _(
        "At most %(limit)d streams may be open at once per account: close one first."
    ),
}

COLOR_LABELS: Mapping[str, Promise] = {
    "black": pgettext_lazy("disc colour", "Black"),
    "white": pgettext_lazy("disc colour", "White"),
    "red": pgettext_lazy("disc colour", "Red"),
    "green": pgettext_lazy("disc colour", "Green"),
}


class ServiceError(Exception):
    """A request a service refuses (HTTP 400): a stable ``code``, the ``field`` at fault.

    ``params`` fill the code's message; a colour name given as ``color`` is translated too.
    """

    status_code: ClassVar[int] = 400

    def __init__(self, code: str, *, field: str | None = None, **params: object) -> None:
        if code not in MESSAGES:
            raise KeyError(f"no message for the error code {code!r}")
        super().__init__(code)
        self.code = code
        self.field = field
        self.params = params

    @property
    def message(self) -> str:
        """The message in the active language."""
        template = str(MESSAGES[self.code])
        if not self.params:
            return template
        params = {name: _translated_param(name, value) for name, value in self.params.items()}
        return template % params

    def __str__(self) -> str:
        return self.message


def _translated_param(name: str, value: object) -> object:
    if name == "color" and isinstance(value, str) and value in COLOR_LABELS:
        return str(COLOR_LABELS[value])
    return str(value) if isinstance(value, Promise) else value


class Forbidden(ServiceError):
    """The request's player may not do this (HTTP 403)."""

    status_code = 403


class NotFound(ServiceError):
    """The thing asked for does not exist, or is not visible to this player (HTTP 404)."""

    status_code = 404


class Conflict(ServiceError):
    """The request was based on a state that has changed, or does not apply to the object's
    current state (HTTP 409)."""

    status_code = 409


class PayloadTooLarge(ServiceError):
    """The request body is over the size limit (HTTP 413)."""

    status_code = 413


class Unavailable(ServiceError):
    """The database or Redis cannot be reached just now (HTTP 503, with ``Retry-After``)."""

    status_code = 503

    def __init__(self, *, retry_after: int) -> None:
        super().__init__("service_unavailable", seconds=retry_after)
        self.retry_after = retry_after


class RateLimited(ServiceError):
    """Too many requests in a time window (HTTP 429, with ``Retry-After: retry_after``)."""

    status_code = 429

    def __init__(
        self, *, retry_after: int, count: int, seconds: int, code: str = "rate_limited"
    ) -> None:
        super().__init__(code, count=count, seconds=seconds)
        self.retry_after = retry_after


class Unauthenticated(ServiceError):
    """The request names no account where one is needed (HTTP 401)."""

    status_code = 401


class TooManyStreams(ServiceError):
    """The account has as many streams open as it may (HTTP 429)."""

    status_code = 429

    def __init__(self, *, limit: int) -> None:
        super().__init__("too_many_streams", limit=limit)

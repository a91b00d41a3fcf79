"""The only code that changes games, one module per concern; import the module you need.

- ``games.services.games``: create a game versus the CPU or hot-seat; moves, undo, resign.
- ``games.services.rooms``: friend and 3-4 player rooms: create, join, rematch.
- ``games.services.presence``: websocket presence and the CPU taking over an absent seat.
- ``games.services.cpu``: the CPU's moves and hints from the workers; stalled CPU turns.
- ``games.services.analysis``: analyses of a game's positions (every legal move's value).
- ``games.services.guests``: a guest's games move to the account they sign up or log in to.
- ``games.services.clocks``: the clock steps of a timed game (press, run, stop); the flag itself
  is ``games.end_if_out_of_time``.
- ``games.services.offers``: abort before everyone has moved; draw offers between two people.
- ``games.services.lobby``: seeks in the lobby, quick pairing.
- ``games.services.challenges``: challenges addressed to an account by name.
- ``games.services.watching``: spectators of a game.
- ``games.services.imports``: a transcript or GGF record stored as a finished game.
- ``games.services.reviews``: the post-game review, one move per task.
- ``games.services.events``: sends (channel-layer events, Celery tasks); changes nothing.
- ``games.services.steps``: the steps every change shares (lock, check the seat, commit).

Every write runs in ``transaction.atomic`` with the game row locked (``select_for_update``), lets
the engine judge the move, saves exactly the fields it changed, and sends events and tasks with
``transaction.on_commit`` so nothing leaves the process before the data is stored.
"""

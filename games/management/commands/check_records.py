"""Replay every game's move record through the engine and compare it with the stored position
(the soak of ``benchmarks/service.py`` ends with it); prints JSON."""

import json

from django.core.management.base import BaseCommand

from games import selectors
from games.models import Game


class Command(BaseCommand):
    help = (
        "Replay every game's moves through the engine; print as JSON the games and moves "
        "checked, the ids of the games whose record does not give their stored position, and "
        "every game's version."
    )

    def handle(self, *args: object, **options: object) -> None:
        versions: dict[str, int] = {}
        not_replaying: list[str] = []
        moves = 0
        for game in Game.objects.order_by("pk").iterator(chunk_size=200):
            versions[game.public_id] = game.version
            moves += game.ply
            if not selectors.replays_to_position(game):
                not_replaying.append(game.public_id)
        report = {
            "games": len(versions),
            "moves": moves,
            "not_replaying": not_replaying,
            "versions": versions,
        }
        self.stdout.write(json.dumps(report))

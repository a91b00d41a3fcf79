"""Queue the CPU again where its turn has stalled (for cron; workers also do it at start)."""

from django.core.management.base import BaseCommand

from games.services import cpu


class Command(BaseCommand):
    help = "Queue the CPU again in every game whose CPU turn has stalled (a lost task)."

    def handle(self, *args: object, **options: object) -> None:
        self.stdout.write(f"{cpu.requeue_stalled_cpu_turns()} stalled CPU turns queued again")

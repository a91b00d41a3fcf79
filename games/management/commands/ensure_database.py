"""Create the configured PostgreSQL database when it does not exist yet."""

import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from psycopg import sql


class Command(BaseCommand):
    help = "Create the configured PostgreSQL database if it is missing."

    def handle(self, *args: object, **options: object) -> None:
        db = settings.DATABASES["default"]
        name = str(db["NAME"])
        try:
            with psycopg.connect(
                host=str(db["HOST"]),
                port=str(db["PORT"]),
                user=str(db["USER"]),
                password=str(db["PASSWORD"]) or None,
                dbname="postgres",
                autocommit=True,
            ) as conn:
                exists = conn.execute(
                    "SELECT 1 FROM pg_database WHERE datname = %s", [name]
                ).fetchone()
                if exists:
                    self.stdout.write(f"Database {db['NAME']!r} exists.")
                    return
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.OperationalError as error:
            raise CommandError(
                f"Cannot reach PostgreSQL at {db['HOST']}:{db['PORT']} as {db['USER']!r}: {error}"
            ) from error
        self.stdout.write(self.style.SUCCESS(f"Created database {db['NAME']!r}."))

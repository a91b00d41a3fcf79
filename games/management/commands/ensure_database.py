"""Create the configured PostgreSQL database when it does not exist yet."""

import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from psycopg import sql


class Command(BaseCommand):
    help = "Create the configured PostgreSQL database if it is missing."

    def handle(self, *args: object, **options: object) -> None:
        db = settings.DATABASES["default"]
        params = {
            "host": db["HOST"],
            "port": db["PORT"],
            "user": db["USER"],
            "password": db["PASSWORD"] or None,
            "dbname": "postgres",
            "autocommit": True,
        }
        try:
            with psycopg.connect(**params) as conn:
                exists = conn.execute(
                    "SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]
                ).fetchone()
                if exists:
                    self.stdout.write(f"Database {db['NAME']!r} exists.")
                    return
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
        except psycopg.OperationalError as error:
            raise CommandError(
                f"Cannot reach PostgreSQL at {db['HOST']}:{db['PORT']} as {db['USER']!r}: {error}"
            ) from error
        self.stdout.write(self.style.SUCCESS(f"Created database {db['NAME']!r}."))

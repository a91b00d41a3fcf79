"""Usernames are unique whatever their case, in the database too: sign-up checked it (the API and
Django's form), but two sign-ups at once could both pass. A database that already holds names
differing only in case stops here and names them: rename all but one of each first."""

from django.core.management.base import CommandError
from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Lower

INDEX = "auth_user_username_lower_unique"


def refuse_names_differing_in_case(apps, schema_editor):
    users = apps.get_model("auth", "User").objects.using(schema_editor.connection.alias)
    clashing = (
        users.annotate(name=Lower("username"))
        .values("name")
        .annotate(accounts=Count("id"))
        .filter(accounts__gt=1)
        .order_by("name")
    )
    names = [
        sorted(users.filter(username__iexact=row["name"]).values_list("username", flat=True))
        for row in clashing
    ]
    if names:
        listed = "; ".join(", ".join(group) for group in names)
        raise CommandError(
            f"usernames that differ only in case: {listed}. Rename all but one of each "
            "(python manage.py shell), then migrate again."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_bots_and_tokens"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(refuse_names_differing_in_case, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (LOWER(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]

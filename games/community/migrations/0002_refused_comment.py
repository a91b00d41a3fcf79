"""The refused-comment log (``RefusedComment``), on the table ``games_refusedcomment``.

Before the community app had migrations of its own, main created this table with the ``games``
migration ``0004_refused_comment`` (since removed). A database where that one ran already has
the table, with the same columns and indexes, and its content type is in ``games``: there only
Django's state changes and the content type moves here. Anywhere else the table is created.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "games_refusedcomment"


def create_table_unless_there(apps, schema_editor):
    model = apps.get_model("community", "RefusedComment")
    if TABLE not in schema_editor.connection.introspection.table_names():
        schema_editor.create_model(model)
    content_types = apps.get_model("contenttypes", "ContentType")
    content_types.objects.filter(app_label="games", model="refusedcomment").update(
        app_label="community"
    )


def drop_table(apps, schema_editor):
    schema_editor.delete_model(apps.get_model("community", "RefusedComment"))


class Migration(migrations.Migration):

    dependencies = [
        ("community", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RefusedComment",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("text", models.TextField()),
                        ("rule", models.CharField(max_length=32)),
                        ("fragment", models.CharField(blank=True, max_length=200)),
                        ("visitor_key", models.CharField(max_length=80)),
                        ("ip_address", models.GenericIPAddressField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": TABLE,
                        "indexes": [
                            models.Index(
                                fields=["visitor_key", "created_at"], name="refused_visitor_time"
                            ),
                            models.Index(
                                fields=["ip_address", "created_at"], name="refused_ip_time"
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(create_table_unless_there, drop_table),
    ]

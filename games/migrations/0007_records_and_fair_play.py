"""Records and fair play (issue 14 §3-5): games get a ``start_position`` (a game started from a
position, or imported), imported games a mode and their seats a ``name``, finished games an
review (``GameReview``); and games get a ``rated`` flag (issue 10 fair play): rated games
offer neither hints nor undo. Existing room games (which never offered either) stay rated, as they were; existing
games versus the CPU (which offered both) become casual."""

import django.db.models.deletion
from django.db import migrations, models


def rate_existing_rooms(apps, schema_editor):
    apps.get_model("games", "Game").objects.filter(mode="room").update(rated=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0006_position_analysis")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rated",
            field=models.BooleanField(
                default=False, help_text="a rated game offers no hint or undo (issue 10 fair play)"
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="start_position",
            field=models.TextField(
                blank=True,
                help_text="the position the game began at, when not the variant's own start",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="name",
            field=models.CharField(
                blank=True, help_text="a player named by an imported record", max_length=64
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="mode",
            field=models.CharField(
                choices=[
                    ("cpu", "versus CPU"),
                    ("local", "hot seat"),
                    ("room", "friend room"),
                    ("imported", "imported record"),
                ],
                max_length=8,
            ),
        ),
        migrations.CreateModel(
            name="GameReview",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("queued", "queued"), ("running", "running"), ("done", "done")],
                        default="queued",
                        max_length=8,
                    ),
                ),
                ("next_ply", models.PositiveIntegerField(default=0)),
                ("moves", models.JSONField(default=list)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="review",
                        to="games.game",
                    ),
                ),
            ],
        ),
        migrations.RunPython(rate_existing_rooms, migrations.RunPython.noop, elidable=False),
    ]

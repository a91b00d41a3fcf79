"""Games get a ``start_position`` (a game started from a position, or imported; issue 14 §4) and
a ``rated`` flag (issue 10 fair play, issue 14 §3): rated games offer neither hints
nor undo. Existing room games (which never offered either) stay rated, as they were; existing
games versus the CPU (which offered both) become casual."""

from django.db import migrations, models


def rate_existing_rooms(apps, schema_editor):
    apps.get_model("games", "Game").objects.filter(mode="room").update(rated=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_public_id")]

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
        migrations.RunPython(rate_existing_rooms, migrations.RunPython.noop, elidable=False),
    ]

"""Games get a random public id (issue 10 §2): added empty, filled for every existing game, then
made required and unique."""

from django.db import migrations, models

from games.shared.ids import PUBLIC_ID_LENGTH, new_public_id


def fill_public_ids(apps, schema_editor):
    """Give every existing game a fresh public id (71 random bits: no two games draw the same)."""
    Game = apps.get_model("games", "Game")
    for pk in Game.objects.filter(public_id__isnull=True).values_list("pk", flat=True).iterator():
        Game.objects.filter(pk=pk).update(public_id=new_public_id())


class Migration(migrations.Migration):
    dependencies = [("games", "0004_move_accounts_and_community")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="public_id",
            field=models.CharField(editable=False, max_length=PUBLIC_ID_LENGTH, null=True),
        ),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="game",
            name="public_id",
            field=models.CharField(
                default=new_public_id, editable=False, max_length=PUBLIC_ID_LENGTH, unique=True
            ),
        ),
    ]

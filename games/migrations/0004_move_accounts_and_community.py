"""The rating models moved to the ``accounts`` app and the community models to ``community``.

Only Django's state changes: the tables keep their names (``db_table`` in the new apps), so no
row moves. The content types follow the models, so permissions granted on them are kept.
"""

from django.db import migrations

MOVED = {
    "accounts": ["playerrating", "ratingchange"],
    "community": [
        "pageview",
        "siterating",
        "comment",
        "commentreport",
        "bugreport",
        "bugreportnote",
        "moderationlogentry",
    ],
}


def move_content_types(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    for app_label, models in MOVED.items():
        content_types.objects.filter(app_label="games", model__in=models).update(
            app_label=app_label
        )


def move_content_types_back(apps, schema_editor):
    content_types = apps.get_model("contenttypes", "ContentType")
    for app_label, models in MOVED.items():
        content_types.objects.filter(app_label=app_label, model__in=models).update(
            app_label="games"
        )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_player_rating"),
        ("accounts", "0001_initial"),
        ("community", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='bugreport',
                    name='resolved_by',
                ),
                migrations.RemoveField(
                    model_name='bugreport',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='bugreportnote',
                    name='bug_report',
                ),
                migrations.RemoveField(
                    model_name='moderationlogentry',
                    name='bug_report',
                ),
                migrations.RemoveField(
                    model_name='bugreportnote',
                    name='author',
                ),
                migrations.RemoveField(
                    model_name='comment',
                    name='parent',
                ),
                migrations.RemoveField(
                    model_name='comment',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='moderationlogentry',
                    name='comment',
                ),
                migrations.RemoveField(
                    model_name='commentreport',
                    name='comment',
                ),
                migrations.RemoveField(
                    model_name='commentreport',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='moderationlogentry',
                    name='moderator',
                ),
                migrations.DeleteModel(
                    name='PageView',
                ),
                migrations.RemoveField(
                    model_name='playerrating',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='ratingchange',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='ratingchange',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='siterating',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='BugReport',
                ),
                migrations.DeleteModel(
                    name='BugReportNote',
                ),
                migrations.DeleteModel(
                    name='Comment',
                ),
                migrations.DeleteModel(
                    name='CommentReport',
                ),
                migrations.DeleteModel(
                    name='ModerationLogEntry',
                ),
                migrations.DeleteModel(
                    name='PlayerRating',
                ),
                migrations.DeleteModel(
                    name='RatingChange',
                ),
                migrations.DeleteModel(
                    name='SiteRating',
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]

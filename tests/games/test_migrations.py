"""A database migrated with the old migrations (every model in ``games``) upgrades to the
``accounts`` and ``community`` apps without losing a row or a permission."""

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.accounts.models import PlayerRating, RatingChange
from games.community.models import Comment, ModerationLogEntry

# Main's migrations before the apps were split: every model in the games app.
BEFORE_THE_SPLIT = [("games", "0003_player_rating"), ("accounts", None), ("community", None)]


def migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_split_upgrades_without_losing_rows() -> None:
    executor = migrate(BEFORE_THE_SPLIT)
    old = executor.loader.project_state(BEFORE_THE_SPLIT[0]).apps
    user = old.get_model("auth", "User").objects.create(username="alice")
    game = old.get_model("games", "Game").objects.create(
        mode="cpu", position="x", seed=1, status="finished"
    )
    old.get_model("games", "PlayerRating").objects.create(user_id=user.pk, rating=1516, played=1)
    old.get_model("games", "RatingChange").objects.create(
        game_id=game.pk,
        user_id=user.pk,
        opponent_rating=1000,
        score=1.0,
        rating_before=1500,
        rating_after=1516,
    )
    comment = old.get_model("games", "Comment").objects.create(text="nice", visitor_key="v")
    old.get_model("games", "ModerationLogEntry").objects.create(
        moderator_name="mod", action="hide_comment", comment_id=comment.pk, reason="why"
    )
    content_types = old.get_model("contenttypes", "ContentType")
    comment_type = content_types.objects.get(app_label="games", model="comment")
    permission = old.get_model("auth", "Permission").objects.get(
        content_type=comment_type, codename="change_comment"
    )
    old.get_model("auth", "User").objects.get(pk=user.pk).user_permissions.add(permission)

    migrate(executor.loader.graph.leaf_nodes())

    assert PlayerRating.objects.get(user_id=user.pk).rating == 1516
    assert RatingChange.objects.get(user_id=user.pk).delta == 16
    assert Comment.objects.get().text == "nice"
    assert ModerationLogEntry.objects.get().comment_id == comment.pk
    moved = Permission.objects.get(pk=permission.pk)
    assert (moved.content_type.app_label, moved.content_type.model) == ("community", "comment")
    assert ContentType.objects.get_for_model(PlayerRating).app_label == "accounts"
    assert not ContentType.objects.filter(app_label="games", model="comment").exists()

"""A database migrated with the old migrations (every model in ``games``) upgrades to the
``accounts`` and ``community`` apps without losing a row or a permission, whether or not it had
main's ``games`` migration ``0004_refused_comment`` (the refused-comment log) applied; games
from before public ids get one each."""

import hashlib

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection, migrations, models
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from rest_framework.test import APIClient

from games.accounts.models import AccessToken, PlayerRating, RatingChange
from games.community.models import Comment, ModerationLogEntry, RefusedComment
from games.models import Game, Seat
from games.shared.ids import PUBLIC_ID_PATTERN

# Main's migrations before the apps were split: every model in the games app.
BEFORE_THE_SPLIT = [("games", "0003_player_rating"), ("accounts", None), ("community", None)]
BEFORE_PUBLIC_IDS = [("games", "0004_move_accounts_and_community")]

REFUSED_INDEXES = {"refused_visitor_time", "refused_ip_time"}


class MainRefusedCommentMigration(migrations.Migration):
    """Main's ``games/migrations/0004_refused_comment.py`` as it was (the file is gone)."""

    dependencies = [
        ("games", "0003_player_rating"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RefusedComment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
                        on_delete=models.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["visitor_key", "created_at"], name="refused_visitor_time"),
                    models.Index(fields=["ip_address", "created_at"], name="refused_ip_time"),
                ]
            },
        ),
    ]


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

    rating = PlayerRating.objects.get(user_id=user.pk)  # the Elo kept as the Glicko-2 start
    assert (rating.rating, rating.pool, rating.deviation, rating.volatility) == (
        1516,
        "untimed",
        350,
        0.06,
    )
    assert RatingChange.objects.get(user_id=user.pk).delta == 16
    assert Comment.objects.get().text == "nice"
    assert ModerationLogEntry.objects.get().comment_id == comment.pk
    moved = Permission.objects.get(pk=permission.pk)
    assert (moved.content_type.app_label, moved.content_type.model) == ("community", "comment")
    assert ContentType.objects.get_for_model(PlayerRating).app_label == "accounts"
    assert not ContentType.objects.filter(app_label="games", model="comment").exists()
    RefusedComment.objects.create(text="t.me/x", rule="url_not_allowed", visitor_key="v")
    assert refused_index_names() >= REFUSED_INDEXES


@pytest.mark.django_db(transaction=True)
def test_a_database_with_mains_refused_comment_log_keeps_it() -> None:
    executor = migrate(BEFORE_THE_SPLIT)
    state = executor.loader.project_state(BEFORE_THE_SPLIT[0])
    recorder = MigrationRecorder(connection)
    migration = MainRefusedCommentMigration("0004_refused_comment", "games")
    try:
        old = executor.apply_migration(state, migration).apps
        assert recorder.migration_qs.filter(app="games", name="0004_refused_comment").exists()
        content_types = old.get_model("contenttypes", "ContentType")
        # Main registered the model in games, so its content type and permissions were there.
        content_types.objects.filter(app_label="community", model="refusedcomment").update(
            app_label="games"
        )
        refused_type = content_types.objects.get(app_label="games", model="refusedcomment")
        permission = old.get_model("auth", "Permission").objects.get(
            content_type=refused_type, codename="view_refusedcomment"
        )
        user = old.get_model("auth", "User").objects.create(username="moderator")
        user.user_permissions.add(permission)
        old.get_model("games", "RefusedComment").objects.create(
            text="ты дебил", rule="blocked_word", fragment="дебил", visitor_key="v", user=user
        )

        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

        kept = RefusedComment.objects.get()
        assert (kept.text, kept.rule, kept.fragment, kept.user_id) == (
            "ты дебил",
            "blocked_word",
            "дебил",
            user.pk,
        )
        moved = Permission.objects.get(pk=permission.pk)
        assert (moved.content_type.app_label, moved.content_type.model) == (
            "community",
            "refusedcomment",
        )
        assert refused_index_names() >= REFUSED_INDEXES
    finally:
        recorder.record_unapplied("games", "0004_refused_comment")


def refused_index_names() -> set[str]:
    """The names of the indexes on the refused-comment table."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(
            cursor, RefusedComment._meta.db_table
        )
    return {name for name, info in constraints.items() if info["index"]}


@pytest.mark.django_db(transaction=True)
def test_games_from_before_public_ids_each_get_their_own() -> None:
    executor = migrate(BEFORE_PUBLIC_IDS)
    old = executor.loader.project_state(BEFORE_PUBLIC_IDS[0]).apps
    old_game = old.get_model("games", "Game")
    created = [old_game.objects.create(mode="cpu", position="x", seed=index) for index in range(30)]
    old.get_model("games", "Seat").objects.create(game=created[0], color=0, kind="human")

    migrate(executor.loader.graph.leaf_nodes())

    public_ids = dict(Game.objects.values_list("pk", "public_id"))
    assert set(public_ids) == {game.pk for game in created}
    assert len(set(public_ids.values())) == len(created)
    assert all(PUBLIC_ID_PATTERN.fullmatch(public_id) for public_id in public_ids.values())
    assert Seat.objects.get().game_id == created[0].pk
    new = Game.objects.create(mode="cpu", position="x", seed=1)
    assert PUBLIC_ID_PATTERN.fullmatch(new.public_id)
    assert new.public_id not in public_ids.values()


@pytest.mark.django_db(transaction=True)
def test_the_old_api_tokens_become_hashed_access_tokens() -> None:
    """DRF's ``authtoken_token`` (secrets in clear) as it was before ``0003_bots_and_tokens``:
    each key keeps working as an access token with every scope; the table is gone."""
    migrate([("accounts", "0002_glicko2_ratings_per_class")])
    user = get_user_model().objects.create_user("old-client")
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz NOT "
            "NULL, user_id integer NOT NULL UNIQUE)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, '2026-01-02T03:04:05Z', %s)", [key, user.pk]
        )

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert "authtoken_token" not in connection.introspection.table_names()
    token = AccessToken.objects.get()
    assert (token.user_id, token.scopes, token.prefix) == (
        user.pk,
        ["challenge", "play", "read"],
        key[:8],
    )
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert token.created_at.isoformat() == "2026-01-02T03:04:05+00:00"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/me/").json()["username"] == "old-client"

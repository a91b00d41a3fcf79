"""Usernames are one name whatever their case, in the database too (sign-up checked it, but two
sign-ups at once could both pass), and a database that holds such twins refuses the migration
naming them."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games.accounts.forms import SignupForm

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0004_bots_and_tokens")]
AFTER = [("accounts", "0005_usernames_unique_ignoring_case")]


def migrate(targets: list[tuple[str, str]]) -> None:
    MigrationExecutor(connection).migrate(targets)


def test_the_database_refuses_a_name_differing_only_in_case() -> None:
    users = get_user_model().objects
    users.create_user("Carol", password="a long passphrase")
    with pytest.raises(IntegrityError), transaction.atomic():
        users.create_user("carol", password="a long passphrase")
    assert list(users.values_list("username", flat=True)) == ["Carol"]


def test_a_sign_up_that_loses_the_race_for_a_name_is_told_it_is_taken(monkeypatch) -> None:
    """Another sign-up takes the name (in another case) between the form's check and its save:
    the page says the name is taken (the database refuses it), not a server error."""
    users = get_user_model().objects
    checked = SignupForm.clean_username

    def check_then_lose_the_race(form: SignupForm) -> str:
        name = checked(form)
        users.create_user(name.upper())
        return name

    monkeypatch.setattr(SignupForm, "clean_username", check_then_lose_the_race)
    password = "a long passphrase"
    response = Client().post(
        "/accounts/signup/", {"username": "carol", "password1": password, "password2": password}
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {
        "username": ["A user with that username already exists."]
    }
    assert list(users.values_list("username", flat=True)) == ["CAROL"]


def test_the_migration_names_the_twins_it_finds_and_runs_once_they_are_renamed() -> None:
    users = get_user_model().objects
    migrate(BEFORE)
    try:
        for name in ("dave", "Dave", "DAVE", "erin", "Erin", "frank"):
            users.create_user(name)
        with pytest.raises(CommandError) as refused:
            migrate(AFTER)
        assert str(refused.value).startswith(
            "usernames that differ only in case: DAVE, Dave, dave; Erin, erin."
        )
        for old, new in (("Dave", "dave2"), ("DAVE", "dave3"), ("Erin", "erin2")):
            users.filter(username=old).update(username=new)
        migrate(AFTER)
        with pytest.raises(IntegrityError), transaction.atomic():
            users.create_user("FRANK")
    finally:
        if ("accounts", AFTER[0][1]) not in MigrationExecutor(connection).loader.applied_migrations:
            users.all().delete()
            migrate(AFTER)

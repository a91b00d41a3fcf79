"""Public ids: random, well-formed, and the only thing ``reverse()`` puts in a game's address."""

import pytest
from django.urls import NoReverseMatch, reverse

from games.shared.ids import PUBLIC_ID_PATTERN, is_public_id, new_public_id


def test_public_ids_are_random_letters_and_digits() -> None:
    drawn = {new_public_id() for _ in range(10_000)}
    assert len(drawn) == 10_000
    assert all(PUBLIC_ID_PATTERN.fullmatch(public_id) for public_id in drawn)
    assert set("".join(drawn)) == set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    )


@pytest.mark.parametrize("text", ["", "123", "a" * 11, "a" * 13, "abcdefghijk-", "abcdefghijk\x00"])
def test_anything_else_is_not_a_public_id(text: str) -> None:
    assert not is_public_id(text)


def test_an_address_never_takes_a_primary_key() -> None:
    public_id = new_public_id()
    assert reverse("play", kwargs={"public_id": public_id}) == f"/play/{public_id}/"
    assert reverse("api-game", kwargs={"public_id": public_id}) == f"/api/games/{public_id}/"
    for key in (7, "7", "x" * 12 + "/"):
        with pytest.raises(NoReverseMatch):
            reverse("play", kwargs={"public_id": key})

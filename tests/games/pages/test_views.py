"""The page views (games.pages) without a browser: rendering, 404, languages, script catalog."""

import json
import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise

from games.pages.strings import CLIENT_STRINGS

pytestmark = pytest.mark.django_db


def client_catalog(html: str) -> dict[str, str]:
    found = re.search(r'<script id="client-strings" type="application/json">(.*?)</script>', html)
    assert found
    return json.loads(found.group(1))


def test_setup_page_sets_the_csrf_cookie_and_renders_the_form(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "csrftoken" in response.cookies
    html = response.content.decode()
    assert 'id="setup-form"' in html
    assert client_catalog(html)["color.black"] == "Black"


def test_pages_follow_the_chosen_language(client: Client) -> None:
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    html = client.get("/").content.decode()
    assert '<html lang="ja">' in html
    assert "はじめる" in html
    assert client_catalog(html)["turn.color"] == "{color}の番です"


def test_unknown_game_is_404(client: Client) -> None:
    assert client.get("/play/987654321/").status_code == 404


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_every_script_string_is_translated(language: str) -> None:
    untranslated = []
    for key, text in CLIENT_STRINGS.items():
        if not isinstance(text, Promise):  # the same in every language, such as "6×6"
            continue
        with translation.override("en"):
            english = str(text)
        with translation.override(language):
            if str(text) == english:
                untranslated.append(key)
    assert untranslated == []

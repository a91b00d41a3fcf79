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


@pytest.mark.parametrize("path", ["/room/NOPE/", "/play/987654321/", "/no-such-page/"])
@pytest.mark.parametrize("debug", [True, False])
def test_unknown_pages_get_the_sites_own_404_page(client: Client, settings, path, debug) -> None:
    settings.DEBUG = debug
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 404
    html = response.content.decode()
    assert "<h1>Страница не найдена</h1>" in html
    assert "Technical" not in html


def test_an_unknown_api_path_keeps_its_json_error(client: Client, settings) -> None:
    settings.DEBUG = True
    response = client.get("/api/games/987654321/")
    assert response.status_code == 404
    assert response.json()["error"]["code"]


def test_the_game_page_shows_the_rules_badges_of_its_variant(client: Client) -> None:
    created = client.post(
        "/api/games/",
        {"mode": "local", "variant": {"anti": True, "handicap": 1}},
        content_type="application/json",
    ).json()
    html = client.get(created["url"]).content.decode()
    badges = re.findall(r'<li class="badge">(.*?)</li>', html)
    assert badges == [
        "8×8",
        "Cross",
        "Anti-reversi (fewest discs wins)",
        "Corner handicap: 1 (Black)",
    ]


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


def test_play_now_names_the_servers_default_level(client: Client) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="play-now-button"' in html
    assert "CPU, Normal, 8×8, you play black" in html

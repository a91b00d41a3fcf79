"""The information pages (spec U6) in English, Japanese and Russian."""

import re

import pytest
from django.conf import settings
from django.http import Http404
from django.template.loader import get_template
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.i18n import set_language

from games.community.text_rules import COMMENT_MAX_LENGTH
from games.info.registry import PAGES, PAGES_BY_SLUG
from games.info.views import info_page

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]
KANA = re.compile(r"[\u3040-\u30ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def article(html: str) -> str:
    """The prose of the page: its <article> after the <h1> title."""
    match = re.search(r'<article class="info-article">\s*<h1>.*?</h1>(.*)</article>', html, re.S)
    assert match, "no article on the page"
    return match.group(1)


def assert_written_in(language: str, html: str) -> None:
    """The prose uses the language's own script (and no other), not the English fallback."""
    prose = article(html)
    assert bool(KANA.search(prose)) == (language == "ja")
    assert bool(CYRILLIC.search(prose)) == (language == "ru")


def get(client: Client, slug: str, language: str) -> str:
    response = client.get(reverse(f"info:{slug}"), headers={"accept-language": language})
    assert response.status_code == 200
    assert response["Content-Language"] == language
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", [page.slug for page in PAGES])
def test_every_page_renders_in_the_requested_language(slug: str, language: str) -> None:
    html = get(Client(), slug, language)
    title = PAGES_BY_SLUG[slug].titles[language]
    assert f'<html lang="{language}">' in html
    assert f"<h1>{title}</h1>" in html
    assert f"<title>{title} · " in html
    assert_written_in(language, html)


def test_every_page_has_a_title_and_a_template_in_every_language() -> None:
    for page in PAGES:
        for language in LANGUAGES:
            assert page.titles[language]
            assert get_template(f"info/{language}/{page.slug}.html")


def test_language_chosen_with_the_language_switch_wins_over_the_browser() -> None:
    switch = set_language(RequestFactory().post("/i18n/setlang/", {"language": "ru"}))
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = switch.cookies[
        settings.LANGUAGE_COOKIE_NAME
    ].value
    html = get(client, "faq", "ru")  # Content-Language checked in get()
    assert "<h1>Вопросы и ответы</h1>" in html
    response = client.get("/faq/", headers={"accept-language": "ja"})
    assert response["Content-Language"] == "ru"
    assert_written_in("ru", response.content.decode())


def test_without_any_language_hint_the_pages_are_english() -> None:
    response = Client().get("/how-to-play/")
    assert response["Content-Language"] == "en"
    assert_written_in("en", response.content.decode())


@pytest.mark.parametrize("language", ["de", "ja-jp"])
def test_a_language_variant_or_a_language_without_pages(language: str) -> None:
    request = RequestFactory().get("/tips/")
    with translation.override(language):
        html = info_page(request, slug="tips").content.decode()
    expected = "ja" if language == "ja-jp" else "en"
    assert f"<h1>{PAGES_BY_SLUG['tips'].titles[expected]}</h1>" in html
    assert_written_in(expected, html)


def test_unknown_pages_are_not_found() -> None:
    assert Client().get("/no-such-page/").status_code == 404
    with pytest.raises(Http404):
        info_page(RequestFactory().get("/"), slug="no-such-page")


def test_pages_only_answer_get_and_head() -> None:
    client = Client()
    assert client.head("/history/").status_code == 200
    assert client.post("/history/").status_code == 405


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_links_to_all_pages_and_marks_the_current_one(language: str) -> None:
    nav = re.search(r'<nav class="info-nav".*?</nav>', get(Client(), "tips", language), re.S)
    assert nav
    links = re.findall(r'<a href="([^"]+)"( aria-current="page")?>([^<]+)</a>', nav.group())
    assert links == [
        (
            f"/{page.slug}/",
            ' aria-current="page"' if page.slug == "tips" else "",
            page.titles[language],
        )
        for page in PAGES
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_multiplayer_page_has_the_table_of_rule_differences(language: str) -> None:
    html = get(Client(), "multiplayer", language)
    table = re.search(r'<table class="compare">(.*?)</table>', html, re.S)
    assert table, "no table of rule differences"
    header = re.search(r"<thead>(.*?)</thead>", table.group(1), re.S)
    body = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S)
    assert header
    assert body
    assert header.group(1).count("<th") == 3  # the rule, 2 players, 3-4 players
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    assert len(rows) == 8
    for row in rows:
        assert row.count('<th scope="row">') == 1
        assert row.count("<td") == 2
    assert_written_in(language, html)


FLAG_RULE = {
    "en": "A player whose time runs out loses the game",
    "ja": "持ち時間を使い切った人は、盤上の石の数にかかわらず負けです。",
    "ru": "Игрок, у которого кончилось время, проигрывает",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_state_that_a_player_out_of_time_loses(language: str) -> None:
    """Issue 14 §2: the usual Othello rule of the clock, said on the rules page, with the time
    controls a room offers."""
    prose = article(get(Client(), "how-to-play", language))
    assert f"<b>{FLAG_RULE[language]}" in prose
    for time_control in ("1+0", "3+2", "5+3", "10+0"):
        assert time_control in settings.TIME_CONTROLS
        assert time_control in prose


@pytest.mark.parametrize("language", LANGUAGES)
def test_comment_rules_state_the_enforced_length_limit(language: str) -> None:
    html = get(Client(), "comment-rules", language)
    assert str(COMMENT_MAX_LENGTH) in article(html)
    assert 'href="/community/"' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_start_diagrams_show_the_spec_start_positions(language: str) -> None:
    def diagrams(slug: str) -> list[list[str]]:
        html = get(Client(), slug, language)
        return [
            re.findall(r'class="diagram-disc diagram-disc-(\w+)"', svg)
            for svg in re.findall(r"<svg.*?</svg>", html, re.S)
        ]

    # Discs listed in the order d4, e4, d5, e5.
    assert diagrams("how-to-play") == [
        ["white", "black", "black", "white"],  # cross (R1)
        ["white", "white", "black", "black"],  # parallel (R3)
    ]
    assert diagrams("multiplayer") == [
        ["black", "white", "green", "red"],  # 4 players, clockwise from d4 (R8)
        ["black", "white", "neutral", "red"],  # 3 players: d5 neutral
    ]

"""Refused comments are kept for the moderators (C3, C5): the text, the rule, the fragment."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.community import services
from games.community.errors import RuleViolation
from games.community.models import Comment, RefusedComment
from games.community.visitors import Visitor

pytestmark = pytest.mark.django_db

MALLORY = Visitor(key="session:mallory", user_id=None, ip_address="192.0.2.66")


def test_a_refused_comment_is_kept_with_rule_fragment_and_visitor() -> None:
    with pytest.raises(RuleViolation) as refused:
        services.post_comment(visitor=MALLORY, text="  add me: t.me/mallory_77 ")
    assert refused.value.code == "url_not_allowed"
    (kept,) = RefusedComment.objects.all()
    assert (kept.text, kept.rule, kept.fragment) == (
        "add me: t.me/mallory_77",
        "url_not_allowed",
        "t.me",
    )
    assert (kept.visitor_key, kept.ip_address, kept.user_id) == (
        "session:mallory",
        "192.0.2.66",
        None,
    )
    assert not Comment.objects.exists()


def test_a_reversed_link_is_kept_with_the_fragment_as_readers_see_it() -> None:
    """A right-to-left override shows "\u202emoc.isrever" as "reversi.com": the moderators
    see that in the fragment, and the text as it was sent."""
    with pytest.raises(RuleViolation) as refused:
        services.post_comment(visitor=MALLORY, text="best bots: \u202emoc.isrever\u202c !")
    assert refused.value.code == "url_not_allowed"
    kept = RefusedComment.objects.get()
    assert (kept.rule, kept.fragment) == ("url_not_allowed", "reversi.com")
    assert kept.text == "best bots: \u202emoc.isrever\u202c !"


def test_length_refusals_and_published_comments_are_not_kept() -> None:
    with pytest.raises(RuleViolation):
        services.post_comment(visitor=MALLORY, text="   ")
    services.post_comment(visitor=MALLORY, text="good game, 40-24")
    assert not RefusedComment.objects.exists()


def test_a_flood_of_refusals_is_answered_but_kept_only_up_to_the_limit(settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        **settings.COMMUNITY_RATE_LIMITS,
        "refusal": {"per_visitor": 2, "per_ip": 3, "window_seconds": 60},
    }
    for _ in range(4):
        with pytest.raises(RuleViolation):
            services.post_comment(visitor=MALLORY, text="ты дебил")
    assert RefusedComment.objects.count() == 2
    other = Visitor(key="session:other", user_id=None, ip_address=MALLORY.ip_address)
    for _ in range(2):
        with pytest.raises(RuleViolation):
            services.post_comment(visitor=other, text="ты дебил")
    assert RefusedComment.objects.count() == 3  # the IP's limit


def test_moderators_list_refused_comments_in_the_api(api: APIClient, moderator_api, user_api):
    response = api.post("/api/comments/", {"text": "mail me: bob＠example．com"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "email_not_allowed"
    listing = moderator_api.get("/api/moderation/refused/").json()
    (item,) = listing["results"]
    assert item["rule"] == "email_not_allowed"
    assert item["fragment"] == "bob@example.com"
    assert item["text"] == "mail me: bob＠example．com"
    assert item["ip_address"] == "203.0.113.7"
    assert item["author"] is None
    assert user_api.get("/api/moderation/refused/").status_code == 403
    assert APIClient().get("/api/moderation/refused/").status_code in (401, 403)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "The word “дебил” is not allowed (rule: no abusive words)."),
        (
            "ja",
            "「дебил」ということばは書けません(きまり:人がいやな気持ちになることばは書かない)。",
        ),
        ("ru", "Слово «дебил» запрещено (правило: никаких оскорблений)."),
    ],
)
def test_a_refusal_is_answered_in_the_clients_language_and_kept_with_its_fragment(
    api: APIClient, language: str, message: str
) -> None:
    response = api.post(
        "/api/comments/", {"text": "ты дебил"}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "blocked_word",
        "message": message,
        "field": "text",
    }
    assert RefusedComment.objects.get().fragment == "дебил"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Real names are not allowed: use your nickname"),
        ("ja", "本名は書けません。ニックネームを使ってね"),
        ("ru", "Настоящие имена запрещены: используйте ник"),
    ],
)
def test_a_real_name_is_refused_in_the_clients_language(
    api: APIClient, language: str, message: str
) -> None:
    response = api.post(
        "/api/comments/",
        {"text": "hi! my name is Emily Carter"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("name_not_allowed", "text")
    assert error["message"].startswith(message)
    assert RefusedComment.objects.get().fragment == "my name is emily"


def test_the_moderation_page_shows_refused_comments_escaped(moderator) -> None:
    visitor = Client()
    response = visitor.post("/community/comments/", {"text": "<b>x</b> ты дебил"})
    assert response.status_code == 400
    browser = Client()
    browser.force_login(moderator)
    html = browser.get("/moderation/").content.decode()
    assert 'id="refused"' in html
    assert "&lt;b&gt;x&lt;/b&gt; ты дебил" in html
    assert "blocked_word: <mark>дебил</mark>" in html

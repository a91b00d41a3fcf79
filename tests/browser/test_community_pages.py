"""The community and moderation pages in Chromium: a long word wraps instead of widening the
page, messages read as success, replies are indented, the chosen rating stands out."""

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import sign_up

pytestmark = pytest.mark.browser

LONG_WORD = "reversi" * 60  # 420 letters, no space
PAGE_WIDTH = "() => document.documentElement.scrollWidth"


def post_comment(page: Page, text: str) -> None:
    page.goto("/community/")
    page.get_by_label("Write a comment").fill(text)
    page.get_by_role("button", name="Post").click()


def test_a_long_word_wraps_on_the_community_page(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 740})
    post_comment(page, f"Great game {LONG_WORD}")
    expect(page.locator(".comment-text").first).to_contain_text(LONG_WORD)
    assert page.evaluate(PAGE_WIDTH) <= 375
    message = page.locator(".messages .message").first
    expect(message).to_be_visible()
    assert message.evaluate("m => getComputedStyle(m).color") != "rgb(179, 38, 30)"


def test_replies_are_indented_and_the_chosen_rating_is_highlighted(page: Page) -> None:
    post_comment(page, "A first comment")
    thread = page.locator("article.comment:not(.reply)").first
    thread.locator("summary", has_text="Reply").click()
    thread.get_by_label("Your reply").fill("A reply")
    thread.get_by_role("button", name="Reply").click()
    reply = page.locator("article.comment.reply").first
    parent = page.locator("article.comment:has(article.reply)").first
    assert reply.bounding_box()["x"] > parent.bounding_box()["x"] + 8
    page.get_by_role("button", name="Good", exact=True).click()
    chosen = page.locator('.rating-buttons button[aria-pressed="true"]')
    other = page.locator('.rating-buttons button[aria-pressed="false"]').first
    assert chosen.evaluate("b => getComputedStyle(b).backgroundColor") != other.evaluate(
        "b => getComputedStyle(b).backgroundColor"
    )


def test_a_long_word_wraps_on_the_moderation_page(new_page, server_sql) -> None:
    page = new_page(viewport={"width": 1440, "height": 900})
    post_comment(page, f"Look {LONG_WORD}")
    sign_up(page, "browser_moderator")
    server_sql("INSERT INTO auth_group (name) VALUES ('moderators') ON CONFLICT DO NOTHING")
    server_sql(
        "INSERT INTO auth_user_groups (user_id, group_id) SELECT u.id, g.id FROM auth_user u,"
        " auth_group g WHERE u.username = 'browser_moderator' AND g.name = 'moderators'"
    )
    page.goto("/moderation/?queue=recent")
    expect(page.locator(".comment-text", has_text=LONG_WORD).first).to_be_visible()
    assert page.evaluate(PAGE_WIDTH) <= 1440


def test_the_menu_links_to_moderation_for_moderators_only(new_page, server_sql) -> None:
    page = new_page()
    sign_up(page, "menu_player")
    page.goto("/community/")
    menu = page.get_by_role("navigation", name="Site menu")
    expect(menu.get_by_role("link", name="Watch")).to_have_count(1)
    expect(menu.get_by_role("link", name="Moderation")).to_have_count(0)
    server_sql("INSERT INTO auth_group (name) VALUES ('moderators') ON CONFLICT DO NOTHING")
    server_sql(
        "INSERT INTO auth_user_groups (user_id, group_id) SELECT u.id, g.id FROM auth_user u,"
        " auth_group g WHERE u.username = 'menu_player' AND g.name = 'moderators'"
    )
    page.reload()
    menu.get_by_role("link", name="Moderation").click()
    expect(page).to_have_url(re.compile(r"/moderation/$"))
    expect(menu.get_by_role("link", name="Moderation")).to_have_attribute("aria-current", "page")

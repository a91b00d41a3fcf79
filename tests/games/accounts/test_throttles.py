"""Sign-up and log-in are throttled per client address, and wrong passwords lock a username
out for that address (django-axes): 429 with Retry-After, the JSON envelope on the API, a
translated page on the forms (issue 10 §2)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase"


@pytest.fixture
def carol() -> None:
    get_user_model().objects.create_user("carol", password=PASSWORD)


def token_attempt(client: APIClient, password: str, username: str = "carol"):
    return client.post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_wrong_passwords_lock_the_username_out_for_that_address(carol: None, settings) -> None:
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert token_attempt(client, "wrong").status_code == 400
    locked = token_attempt(client, "wrong")
    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "locked_out"
    assert int(locked["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    # Even the right password is refused now, from this address ...
    right = token_attempt(client, PASSWORD)
    assert (right.status_code, right.json()["error"]["code"]) == (429, "locked_out")
    # ... but not from another one.
    elsewhere = token_attempt(APIClient(REMOTE_ADDR="203.0.113.9"), PASSWORD)
    assert elsewhere.status_code == 200
    assert "token" in elsewhere.json()


def test_token_endpoint_is_throttled_per_address_whatever_the_username(settings) -> None:
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        | {"auth": "3/min"}
    }
    client = APIClient()
    for number in range(3):
        assert token_attempt(client, "wrong", username=f"nobody{number}").status_code == 400
    throttled = token_attempt(client, "wrong", username="nobody9")
    assert throttled.status_code == 429
    assert throttled.json()["error"]["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0
    signup = client.post(
        "/api/auth/signup/", {"username": "dave", "password": PASSWORD}, format="json"
    )
    assert signup.status_code == 429


def test_login_form_lockout_is_a_translated_page(carol: None, settings) -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE="ja")
    wrong = {"username": "carol", "password": "wrong"}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert browser.post("/accounts/login/", wrong).status_code == 200
    # A success starts the count again ...
    right = browser.post("/accounts/login/", {"username": "carol", "password": PASSWORD})
    assert right.status_code == 302
    other = Client(HTTP_ACCEPT_LANGUAGE="ja")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert other.post("/accounts/login/", wrong).status_code == 200
    # ... and the limit of failures in a row locks the form out, on a page in Japanese.
    page = other.post("/accounts/login/", wrong)
    assert page.status_code == 429
    assert int(page["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    assert page["Content-Type"].startswith("text/html")
    assert "試行回数が多すぎます" in page.content.decode()


def test_signup_form_is_throttled(settings) -> None:
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        | {"auth": "2/min"}
    }
    browser = Client()
    for number in range(2):
        form = {"username": f"user{number}", "password1": "x", "password2": "y"}
        assert browser.post("/accounts/signup/", form).status_code == 200
    page = browser.post("/accounts/signup/", {"username": "late"})
    assert page.status_code == 429
    assert "Too many attempts" in page.content.decode()

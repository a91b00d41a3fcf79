"""E-mail addresses, their verification and password resets (issue 14 §7), through a real SMTP
server: each test reads the mail from the catcher and follows its link."""

import time
import uuid
from urllib.parse import urlparse

import pytest
from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.accounts import emails, tasks
from games.accounts.models import EmailVerification
from tests.mail import Inbox, body, link_in
from tests.servers import free_port

# The mail leaves from a real Celery worker once the request's transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long passphrase"
NEW_PASSWORD = "another long passphrase"


SIGNUP = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}


def sign_up(client: Client, email: str = "alice@example.com", username: str = "alice") -> None:
    response = client.post("/accounts/signup/", SIGNUP | {"email": email, "username": username})
    assert response.status_code == 302


def logs_in(password: str, client: Client | None = None) -> bool:
    """Whether alice logs in with ``password`` through the login form."""
    response = (client or Client()).post(
        "/accounts/login/", {"username": "alice", "password": password}
    )
    return response.status_code == 302


def path_of(link: str) -> str:
    return urlparse(link).path


def test_signing_up_with_an_address_mails_a_link_that_verifies_it(inbox: Inbox) -> None:
    client = Client()
    sign_up(client)

    profile = client.get("/accounts/profile/").content.decode()
    assert "alice@example.com" in profile
    assert "not verified" in profile
    message = inbox.wait_for("alice@example.com")
    assert message["Subject"] == "Reversi: verify your e-mail address"
    assert "Hello alice" in body(message)

    page = Client().get(path_of(link_in(message)))  # any browser: the link is the proof

    assert page.status_code == 200
    assert "Your e-mail address is verified." in page.content.decode()
    alice = get_user_model().objects.get(username="alice")
    assert emails.is_verified(alice)
    profile = client.get("/accounts/profile/").content.decode()
    assert "not verified" not in profile
    assert 'class="email-state verified"' in profile


def test_signing_up_without_an_address_sends_nothing(inbox: Inbox) -> None:
    client = Client()
    sign_up(client, email="")
    assert "none" in client.get("/accounts/profile/").content.decode()
    all_sent(inbox)
    assert inbox.to("alice@example.com") == []


def test_a_link_for_an_address_the_account_no_longer_has_is_refused(inbox: Inbox) -> None:
    client = Client()
    sign_up(client)
    old_link = link_in(inbox.wait_for("alice@example.com"))
    response = client.post("/accounts/email/", {"email": "alice@example.org"})
    assert response.status_code == 302
    new_link = link_in(inbox.wait_for("alice@example.org"))

    refused = client.get(path_of(old_link))

    assert refused.status_code == 400
    assert "verification link is wrong" in refused.content.decode()
    alice = get_user_model().objects.get(username="alice")
    assert not emails.is_verified(alice)
    assert client.get(path_of(new_link)).status_code == 200
    alice.refresh_from_db()
    assert emails.is_verified(alice)


def test_a_tampered_or_expired_link_is_refused(inbox: Inbox, settings) -> None:
    client = Client()
    sign_up(client)
    link = path_of(link_in(inbox.wait_for("alice@example.com")))
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert client.get(link.replace(token, token[:-2] + "xx")).status_code == 400

    with pytest.raises(signing.SignatureExpired):
        signing.TimestampSigner(salt=emails.VERIFICATION_SALT).unsign_object(token, max_age=-1)
    assert not emails.is_verified(get_user_model().objects.get(username="alice"))


def test_the_profile_resends_the_link_of_an_unverified_address(inbox: Inbox) -> None:
    client = Client()
    sign_up(client)
    inbox.wait_for("alice@example.com")

    response = client.post("/accounts/email/resend/", follow=True)

    assert "We sent a link to alice@example.com" in response.content.decode()
    second = inbox.wait_for("alice@example.com", count=2)
    assert client.get(path_of(link_in(second))).status_code == 200
    again = client.post("/accounts/email/resend/", follow=True).content.decode()
    assert "already verified" in again
    all_sent(inbox)
    assert len(inbox.to("alice@example.com")) == 2


def test_mail_sends_are_throttled(inbox: Inbox, settings) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "mail": "2/hour",
        },
    }
    client = Client()
    sign_up(client)
    for _ in range(2):
        assert client.post("/accounts/email/resend/").status_code == 302

    refused = client.post("/accounts/email/resend/")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    inbox.wait_for("alice@example.com", count=3)  # sign-up's and the two resends
    assert Client().post("/accounts/password/reset/", {"email": "x@example.com"}).status_code == 302
    assert Client().post("/accounts/password/reset/", {"email": "x@example.com"}).status_code == 302
    assert Client().post("/accounts/password/reset/", {"email": "x@example.com"}).status_code == 429


def all_sent(inbox: Inbox) -> None:
    """Wait until the mail queued so far has been sent: the worker takes the queue in order, so
    once a mail queued now arrives, every earlier one has (or will never be) sent."""
    marker = uuid.uuid4().hex
    mail = (marker, "queue-drained@example.com", marker, marker)
    current_app.send_task(emails.MAIL_TASK, args=mail, queue=settings.CELERY_MAIL_QUEUE)
    deadline = time.monotonic() + 30
    while not any(message["Subject"] == marker for message in inbox.messages):
        assert time.monotonic() < deadline, "the mail queue did not drain"
        time.sleep(0.05)


def verified_alice(client: Client, inbox: Inbox) -> None:
    sign_up(client)
    assert client.get(path_of(link_in(inbox.wait_for("alice@example.com")))).status_code == 200
    client.post("/accounts/logout/")


def test_a_password_reset_mails_a_link_that_sets_a_new_password(inbox: Inbox) -> None:
    client = Client()
    verified_alice(client, inbox)

    response = client.post("/accounts/password/reset/", {"email": "ALICE@example.com"})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/sent/"
    message = inbox.wait_for("alice@example.com", count=2)
    assert message["Subject"] == "Reversi: reset your password"
    link = path_of(link_in(message))
    form = client.get(link, follow=True)
    assert form.status_code == 200
    assert 'name="new_password1"' in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == "/accounts/password/reset/done/"
    assert logs_in(NEW_PASSWORD)
    assert not logs_in(PASSWORD)
    used = client.get(link, follow=True).content.decode()
    assert "has already been used" in used


def test_no_reset_link_goes_to_an_unverified_address(inbox: Inbox) -> None:
    client = Client()
    sign_up(client)
    inbox.wait_for("alice@example.com")
    client.post("/accounts/logout/")

    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})

    assert response["Location"] == "/accounts/password/reset/sent/"  # the same answer
    all_sent(inbox)
    assert len(inbox.to("alice@example.com")) == 1  # the verification link only


def test_changing_the_password_needs_the_old_one() -> None:
    get_user_model().objects.create_user("alice", password=PASSWORD)
    client = Client()
    assert logs_in(PASSWORD, client)

    wrong = client.post(
        "/accounts/password/change/",
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert wrong.status_code == 200
    assert wrong.context["form"].errors.keys() == {"old_password"}

    done = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == "/accounts/password/change/done/"
    assert client.get("/accounts/profile/").status_code == 200  # still signed in
    assert logs_in(NEW_PASSWORD)


def test_the_pages_speak_japanese_and_russian(inbox: Inbox) -> None:
    for language, heading in (("ja", "パスワードをリセット"), ("ru", "Сброс пароля")):
        page = Client(headers={"accept-language": language}).get("/accounts/password/reset/")
        assert heading in page.content.decode()
    client = Client(headers={"accept-language": "ru"})
    sign_up(client)
    subject = str(inbox.wait_for("alice@example.com")["Subject"]).strip()
    assert subject == "Реверси: подтвердите адрес электронной почты"


def test_a_flood_of_resets_to_one_address_sends_no_flood_of_mail(inbox: Inbox, settings) -> None:
    """Many clients asking a reset for one address: the same answer to each, and at most
    ``MAIL_CAP_PER_ADDRESS`` mails an hour reach it (its verification link counts too)."""
    settings.MAIL_CAP_PER_ADDRESS = 3
    client = Client()
    verified_alice(client, inbox)  # the first mail to alice

    for client_number in range(6):
        response = Client(REMOTE_ADDR=f"192.0.2.{client_number + 1}").post(
            "/accounts/password/reset/", {"email": "alice@example.com"}
        )
        assert response["Location"] == "/accounts/password/reset/sent/"
    all_sent(inbox)
    assert len(inbox.to("alice@example.com")) == 3


def test_one_client_asking_for_many_addresses_is_capped(inbox: Inbox, settings) -> None:
    settings.MAIL_CAP_PER_REQUESTER = 2
    for name in ("ann", "ben", "cat", "dan"):
        user = get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)
        EmailVerification.objects.create(user=user, email=user.email, verified_at=timezone.now())
    flooder = APIClient(REMOTE_ADDR="198.51.100.7")

    for name in ("ann", "ben", "cat", "dan"):
        answer = flooder.post("/api/auth/password-reset/", {"email": f"{name}@example.com"})
        assert answer.status_code == 202
    all_sent(inbox)
    reached = [name for name in ("ann", "ben", "cat", "dan") if inbox.to(f"{name}@example.com")]
    assert reached == ["ann", "ben"]


def test_a_capped_verification_resend_says_so(inbox: Inbox, settings) -> None:
    settings.MAIL_CAP_PER_ADDRESS = 1
    client = Client()
    sign_up(client)
    inbox.wait_for("alice@example.com")

    refused = client.post("/accounts/email/resend/", follow=True).content.decode()
    api = APIClient()
    api.force_login(get_user_model().objects.get(username="alice"))
    answer = api.post("/api/me/email/verification/")

    assert "Too many mails for this address just now" in refused
    assert (answer.status_code, answer.json()["error"]["code"]) == (429, "mail_capped")
    assert int(answer["Retry-After"]) > 0


def test_the_mail_task_sends_once_and_raises_for_a_server_that_does_not_answer(
    mail_worker, settings
) -> None:
    """The task (run here, in this process) sends a mail once however often it runs, and a mail
    server that does not answer raises the ``OSError`` it retries on; it has time limits."""
    catcher, _ = mail_worker
    catcher.messages.clear()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    mail = ("mail-1", "zoe@example.com", "Hello", "Hello zoe")
    with pytest.raises(ConnectionRefusedError):
        tasks.send_mail.run(*mail)

    settings.EMAIL_PORT = catcher.port
    assert tasks.send_mail.apply(args=mail).get() is True
    assert tasks.send_mail.apply(args=mail).get() is False  # delivered again: not sent twice

    assert body(catcher.wait_for("zoe@example.com")).strip() == "Hello zoe"
    assert len(catcher.to("zoe@example.com")) == 1
    assert OSError in tasks.send_mail.autoretry_for
    assert (tasks.send_mail.soft_time_limit, tasks.send_mail.time_limit) == (20, 30)


# The API


def test_the_api_signs_up_with_an_address_and_tells_whether_it_is_verified(inbox: Inbox) -> None:
    response = APIClient().post(
        "/api/auth/signup/",
        {"username": "alice", "password": PASSWORD, "email": "alice@example.com"},
    )
    assert response.status_code == 201
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    me = client.get("/api/me/").json()
    assert (me["email"], me["email_verified"]) == ("alice@example.com", False)

    link = link_in(inbox.wait_for("alice@example.com"))
    assert Client().get(path_of(link)).status_code == 200

    me = client.get("/api/me/").json()
    assert me["email_verified"] is True
    again = client.post("/api/me/email/verification/")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "email_already_verified"


def test_the_api_changes_the_address_and_resends_the_link(inbox: Inbox) -> None:
    get_user_model().objects.create_user("alice", password=PASSWORD)
    client = APIClient()
    client.force_login(get_user_model().objects.get(username="alice"))
    none = client.post("/api/me/email/verification/")
    assert none.status_code == 400
    assert none.json()["error"] == {
        "code": "no_email",
        "message": "This account has no e-mail address yet.",
        "field": "email",
    }
    bad = client.post("/api/me/email/", {"email": "not an address"})
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "email"

    changed = client.post("/api/me/email/", {"email": "alice@example.com"})
    resent = client.post("/api/me/email/verification/")

    assert changed.json() == {
        "email": "alice@example.com",
        "email_verified": False,
        "email_sent": True,
    }
    assert resent.status_code == 202
    first = link_in(inbox.wait_for("alice@example.com"))
    second = link_in(inbox.wait_for("alice@example.com", count=2))
    assert Client().get(path_of(first)).status_code == 200
    assert Client().get(path_of(second)).status_code == 200


def test_the_api_resets_and_changes_passwords(inbox: Inbox) -> None:
    client = Client()
    verified_alice(client, inbox)

    assert (
        APIClient().post("/api/auth/password-reset/", {"email": "alice@example.com"}).status_code
        == 202
    )
    assert (
        APIClient().post("/api/auth/password-reset/", {"email": "bob@example.com"}).status_code
        == 202
    )
    link = path_of(link_in(inbox.wait_for("alice@example.com", count=2)))
    all_sent(inbox)
    assert inbox.to("bob@example.com") == []
    blank = APIClient().post("/api/auth/password-reset/", {"email": ""})
    assert (blank.status_code, blank.json()["error"]["field"]) == (400, "email")
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    api = APIClient()
    token = api.post("/api/auth/token/", {"username": "alice", "password": NEW_PASSWORD}).json()[
        "token"
    ]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    wrong = api.post("/api/me/password/", {"old_password": PASSWORD, "new_password": "x"})
    assert wrong.status_code == 400
    assert wrong.json()["error"]["field"] == "old_password"
    weak = api.post("/api/me/password/", {"old_password": NEW_PASSWORD, "new_password": "12345678"})
    assert weak.json()["error"]["code"] == "weak_password"
    assert weak.json()["error"]["field"] == "new_password"
    changed = api.post(
        "/api/me/password/", {"old_password": NEW_PASSWORD, "new_password": PASSWORD}
    )
    assert changed.status_code == 204
    assert logs_in(PASSWORD)


def test_a_guest_has_no_account_endpoints() -> None:
    for path in (
        "/api/me/email/",
        "/api/me/email/verification/",
        "/api/me/password/",
        "/api/me/delete/",
    ):
        response = APIClient().post(path, {})
        assert response.status_code in (401, 403), path
        assert "error" in response.json()
    assert APIClient().get("/api/me/data/").status_code in (401, 403)

"""Forms of the account pages (Django's auth forms, labelled for our languages)."""

from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from games.accounts import emails
from games.accounts.models import AccessToken
from games.shared.clients import requester_of

EMAIL_HELP = _("Optional: to reset a forgotten password. We send you a link to verify it.")


class SignupForm(UserCreationForm):
    """A new account: a username, an optional e-mail address and a password typed twice
    (Django's validators apply)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": EMAIL_HELP}


class EmailForm(forms.ModelForm):
    """The account's e-mail address (empty removes it)."""

    class Meta:
        model = get_user_model()
        fields = ("email",)
        help_texts = {"email": EMAIL_HELP}


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password."""

    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class VerifiedEmailPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending the link only to a verified address (an address nobody has
    shown to be theirs never receives a way into the account), through the mail queue and its
    caps (``emails.queue_mail``): the answer is the same whether a mail left or not."""

    requester = ""

    def get_users(self, email: str) -> Iterator[Any]:
        return (user for user in super().get_users(email) if emails.is_verified(user))

    def save(self, **kwargs: Any) -> None:  # type: ignore[override]  # keywords only, as Django calls it
        request = kwargs.get("request")
        self.requester = requester_of(request) if request else "ip:unknown"
        super().save(**kwargs)

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        emails.queue_mail(to=to_email, subject=subject, body=body, requester=self.requester)


class TokenForm(forms.Form):
    """A new access token on the profile page: a name and its scopes."""

    name = forms.CharField(label=_("Token name"), max_length=100)
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=[
            (AccessToken.READ, _("read: your games, challenges and streams")),
            (AccessToken.PLAY, _("play: create games, move, resign, become a bot")),
            (AccessToken.CHALLENGE, _("challenge: send and answer challenges")),
        ],
        widget=forms.CheckboxSelectMultiple,
        initial=[AccessToken.READ],
    )

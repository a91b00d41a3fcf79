"""Forms of the account pages (Django's auth forms, labelled for our languages)."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from games.accounts.models import AccessToken


class SignupForm(UserCreationForm):
    """A new account: a username and a password typed twice (Django's validators apply)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


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

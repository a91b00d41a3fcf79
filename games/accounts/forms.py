"""Forms of the account pages (Django's auth forms, labelled for our languages)."""

from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """A new account: a username and a password typed twice (Django's validators apply)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

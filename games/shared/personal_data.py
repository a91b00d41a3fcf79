"""An account's personal data across the apps (issue 14 §7), without the accounts app knowing
the others: each app answers the two signals for the rows it keeps.

- ``account_deleting``: sent with ``user_id=`` inside the transaction that deletes the account,
  before its row goes; a receiver anonymises (or removes) what it keeps of that account.
- ``personal_data_requested``: sent with ``user_id=``; a receiver answers a dict of sections
  (``{"games": [...]}``) for the account's data download.
"""

from django.dispatch import Signal

account_deleting = Signal()
personal_data_requested = Signal()


def personal_data_sections(user_id: int) -> dict[str, object]:
    """Every app's sections of the account's data, merged."""
    sections: dict[str, object] = {}
    for _receiver, answer in personal_data_requested.send(sender=None, user_id=user_id):
        if isinstance(answer, dict):
            sections.update(answer)
    return sections


def forget_account(user_id: int) -> None:
    """Have every app anonymise what it keeps of the account (inside the deletion's
    transaction)."""
    account_deleting.send(sender=None, user_id=user_id)

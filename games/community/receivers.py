"""What the community keeps of an account, for its data download and when it is deleted
(issue 14 §7): its comments stay, anonymised; its reports, bug reports and site rating lose
their link to it too."""

import uuid

from django.dispatch import receiver

from games.community.models import (
    BugReport,
    Comment,
    CommentReport,
    RefusedComment,
    SiteRating,
)
from games.shared.personal_data import account_deleting, personal_data_requested

ROWS_WITH_ADDRESS = (Comment, CommentReport, BugReport, RefusedComment)


@receiver(personal_data_requested)
def comments_of_account(sender: object, user_id: int, **kwargs: object) -> dict[str, object]:
    """The account's comments and replies, oldest first, whatever their state."""
    comments = Comment.objects.filter(user_id=user_id).order_by("created_at", "pk")
    return {
        "comments": [
            {
                "id": comment.pk,
                "reply_to": comment.parent_id,
                "text": comment.text,
                "status": comment.status,
                "created_at": comment.created_at.isoformat(),
            }
            for comment in comments
        ]
    }


@receiver(account_deleting)
def anonymise_account_rows(sender: object, user_id: int, **kwargs: object) -> None:
    """The account's rows keep their text, without the account, its address or its visitor
    key: one new key per deleted account, so a moderator still sees they came from one."""
    anonymous_key = f"deleted:{uuid.uuid4().hex}"
    for model in ROWS_WITH_ADDRESS:
        model.objects.filter(user_id=user_id).update(
            user=None, visitor_key=anonymous_key, ip_address=None
        )
    SiteRating.objects.filter(user_id=user_id).update(user=None, visitor_key=anonymous_key)

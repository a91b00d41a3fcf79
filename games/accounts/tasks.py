"""Celery tasks of the accounts: the mail queue's sender (``games.accounts.emails``)."""

from celery import shared_task

from games.accounts import emails

SOFT_TIME_LIMIT = 20
HARD_TIME_LIMIT = 30


@shared_task(
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=HARD_TIME_LIMIT,
    autoretry_for=(OSError,),  # a mail server that did not answer (smtplib's errors are OSErrors)
    retry_backoff=10,
    retry_backoff_max=600,
    max_retries=8,
)
def send_mail(mail_id: str, to: str, subject: str, body: str) -> bool:
    """Send one queued mail; False when it had been sent already (the task ran again)."""
    return emails.deliver(mail_id=mail_id, to=to, subject=subject, body=body)

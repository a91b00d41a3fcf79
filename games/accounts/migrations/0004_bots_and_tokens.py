"""Bot accounts and personal access tokens (issue 14 §6). The one API token each account had
(DRF's ``authtoken_token``, its secret kept in clear) becomes an access token with every scope,
named "API token", of which only the SHA-256 is kept; the old table is dropped (the app
``rest_framework.authtoken`` is no longer installed). Existing clients keep their secret."""

import hashlib

import django.contrib.postgres.fields
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


OLD_TOKENS = "authtoken_token"


def hash_old_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TOKENS not in connection.introspection.table_names():
        return
    access_token = apps.get_model("accounts", "AccessToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD_TOKENS}")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        token = access_token.objects.create(
            user_id=user_id,
            name="API token",
            key_hash=hashlib.sha256(key.encode()).hexdigest(),
            prefix=key[:8],
            scopes=["challenge", "play", "read"],
        )
        access_token.objects.filter(pk=token.pk).update(created_at=created)
    schema_editor.execute(f"DROP TABLE {OLD_TOKENS}")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_email_verification'),
        ('auth', '0012_alter_user_first_name_max_length'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='BotAccount',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='bot', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.CreateModel(
            name='AccessToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100)),
                ('key_hash', models.CharField(max_length=64, unique=True)),
                ('prefix', models.CharField(max_length=8)),
                ('scopes', django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=16), size=None)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('last_used_at', models.DateTimeField(blank=True, null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='access_tokens', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        # Not reversible: the old table kept secrets in clear, which are gone.
        migrations.RunPython(hash_old_tokens, migrations.RunPython.noop),
    ]

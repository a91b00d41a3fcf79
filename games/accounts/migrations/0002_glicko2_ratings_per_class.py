"""Elo ratings become Glicko-2 ratings per class (issue 14 §3). Every existing rating is kept as
the account's starting Glicko-2 rating in the ``untimed`` class (every game so far had no
clock), with the library's starting deviation (350) and volatility (0.06): each account is
provisional again until its next rated games narrow the deviation. Past rating changes keep
their numbers, in the ``untimed`` class."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='playerrating',
            name='deviation',
            field=models.FloatField(default=350.0),
        ),
        migrations.AddField(
            model_name='playerrating',
            name='pool',
            field=models.CharField(default='untimed', max_length=16),
        ),
        migrations.AddField(
            model_name='playerrating',
            name='volatility',
            field=models.FloatField(default=0.06),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='deviation_after',
            field=models.FloatField(default=350.0),
        ),
        migrations.AddField(
            model_name='ratingchange',
            name='pool',
            field=models.CharField(default='untimed', max_length=16),
        ),
        migrations.AlterField(
            model_name='playerrating',
            name='rating',
            field=models.FloatField(default=1500.0),
        ),
        migrations.AlterField(
            model_name='playerrating',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='opponent_rating',
            field=models.FloatField(null=True),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='rating_after',
            field=models.FloatField(),
        ),
        migrations.AlterField(
            model_name='ratingchange',
            name='rating_before',
            field=models.FloatField(),
        ),
        migrations.AddIndex(
            model_name='playerrating',
            index=models.Index(fields=['pool', '-rating'], name='rating_leaderboard'),
        ),
        migrations.AddConstraint(
            model_name='playerrating',
            constraint=models.UniqueConstraint(fields=('user', 'pool'), name='rating_once_per_class'),
        ),
    ]

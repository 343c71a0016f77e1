"""API tokens get an expiry and a revocation time; the activity log and the history of
triage marks start.

Tokens were already stored as SHA-256 digests, so existing CI tokens keep working: they
get a full default period (90 days from this migration) before they expire. Every
existing triage mark becomes the first entry of its node's history.
"""

from datetime import timedelta

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


EXISTING_TOKEN_DAYS = 90


def expire_existing_tokens_later(apps, schema_editor):
    ApiToken = apps.get_model("incidents", "ApiToken")
    expires = django.utils.timezone.now() + timedelta(days=EXISTING_TOKEN_DAYS)
    ApiToken.objects.filter(expires_at__isnull=True).update(expires_at=expires)


def start_mark_history(apps, schema_editor):
    TreeMark = apps.get_model("incidents", "TreeMark")
    TreeMarkRevision = apps.get_model("incidents", "TreeMarkRevision")
    for mark in TreeMark.objects.all().iterator():
        revision = TreeMarkRevision.objects.create(
            incident_id=mark.incident_id,
            node_id=mark.node_id,
            state=mark.state,
            branch=mark.branch,
            note=mark.note,
            user_id=mark.user_id,
        )
        # auto_now_add stamped it now; the mark's own time is the truthful one.
        TreeMarkRevision.objects.filter(pk=revision.pk).update(created_at=mark.updated_at)


class Migration(migrations.Migration):

    dependencies = [
        ('incidents', '0006_run_lifecycle'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='apitoken',
            options={'ordering': ['-created_at', '-pk']},
        ),
        migrations.AddField(
            model_name='apitoken',
            name='expires_at',
            field=models.DateTimeField(null=True),
        ),
        migrations.AddField(
            model_name='apitoken',
            name='name',
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.AddField(
            model_name='apitoken',
            name='revoked_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name='Activity',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('actor_name', models.CharField(blank=True, max_length=150)),
                ('verb', models.CharField(max_length=40)),
                ('target', models.CharField(max_length=200)),
                ('field', models.CharField(blank=True, max_length=200)),
                ('old', models.TextField(blank=True)),
                ('new', models.TextField(blank=True)),
                ('at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                ('case', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='activity', to='incidents.case')),
                ('incident', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='activity', to='incidents.incident')),
            ],
            options={
                'verbose_name_plural': 'activity',
                'indexes': [models.Index(fields=['incident', '-at'], name='activity_incident_at'), models.Index(fields=['case', '-at'], name='activity_case_at')],
            },
        ),
        migrations.CreateModel(
            name='TreeMarkRevision',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('node_id', models.CharField(max_length=64)),
                ('state', models.CharField(max_length=10)),
                ('branch', models.CharField(blank=True, max_length=64)),
                ('note', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('incident', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tree_history', to='incidents.incident')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at', '-pk'],
                'indexes': [models.Index(fields=['incident', 'node_id'], name='treemarkrev_node')],
            },
        ),
            migrations.RunPython(expire_existing_tokens_later, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='apitoken',
            name='expires_at',
            field=models.DateTimeField(),
        ),
        migrations.RunPython(start_mark_history, migrations.RunPython.noop),
    ]

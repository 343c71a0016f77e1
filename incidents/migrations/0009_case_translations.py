"""Seeded cases carry the knowledge files' Chinese text (`Case.translations`)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("incidents", "0008_triage"),
    ]

    operations = [
        migrations.AddField(
            model_name="case",
            name="translations",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]

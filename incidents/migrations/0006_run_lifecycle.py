from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("incidents", "0005_run_fingerprint"),
    ]

    operations = [
        migrations.AddField(
            model_name="analysisrun",
            name="heartbeat_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="analysisrun",
            name="requeues",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]

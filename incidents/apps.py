from django.apps import AppConfig


class IncidentsConfig(AppConfig):
    name = "incidents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The case library's search index follows saves and deletes of cases.
        from incidents.library import search_index  # noqa: F401

from django.contrib import admin

from incidents.models import AnalysisRun, ApiToken, Bundle, Incident


class BundleInline(admin.StackedInline):
    model = Bundle
    readonly_fields = ("sha256", "original_name", "size_bytes", "uploaded_at")
    can_delete = False


class AnalysisRunInline(admin.TabularInline):
    model = AnalysisRun
    fields = ("state", "progress", "step", "started_at", "finished_at", "error")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Incident)
class IncidentAdmin(admin.ModelAdmin):
    list_display = ("short_id", "title", "status", "created_by", "created_at")
    list_filter = ("status",)
    search_fields = ("title", "bundle__original_name", "bundle__sha256")
    inlines = (BundleInline, AnalysisRunInline)


@admin.register(AnalysisRun)
class AnalysisRunAdmin(admin.ModelAdmin):
    list_display = ("pk", "incident", "state", "progress", "analyzer_version", "finished_at")
    list_filter = ("state",)
    readonly_fields = ("claimed_by", "report")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("prefix", "user", "created_at", "last_used_at")
    readonly_fields = ("digest", "prefix", "created_at", "last_used_at")


from incidents import admin_library  # noqa: E402, F401  issue 5: case library, tree triage

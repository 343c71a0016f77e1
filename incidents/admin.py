from django.contrib import admin

from incidents.models import Activity, AnalysisRun, ApiToken, Bundle, Incident


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
    readonly_fields = ("claimed_by", "timed_out_delivery", "report")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are issued on /account/tokens/ or with `issue_token`: the secret exists only
    then, so the admin can look, change the expiry or revoke, but not add one."""

    list_display = ("prefix", "user", "name", "created_at", "expires_at", "revoked_at")
    readonly_fields = ("user", "digest", "prefix", "created_at", "last_used_at")

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Activity)
class ActivityAdmin(admin.ModelAdmin):
    """The log is evidence: readable here, never edited."""

    list_display = ("at", "actor_name", "verb", "target", "field")
    list_filter = ("verb",)
    search_fields = ("actor_name", "target", "field", "old", "new")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


from incidents.library import admin as admin_library  # noqa: E402, F401  registers the library's admin pages

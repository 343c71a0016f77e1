"""Admin pages of the case library and tree triage (imported by incidents.admin)."""

from django.contrib import admin

from incidents.library.models import Case, CaseIncident
from incidents.tree.models import TreeMark


class CaseIncidentInline(admin.TabularInline):
    model = CaseIncident
    fields = ("incident", "source", "score", "linked_at")
    readonly_fields = ("linked_at",)
    raw_id_fields = ("incident",)
    extra = 0


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    list_display = ("slug", "title", "category", "source", "is_draft", "updated_at")
    list_filter = ("source", "is_draft", "category")
    search_fields = ("slug", "title")
    readonly_fields = ("created_at", "updated_at", "knowledge_file")
    inlines = (CaseIncidentInline,)


@admin.register(TreeMark)
class TreeMarkAdmin(admin.ModelAdmin):
    list_display = ("incident", "node_id", "state", "branch", "user", "updated_at")
    list_filter = ("state",)
    raw_id_fields = ("incident",)

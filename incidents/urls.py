from django.urls import path

from incidents.evidence import views as views_files
from incidents.library import views as views_library
from incidents.runs import views
from incidents.timeline import views as views_timeline
from incidents.tree import views as views_tree
from incidents.triage import views as views_triage

app_name = "incidents"

urlpatterns = [
    path("", views.incident_list, name="list"),
    path("new/", views.incident_upload, name="upload"),
    path("INC-<int:number>/", views.incident_detail, name="detail"),
    path("INC-<int:number>/status/", views.incident_status, name="status"),
    path("INC-<int:number>/reanalyze/", views.incident_reanalyze, name="reanalyze"),
    # Timeline data and the evidence log viewer.
    path("INC-<int:number>/timeline.json", views_timeline.incident_timeline, name="timeline"),
    path("INC-<int:number>/files/<path:path>", views_files.incident_file, name="file"),
    # Diagnosis tree, triage marks and promotion to a case.
    path("INC-<int:number>/tree/", views_tree.incident_tree, name="tree"),
    path("INC-<int:number>/tree/<slug:node_id>/mark/", views_tree.tree_mark, name="tree-mark"),
    path("INC-<int:number>/promote/", views_library.incident_promote, name="promote"),
    # Triage: state, owner, tags, tickets, root cause, decision; comments.
    path("INC-<int:number>/triage/", views_triage.triage_edit, name="triage"),
    path("INC-<int:number>/comments/", views_triage.comment_create, name="comment"),
    path("INC-<int:number>/export.md", views_triage.incident_export, name="export"),
]

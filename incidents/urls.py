from django.urls import path

# api_cases, views_library, views_tree: issue 5 (case library, diagnosis tree)
from incidents import api, api_cases, views, views_files, views_library, views_timeline, views_tree

app_name = "incidents"

urlpatterns = [
    path("", views.incident_list, name="list"),
    path("new/", views.incident_upload, name="upload"),
    path("INC-<int:number>/", views.incident_detail, name="detail"),
    path("INC-<int:number>/status/", views.incident_status, name="status"),
    path("INC-<int:number>/reanalyze/", views.incident_reanalyze, name="reanalyze"),
    # Timeline data and the evidence log viewer (issue 4).
    path("INC-<int:number>/timeline.json", views_timeline.incident_timeline, name="timeline"),
    path("INC-<int:number>/files/<path:path>", views_files.incident_file, name="file"),
    # Diagnosis tree, triage marks and promotion to a case (issue 5).
    path("INC-<int:number>/tree/", views_tree.incident_tree, name="tree"),
    path("INC-<int:number>/tree/<slug:node_id>/mark/", views_tree.tree_mark, name="tree-mark"),
    path("INC-<int:number>/promote/", views_library.incident_promote, name="promote"),
]

api_patterns = (
    [
        path("incidents/", api.incident_create, name="incidents"),
        path("incidents/INC-<int:number>/", api.incident_status, name="incident"),
        path("incidents/<int:number>/", api.incident_status, name="incident-by-number"),
        path("cases/", api_cases.case_list, name="cases"),  # issue 5
        path("cases/<slug:slug>/", api_cases.case_detail, name="case"),  # issue 5
    ],
    "api",
)

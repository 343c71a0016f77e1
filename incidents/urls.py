from django.urls import path

from incidents import api, views, views_files, views_timeline

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
]

api_patterns = (
    [
        path("incidents/", api.incident_create, name="incidents"),
        path("incidents/INC-<int:number>/", api.incident_status, name="incident"),
        path("incidents/<int:number>/", api.incident_status, name="incident-by-number"),
    ],
    "api",
)

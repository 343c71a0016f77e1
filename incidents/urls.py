from django.urls import path

from incidents import api, views

app_name = "incidents"

urlpatterns = [
    path("", views.incident_list, name="list"),
    path("new/", views.incident_upload, name="upload"),
    path("INC-<int:number>/", views.incident_detail, name="detail"),
    path("INC-<int:number>/status/", views.incident_status, name="status"),
    path("INC-<int:number>/reanalyze/", views.incident_reanalyze, name="reanalyze"),
]

api_patterns = (
    [
        path("incidents/", api.incident_create, name="incidents"),
        path("incidents/INC-<int:number>/", api.incident_status, name="incident"),
        path("incidents/<int:number>/", api.incident_status, name="incident-by-number"),
    ],
    "api",
)

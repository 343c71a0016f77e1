"""URL of the meeting view (`/meeting/`): its filters and place are query parameters."""

from django.urls import path

from incidents.meeting import views

app_name = "meeting"

urlpatterns = [
    path("", views.meeting, name="view"),
]

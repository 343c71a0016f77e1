from django.contrib import admin
from django.urls import include, path

from incidents import views
from incidents.urls import api_patterns

urlpatterns = [
    path("", views.home, name="home"),
    path("incidents/", include("incidents.urls")),
    path("library/", include("incidents.urls_library")),  # issue 5: case library
    path("api/", include(api_patterns)),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]

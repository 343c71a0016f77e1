from django.contrib import admin
from django.urls import include, path

from incidents.content_policy import csp_report
from incidents.runs import views

urlpatterns = [
    path("", views.home, name="home"),
    path("incidents/", include("incidents.urls")),
    path("library/", include("incidents.library.urls")),
    path("meeting/", include("incidents.meeting.urls")),
    path("api/", include("incidents.api.urls")),
    path("account/", include("incidents.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("csp-report/", csp_report, name="csp-report"),
    path("admin/", admin.site.urls),
]

# Under /api/ these answer JSON; elsewhere Django's own pages.
handler400 = "incidents.api.errors.handler400"
handler403 = "incidents.api.errors.handler403"
handler404 = "incidents.api.errors.handler404"
handler500 = "incidents.api.errors.handler500"

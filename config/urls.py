from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

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
    # The language switch posts to /i18n/setlang/; static/js/*.js read their texts through
    # gettext() from this catalog, served as a script file (no inline script under the CSP).
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]

# Under /api/ these answer JSON; elsewhere Django's own pages.
handler400 = "incidents.api.errors.handler400"
handler403 = "incidents.api.errors.handler403"
handler404 = "incidents.api.errors.handler404"
handler500 = "incidents.api.errors.handler500"

"""URLs of the case library (`/library/...`)."""

from django.urls import path

from incidents.library import views as views_library

app_name = "library"

urlpatterns = [
    path("", views_library.library_search, name="search"),
    path("tree/", views_library.library_tree, name="tree"),
    path("accuracy/", views_library.library_accuracy, name="accuracy"),
    path("drafts/", views_library.library_drafts, name="drafts"),
    path("<slug:slug>/", views_library.case_detail, name="case"),
    path("<slug:slug>/edit/", views_library.case_edit, name="case-edit"),
    path("<slug:slug>/publish/", views_library.case_publish, name="case-publish"),
]

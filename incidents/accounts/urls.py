"""The signed-in user's own settings (`/account/...`): API tokens."""

from django.urls import path

from incidents.accounts import views as views_account

app_name = "account"

urlpatterns = [
    path("tokens/", views_account.token_list, name="tokens"),
    path("tokens/<int:token_id>/revoke/", views_account.token_revoke, name="token-revoke"),
]

"""The signed-in user's own API tokens: issue one (shown once), see them, revoke one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from incidents.accounts.token_services import (
    DEFAULT_EXPIRY_DAYS,
    api_token_create,
    api_token_revoke,
)
from incidents.models import ApiToken

EXPIRY_CHOICES = [(7, _("7 days")), (30, _("30 days")), (90, _("90 days")), (365, _("1 year"))]


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=100, required=False, help_text=_("e.g. nightly CI")
    )
    expires_days = forms.TypedChoiceField(
        choices=EXPIRY_CHOICES, coerce=int, initial=DEFAULT_EXPIRY_DAYS, label=_("Expires in")
    )


@login_required
@never_cache
def token_list(request: HttpRequest) -> HttpResponse:
    """GET lists; POST issues a token and shows it in this answer only (not redirected,
    so the secret never passes through the session or a cookie)."""
    form = TokenForm(request.POST or None)
    secret = None
    if request.method == "POST" and form.is_valid():
        secret, _ = api_token_create(user=request.user, actor=request.user, **form.cleaned_data)
        form = TokenForm()
    tokens = ApiToken.objects.filter(user=request.user)
    context = {"form": form, "tokens": tokens, "secret": secret}
    return render(request, "account/tokens.html", context)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    if api_token_revoke(token=token, actor=request.user):
        messages.success(request, gettext("Revoked token %(prefix)s….") % {"prefix": token.prefix})
    return redirect("account:tokens")

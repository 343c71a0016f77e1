"""The diagnosis tree of one incident, and triage marks on its nodes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from analyzers.tree.walk import load_tree
from incidents.library.forms import TreeMarkForm
from incidents.models import Incident
from incidents.tree.drawing import build_tree_view, history_for, marks_for, report_stack
from incidents.tree.triage import tree_mark_save


@login_required
@require_GET
def incident_tree(request: HttpRequest, number: int) -> HttpResponse:
    incident = get_object_or_404(Incident, pk=number)
    report = _latest_report(incident)
    tree = build_tree_view(report, marks_for(incident.pk), history=history_for(incident.pk))
    context = {"incident": incident, "report": report, "tree": tree, "anchor": "node-"}
    return render(request, "incidents/tree.html", context)


@login_required
@require_POST
def tree_mark(request: HttpRequest, number: int, node_id: str) -> HttpResponse:
    incident = get_object_or_404(Incident, pk=number)
    node = load_tree().nodes.get(node_id)
    if node is None:
        raise Http404("No such node in the diagnosis tree.")
    form = TreeMarkForm(request.POST, node=node)
    if form.is_valid():
        tree_mark_save(incident=incident, node_id=node_id, user=request.user, **form.cleaned_data)
        question = node.words_for(report_stack(_latest_report(incident))).question
        saved = gettext("Saved your triage of “%(question)s”.") % {"question": question}
        messages.success(request, saved)
    else:
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    return HttpResponseRedirect(_back(request, incident, node_id))


def _latest_report(incident: Incident) -> dict[str, Any] | None:
    run = incident.latest_run()
    return run.report if run is not None and run.report else None


def _back(request: HttpRequest, incident: Incident, node_id: str) -> str:
    """Back to the page the form was on (detail or tree page), at the node's anchor."""
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure())
    if not safe or not target.startswith("/"):
        target = incident.get_absolute_url() + f"#tree-{node_id}"
    return target

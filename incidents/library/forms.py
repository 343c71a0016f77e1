"""Forms of the case library: editing a case, and a triage mark on a tree node."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from analyzers.core.saferegex import UnsafeRegex, compile_user_regex
from analyzers.tree.walk import TreeNode
from incidents.library.models import CASE_TEXT_FIELDS, HARDWARE_CHOICES, Case
from incidents.tree.models import TreeMark


class LinesField(forms.CharField):
    """A list edited as text, one item per line (or comma-separated with `commas`)."""

    def __init__(self, *, commas: bool = False, rows: int = 3, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": rows}))
        super().__init__(strip=False, **kwargs)
        self.commas = commas

    def prepare_value(self, value: Any) -> str:
        if isinstance(value, list | tuple):
            return "\n".join(str(v) for v in value)
        return value or ""

    def to_python(self, value: Any) -> list[str]:
        text = super().to_python(value) or ""
        pieces = re.split(r"[\n,]" if self.commas else r"\n", text)
        return list(dict.fromkeys(p.strip() for p in pieces if p.strip()))


class CaseForm(forms.ModelForm):
    symptoms = LinesField(label=_("Symptoms"), help_text=_("How the failure shows, one per line."))
    signatures = LinesField(
        label=_("Signatures"), help_text=_("Regular expressions over error lines, one per line.")
    )
    codes = LinesField(
        label=_("Error codes"),
        commas=True,
        rows=1,
        help_text=_("Error codes, e.g. 507014, EZ9999."),
    )
    operators = LinesField(
        label=_("Operators"),
        commas=True,
        rows=1,
        help_text=_("Operator names, exactly as logged."),
    )
    hardware = forms.MultipleChoiceField(
        label=_("Hardware"),
        choices=[(h, h) for h in HARDWARE_CHOICES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    verify = LinesField(
        label=_("Verify"), help_text=_("How to check the fix worked, one per line.")
    )
    references = LinesField(
        label=_("References"), help_text=_("Issues, documents, incidents, one per line.")
    )
    tags = LinesField(label=_("Tags"), commas=True, rows=1)

    class Meta:
        model = Case
        fields = list(CASE_TEXT_FIELDS)
        # Labels here rather than verbose names on the model: no migration for a wording.
        labels = {
            "title": _("Title"),
            "category": _("Category"),
            "root_cause": _("Root cause"),
            "fix": _("Fix"),
        }
        widgets = {
            "root_cause": forms.Textarea(attrs={"rows": 4}),
            "fix": forms.Textarea(attrs={"rows": 4}),
        }

    def clean_signatures(self) -> list[str]:
        signatures = self.cleaned_data["signatures"]
        for signature in signatures:
            try:  # matched against every later analysis: linear-time regexes only
                compile_user_regex(signature, ignore_case=True)
            except UnsafeRegex as error:
                message = gettext("signature %(error)s") % {"error": error}
                raise forms.ValidationError(message) from error
        return signatures

    def clean_hardware(self) -> list[str]:
        return self.cleaned_data["hardware"] or ["any"]


class TreeMarkForm(forms.Form):
    """Mark a node checked, choose another branch than the analyzer did, or clear the mark."""

    CLEAR = "clear"
    state = forms.ChoiceField(choices=[*TreeMark.State.choices, (CLEAR, _("Clear the mark"))])
    branch = forms.ChoiceField(required=False)
    note = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, node: TreeNode, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.node = node
        self.fields["branch"].choices = [("", "—"), *((c, c) for c in node.children)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("state") == TreeMark.State.OVERRIDE and not data.get("branch"):
            raise forms.ValidationError(_("Choose the branch that applies instead."))
        if data.get("state") != TreeMark.State.OVERRIDE:
            data["branch"] = ""
        return data

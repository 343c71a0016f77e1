"""JSON bodies that are text: a string escaping half of a surrogate pair is refused.

JSON lets a string escape a lone surrogate (`"\\ud800"`); Python reads it into a `str` that
cannot be encoded, so the database refused it when the value was saved and the API answered
500. Such a body is refused as unreadable instead (400), as a body that is not JSON is.
"""

from __future__ import annotations

import json
import re

from django.http import HttpRequest
from ninja.parser import Parser
from ninja.types import DictStrAny

# `\ud800`..`\udfff` in the raw body: the only way a surrogate gets into a UTF-8 JSON body.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class BodyNotText(ValueError):
    """A JSON body that parses but holds a string no text encoding can carry."""


class JsonTextParser(Parser):
    def parse_body(self, request: HttpRequest) -> DictStrAny:
        data = super().parse_body(request)
        body = request.body
        if b"\\u" in body and _SURROGATE_ESCAPE.search(body):
            try:  # a well-formed pair (an emoji) decodes to one character and passes
                json.dumps(data, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                raise BodyNotText(
                    "a string holds an unpaired surrogate escape (\\ud800-\\udfff)"
                ) from None
        return data

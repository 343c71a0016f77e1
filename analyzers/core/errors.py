"""Errors the analyzers raise for bad input (as opposed to bugs).

Callers (CLI, Celery task) show `str(error)` to the user and do not retry. The message is a
phrasebook entry (`error.*` in knowledge/phrases.yaml), so its Chinese comes with it
(`error.zh`), and an English one stored earlier can be re-filled into Chinese later
(`analyzers.core.phrases.refilled`).
"""

from __future__ import annotations

from analyzers.core.phrases import Said, plain, say


class BundleError(Exception):
    """The bundle cannot be read: not an archive or log, truncated, or unreadable."""

    def __init__(self, message: Said | str) -> None:
        said = message if isinstance(message, Said) else plain(message)
        super().__init__(said.en)
        self.zh = said.zh

    def __reduce__(self) -> tuple[type[BundleError], tuple[Said]]:
        # Raised in a scanner process, it crosses back pickled: keep both languages.
        return (type(self), (Said(str(self), self.zh),))

    @classmethod
    def saying(cls, key: str, **values: str | int) -> BundleError:
        """The error whose message is phrasebook entry `key` filled with `values`."""
        return cls(say(key, **values))

"""Load the knowledge files once, check them, and compile their regexes.

The failure knowledge is data (`knowledge/signatures.yaml`, `error_codes.yaml`,
`actions.yaml`): each file is read and checked by its own module (`classify.signature_file`,
`classify.errorcodes`, `classify.action_book`), and this one puts them together as the
`Knowledge` every stage asks, read once per process and once per content across processes,
less the signatures an ablation holds back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from analyzers.classify.action_book import ActionBook, load_actions
from analyzers.classify.chinese import with_meanings, with_titles
from analyzers.classify.errorcodes import CodeTable, load_codes
from analyzers.classify.signature import Signature
from analyzers.classify.signature_file import load_signatures
from analyzers.classify.signature_index import SignatureIndex
from analyzers.classify.xid import XID_FILE
from analyzers.core.knowledge_cache import cached
from analyzers.core.signal_names import SIGNAL_NAMES_FILE

KNOWLEDGE_DIR = Path(__file__).parents[1] / "knowledge"


@dataclass(frozen=True, slots=True)
class Knowledge:
    signatures: tuple[Signature, ...]
    codes: CodeTable
    actions: ActionBook
    index: SignatureIndex

    def keywords(self) -> tuple[str, ...]:
        """Every keyword once, for prefilters and the benchmark's grep alternation."""
        seen: dict[str, None] = {}
        for sig in self.signatures:
            seen.update(dict.fromkeys(sig.keywords))
        return tuple(seen)

    def grep_alternation(self) -> str:
        """An extended-regex (`grep -E`) alternation of the keywords."""
        return "|".join(re.sub(r"([.[\]()*+?{}|^$\\])", r"\\\1", k) for k in self.keywords())


def load_knowledge(directory: Path = KNOWLEDGE_DIR) -> Knowledge:
    """The three knowledge files, read and checked (once per process, and once per content
    across processes: `core.knowledge_cache`), less the signatures `signatures_disabled`
    holds back in the current context."""
    disabled = _DISABLED.get()
    return _without(directory, disabled) if disabled else _load_all(directory)


@contextmanager
def signatures_disabled(ids: Iterable[str]) -> Iterator[None]:
    """Analyses run inside see the knowledge without these signatures: what the analyzer
    makes of a line in wording no rule knows yet (the eval's rule ablation) is measured on
    the lines rules do know, by taking their rules away."""
    token = _DISABLED.set(frozenset(ids))
    try:
        yield
    finally:
        _DISABLED.reset(token)


def signatures_held_back() -> frozenset[str]:
    """The ids `signatures_disabled` holds back in the current context (none outside it)."""
    return _DISABLED.get()


_DISABLED: ContextVar[frozenset[str]] = ContextVar("disabled_signatures", default=frozenset())


@lru_cache(maxsize=4)  # an ablation holds back a different set for every case it runs
def _without(directory: Path, disabled: frozenset[str]) -> Knowledge:
    full = _load_all(directory)
    kept = tuple(sig for sig in full.signatures if sig.id not in disabled)
    return replace(full, signatures=kept, index=SignatureIndex(kept))


@cache
def _load_all(directory: Path) -> Knowledge:
    names = ("signatures.yaml", SIGNAL_NAMES_FILE, XID_FILE, "error_codes.yaml", "actions.yaml")
    sources = [directory / name for name in names]
    sources += sorted((directory / "zh").glob("*.yaml"))
    return cached("knowledge", sources, lambda: _read_knowledge(directory))


def _read_knowledge(directory: Path) -> Knowledge:
    signatures = with_titles(load_signatures(directory / "signatures.yaml"), directory / "zh")
    return Knowledge(
        signatures=signatures,
        codes=with_meanings(load_codes(directory / "error_codes.yaml"), directory / "zh"),
        actions=load_actions(directory / "actions.yaml"),
        index=SignatureIndex(signatures),
    )

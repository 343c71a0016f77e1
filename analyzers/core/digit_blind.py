"""Tell whether a regex treats every ASCII digit alike, so lines that differ only in their
digits get the same answer from it and one answer can serve them all.

A noisy job prints the same warning on every step (`UserWarning: step 1288: ...`, `step
1289`, ...): tens of thousands of lines a judge of severity reads one by one, though they
differ only in a number. A pattern that writes no digit itself and whose every character
class holds all ten digits or none (`\\d`, `\\w`, `[^\\]]`, but not `[0-5]` nor `exit code 1`)
cannot tell `1288` from `0000`, and has no backreference to compare two numbers with: its
matches on a line and on the line with each digit made `0` are the same. Anything the parser
does not know, or cannot be shown blind, counts as not blind.

    >>> import re
    >>> blind(re.compile(r"error code is \\d+"))
    True
    >>> blind(re.compile(r"exit code [1-9]"))
    False
"""

from __future__ import annotations

import re
from typing import Any

try:  # the parser behind `re`; without it nothing is taken as blind
    from re import _compiler, _constants, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - another implementation
    _parser = None

DIGITS = frozenset(range(ord("0"), ord("9") + 1))
ZEROED = str.maketrans("123456789", "000000000")
# each class the parser names, and whether it holds the digits (all of them) or none
_CATEGORIES = {"CATEGORY_DIGIT": True, "CATEGORY_NOT_DIGIT": False, "CATEGORY_WORD": True}
_CATEGORIES |= {"CATEGORY_NOT_WORD": False, "CATEGORY_SPACE": False, "CATEGORY_NOT_SPACE": True}
_CATEGORIES |= {"CATEGORY_LINEBREAK": False, "CATEGORY_NOT_LINEBREAK": True}
_SAFE_AT = {"AT_BEGINNING", "AT_BEGINNING_LINE", "AT_BEGINNING_STRING", "AT_BOUNDARY"}
_SAFE_AT |= {"AT_NON_BOUNDARY", "AT_END", "AT_END_LINE", "AT_END_STRING"}
_SAFE_AT |= {"AT_UNI_BOUNDARY", "AT_UNI_NON_BOUNDARY", "AT_LOC_BOUNDARY", "AT_LOC_NON_BOUNDARY"}


def zeroed(text: str) -> str:
    """`text` with every ASCII digit made `0` (the same length, the same non-digits)."""
    return text.translate(ZEROED)


def blind(pattern: re.Pattern[Any] | None) -> bool:
    """True when `pattern` is sure to answer a line and its `zeroed` copy alike (None, a
    check that is skipped, is blind too)."""
    if pattern is None:
        return True
    if _parser is None:
        return False
    try:
        return _items_blind(_parser.parse(pattern.pattern, pattern.flags))
    except Exception:  # a parser of another Python: not shown blind
        return False


def _items_blind(items: Any) -> bool:
    return all(_item_blind(op, value) for op, value in items)


def _item_blind(op: Any, value: Any) -> bool:
    name = str(op)
    if name in ("LITERAL", "NOT_LITERAL"):
        return value not in DIGITS
    if name == "IN":
        return _set_blind(value)
    if name in ("ANY", "FAILURE", "SUCCESS"):
        return True
    if name == "AT":
        return str(value) in _SAFE_AT
    if name == "CATEGORY":
        return str(value) in _CATEGORIES
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _items_blind(value[2])
    if name == "SUBPATTERN":
        return _items_blind(value[-1])
    if name == "ATOMIC_GROUP":
        return _items_blind(value)
    if name in ("ASSERT", "ASSERT_NOT"):
        return _items_blind(value[1])
    if name == "BRANCH":
        return all(_items_blind(branch) for branch in value[1])
    return False  # backreferences and anything unknown


def _set_blind(members: Any) -> bool:
    """A character class holds all ten digits or none of them."""
    held: set[int] = set()
    for op, value in members:
        name = str(op)
        if name == "NEGATE":
            continue
        if name == "LITERAL":
            held |= {value} & DIGITS
        elif name == "RANGE":
            held |= DIGITS & set(range(value[0], value[1] + 1))
        elif name == "CATEGORY" and str(value) in _CATEGORIES:
            held |= DIGITS if _CATEGORIES[str(value)] else set()
        else:
            return False
    return not held or held == DIGITS


def widened(pattern: re.Pattern[Any] | None) -> re.Pattern[Any] | None:
    """A pattern that matches a line's `zeroed` copy wherever `pattern` matches the line.

    A digit the pattern writes, or a class holding some digits, is made to take any digit,
    so when the widened pattern finds nothing in a zeroed line, the pattern finds nothing in
    any line of which it is the zeroed copy. Inside a negative lookaround the opposite is
    needed (it must fail less, not more), so there a digit takes none. None when the pattern
    is already blind (it is its own widening) or cannot be rewritten (then it is returned as
    it is, which the caller must not take as widened: see `widen_or_none`)."""
    if pattern is None or blind(pattern):
        return pattern
    return widen_or_none(pattern)


def widen_or_none(pattern: re.Pattern[Any]) -> re.Pattern[Any] | None:
    return _rewritten(pattern, wider=True)


def digit_part(pattern: re.Pattern[Any]) -> re.Pattern[Any] | None:
    """The branches of a top-level alternation that name digits, widened (the whole pattern
    widened when it is no alternation). Where it finds nothing in a zeroed line, those
    branches find nothing in any line of that form, so the pattern acts there as its blind
    branches alone: alike on all of them, whether searched, matched or substituted. None
    when the pattern cannot be rewritten."""
    if _parser is None:
        return None
    try:
        tree = _parser.parse(pattern.pattern, pattern.flags)
        if len(tree.data) == 1 and str(tree.data[0][0]) == "BRANCH":
            kept = [branch for branch in tree.data[0][1][1] if not _items_blind(branch)]
            tree.data = [(tree.data[0][0], (None, kept))] if len(kept) > 1 else kept[0].data
        if not _rewrite(tree.data, wider=True):
            return None
        return _compiler.compile(tree, tree.state.flags)
    except Exception:  # another Python's parser: no rewriting
        return None


def narrowed(pattern: re.Pattern[Any]) -> re.Pattern[Any] | None:
    """A blind pattern that finds a match only where `pattern` finds one, whatever the
    digits: a digit the pattern writes, or a class holding some digits, takes none (and in a
    negative lookaround, any). Where it matches a zeroed line, `pattern` matches every line
    of which that is the zeroed copy. None when the pattern cannot be rewritten."""
    return _rewritten(pattern, wider=False)


def _rewritten(pattern: re.Pattern[Any], *, wider: bool) -> re.Pattern[Any] | None:
    if _parser is None:
        return None
    try:
        tree = _parser.parse(pattern.pattern, pattern.flags)
        if not _rewrite(tree.data, wider=wider):
            return None
        return _compiler.compile(tree, tree.state.flags)
    except Exception:  # another Python's parser: no rewriting
        return None


def _rewrite(items: Any, *, wider: bool) -> bool:
    """Rewrite `items` in place; False when some item cannot be."""
    for index, (op, value) in enumerate(items):
        replaced = _rewrite_item(str(op), value, wider=wider)
        if replaced is None:
            return False
        items[index] = replaced if replaced is not True else (op, value)
    return True


def _rewrite_item(name: str, value: Any, *, wider: bool) -> Any:
    if name in ("LITERAL", "NOT_LITERAL", "IN"):
        return _rewrite_char(name, value, wider=wider)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _rewrite(value[2], wider=wider) or None
    if name == "SUBPATTERN":
        return _rewrite(value[-1], wider=wider) or None
    if name == "ATOMIC_GROUP":
        return _rewrite(value, wider=wider) or None
    if name == "ASSERT":
        return _rewrite(value[1], wider=wider) or None
    if name == "ASSERT_NOT":
        return _rewrite(value[1], wider=not wider) or None
    if name == "BRANCH":
        return all(_rewrite(branch, wider=wider) for branch in value[1]) or None
    if name in ("GROUPREF", "GROUPREF_IGNORE", "GROUPREF_UNI_IGNORE") and wider:
        return True  # equal groups stay equal once zeroed
    if name in ("ANY", "AT", "CATEGORY", "SUCCESS", "FAILURE"):
        return name != "AT" or str(value) in _SAFE_AT or None
    return None


def _rewrite_char(name: str, value: Any, *, wider: bool) -> Any:
    """One character test: taking any digit where it took one (wider) or none (narrower)."""
    members = [(_constants.LITERAL, value)] if name != "IN" else list(value)
    negated = name == "NOT_LITERAL" or bool(members and str(members[0][0]) == "NEGATE")
    if _set_blind(members if name == "IN" else [(_constants.LITERAL, value)]):
        return True
    if name == "IN" and negated:
        members = members[1:]
    if any(_straddles(item) for item in members):
        return None  # a range from a digit to a letter: not rewritten
    kept = [item for item in members if not _is_digit_member(item)]
    digits = (_constants.RANGE, (ord("0"), ord("9")))
    takes_digits = wider != negated  # a negated class takes a digit by leaving it out
    if takes_digits:
        kept.append(digits)
    if negated:
        kept.insert(0, (_constants.NEGATE, None))
    return (_constants.IN, kept) if kept else (_constants.FAILURE, ())


def _is_digit_member(item: Any) -> bool:
    op, value = item
    if str(op) == "LITERAL":
        return value in DIGITS
    return str(op) == "RANGE" and bool(DIGITS & set(range(value[0], value[1] + 1)))


def _straddles(item: Any) -> bool:
    """A range holding some digits and something besides."""
    op, value = item
    return _is_digit_member(item) and str(op) == "RANGE" and not (48 <= value[0] <= value[1] <= 57)

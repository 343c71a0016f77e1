"""Terminal colour codes in log lines → text segments with CSS class names.

Logs captured from a terminal carry ANSI escapes (`ESC[31m` red, `ESC[1m` bold, ...).
The viewer shows their effect as styles and never the raw bytes: colour (SGR) escapes
become class names from a fixed set, every other escape sequence is dropped, and other
control characters are shown as visible symbols. The text itself stays plain: the
template escapes it like any other text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# CSI (`ESC [ params final`), OSC (`ESC ] ... BEL|ST`) or a two-byte escape.
_ESCAPE = re.compile(r"\x1b(?:\[([0-?]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

_FLAGS = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "inverse"}
_FLAG_OFF = {
    21: ("bold",),
    22: ("bold", "dim"),
    23: ("italic",),
    24: ("underline",),
    27: ("inverse",),
}


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    css: str = ""  # space-separated `ansi-*` classes, empty for plain text


@dataclass(slots=True)
class _Style:
    fg: int | None = None  # palette index 0-15
    bg: int | None = None
    flags: set[str] = field(default_factory=set)

    def css(self) -> str:
        classes = [f"ansi-{flag}" for flag in sorted(self.flags)]
        if self.fg is not None:
            classes.append(f"ansi-fg-{self.fg}")
        if self.bg is not None:
            classes.append(f"ansi-bg-{self.bg}")
        return " ".join(classes)

    def apply(self, params: str) -> None:
        codes = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else [0]
        i = 0
        while i < len(codes):
            i += self._apply_one(codes, i)

    def _apply_one(self, codes: list[int], i: int) -> int:
        """Apply codes[i]; returns how many codes it used (256-colour forms take several)."""
        code = codes[i]
        if code == 0:
            self.fg, self.bg, self.flags = None, None, set()
        elif code in _FLAGS:
            self.flags.add(_FLAGS[code])
        elif code in _FLAG_OFF:
            self.flags.difference_update(_FLAG_OFF[code])
        elif 30 <= code <= 37 or 90 <= code <= 97:
            self.fg = code - 30 if code < 90 else code - 82
        elif 40 <= code <= 47 or 100 <= code <= 107:
            self.bg = code - 40 if code < 100 else code - 92
        elif code in (39, 49):
            self.fg, self.bg = (None, self.bg) if code == 39 else (self.fg, None)
        elif code in (38, 48):
            return self._extended(codes, i)
        return 1

    def _extended(self, codes: list[int], i: int) -> int:
        """`38;5;n` (palette) keeps n < 16; `38;2;r;g;b` (true colour) is skipped."""
        mode = codes[i + 1] if i + 1 < len(codes) else None
        if mode == 5 and i + 2 < len(codes):
            index = codes[i + 2]
            if index < 16:
                if codes[i] == 38:
                    self.fg = index
                else:
                    self.bg = index
            return 3
        return 5 if mode == 2 else 2


def segments(text: str) -> list[Segment]:
    """Split a log line into styled segments; no escape or control byte survives."""
    style = _Style()
    out: list[Segment] = []
    pos = 0
    for match in _ESCAPE.finditer(text):
        _emit(out, text[pos : match.start()], style)
        if match.group(2) == "m":
            style.apply(match.group(1) or "")
        pos = match.end()
    _emit(out, text[pos:], style)
    return out


def _emit(out: list[Segment], text: str, style: _Style) -> None:
    if not text:
        return
    text = _CONTROL.sub(_visible, text)
    css = style.css()
    if out and out[-1].css == css:
        out[-1] = Segment(out[-1].text + text, css)
    else:
        out.append(Segment(text, css))


def _visible(match: re.Match[str]) -> str:
    """A control character as its Unicode 'control picture' (ESC → ␛)."""
    code = ord(match.group())
    return "\u2421" if code == 0x7F else chr(0x2400 + code)

"""Error codes inside a message, normalised so rules and the code table can look them up.

- CANN error-manager codes: `EZ9999`, `EE1002`, `EI0006`, `EL0001`, `EH9999`, `E89999`, ...
- torch_npu PTA codes: `ERR00100`
- ACL / runtime numbers: `error code is 507014`, `runtime result = 507015`, `result = 500001`,
  `errno:561103` (the operator library's log: `errno[161002]`), a registration call's
  `... ret 107000`, `retCode=0x25` / `retCode=0x00c29be` (hex kept as written, lower case);
  helper libraries print `acl Error, code: 207001` and `...GetWorkspaceSize failed with
  aclnnStatus=561002`, runtime calls inside an aclnn op `rtKernelLaunchWithHandleV2 failed:
  507014`, Paddle's plugin `ACL error, the error code is : 500002` and its runtime checks
  `Call aclrtSynchronizeStream(...) failed : 507015 at file ...`; runtime harnesses write
  `runtime_setup failed with code 507033` (a process's exit status there is too small to count);
  applications on ACL write the number short: MindX SDK brackets it before its description
  (`[507011][Error code unknown] Failed to model infer execute`), others print `error:507011`
  or `ret=507011`. Those short forms count only six digits of an ACL class: a pid bracketed
  before a module tag (`[114725][HCCL_TRACE]`), a size or an address is no code
- HCCL return codes (small numbers after an HCCL call, `ret[9]`, `hcclRet -> 19`) become the
  names of hccl_types.h, e.g. `HCCL_E_TIMEOUT`, because a bare `9` means nothing on its own.
"""

from __future__ import annotations

import re

from analyzers.core import regex_programs

_CANN = regex_programs.compile(r"(?<![A-Za-z0-9])E[0-9A-Z]\d{4}(?![0-9])")
_PTA = regex_programs.compile(r"(?<![A-Za-z0-9])ERR\d{5}(?![0-9])")
_NUMERIC = regex_programs.compile(
    r"(?:error code(?: is)?\s*[:=]?|runtime result =|\bresult =|\berrno[:=[]|\bret(?:urn)? ?code[=:]|\bret (?=\d{6}\b)"
    r"|\bacl error, code:|\baclnnStatus\s*=|\b(?:rt|acl)[A-Z]\w* failed:"
    r"|\bcall (?:rt|acl)\w+\(.*\) failed ?:|\b(?:failed|error) with (?:error )?code[:=]?)"
    r"\s*(-?\d+|0x[0-9a-fA-F]+)",
    re.IGNORECASE,
)
# The short forms: the bracketed number must be followed by a bracket of words (MindX's
# description), not by a one-word tag as a log's pid is (`[114725][HCCL_TRACE]`).
_ACL_SHORT = regex_programs.compile(
    r"\[([1235]\d{5})\]\[(?=[A-Za-z][^\]\s]*\s[^\]]*\])"
    r"|(?<![\w.])(?:error|ret)[:=]([1235]\d{5})(?![\w.])",
    re.IGNORECASE,
)
_HEX_RET = regex_programs.compile(r"\b(?:retCode|InnerCode|errNo)[=\[](0x[0-9a-fA-F]+)")
_HCCL_RET = regex_programs.compile(
    r"(?:\bret\[|hcclRet -> ?|HCCL function error: .*error code is |"
    r"function error: [Hh]ccl\w*, error code is )(\d+)"
)

HCCL_RETURN_CODES = [
    "HCCL_SUCCESS",
    "HCCL_E_PARA",
    "HCCL_E_PTR",
    "HCCL_E_MEMORY",
    "HCCL_E_INTERNAL",
    "HCCL_E_NOT_SUPPORT",
    "HCCL_E_NOT_FOUND",
    "HCCL_E_UNAVAIL",
    "HCCL_E_SYSCALL",
    "HCCL_E_TIMEOUT",
    "HCCL_E_OPEN_FILE_FAILURE",
    "HCCL_E_TCP_CONNECT",
    "HCCL_E_ROCE_CONNECT",
    "HCCL_E_TCP_TRANSFER",
    "HCCL_E_ROCE_TRANSFER",
    "HCCL_E_RUNTIME",
    "HCCL_E_DRV",
    "HCCL_E_PROFILING",
    "HCCL_E_CCE",
    "HCCL_E_NETWORK",
    "HCCL_E_AGAIN",
    "HCCL_E_REMOTE",
    "HCCL_E_SUSPENDING",
    "HCCL_E_OPRETRY_FAIL",
    "HCCL_E_OOM",
]
_ACL_MIN = 100000  # ACL/runtime codes are six digits; smaller numbers are another family


def extract_codes(message: str, hccl: bool = False) -> tuple[str, ...]:
    """Codes in order of appearance, without repeats (`hccl`: the line came from HCCL)."""
    found: list[str] = []
    found += _CANN.findall(message)
    found += _PTA.findall(message)
    for value in _NUMERIC.findall(message):
        if value.lower().startswith("0x"):
            found.append(value.lower())
        elif value.lstrip("-").isdigit() and abs(int(value)) >= _ACL_MIN:
            found.append(str(abs(int(value))))
    found += [bracketed or short for bracketed, short in _ACL_SHORT.findall(message)]
    found += [value.lower() for value in _HEX_RET.findall(message)]
    if hccl or "hccl" in message.lower():
        found += [_hccl_name(value) for value in _HCCL_RET.findall(message)]
    return tuple(dict.fromkeys(code for code in found if code))


def _hccl_name(value: str) -> str:
    number = int(value)
    if 0 < number < len(HCCL_RETURN_CODES):
        return HCCL_RETURN_CODES[number]
    return ""

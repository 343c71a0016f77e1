"""torch_npu summary codes are ERR<module><kind>; an unlisted code is read by its kind.

ERR00007 (PTA) and ERR02007 (DIST) both say "feature not supported": the last three digits
carry the meaning in every module, so one entry per kind covers codes nobody listed. (ERR01007,
an operator the NPU backend lacks, is listed on its own as an operator failure.)
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import diagnose_text

KNOWLEDGE = load_knowledge()


def test_an_unlisted_summary_code_takes_its_kinds_meaning() -> None:
    for code in ("ERR00007", "ERR02007", "ERR03007"):
        info = KNOWLEDGE.codes.lookup(code)
        assert info is not None, code
        assert (info.code, info.table, info.category) == (code, "pta", "config")
    ops = KNOWLEDGE.codes.lookup("ERR01007")
    assert ops is not None
    assert ops.category == "operator"  # listed: the module decides
    listed = KNOWLEDGE.codes.lookup("ERR00100")
    assert listed is not None
    assert listed.category is None  # a listed code keeps its own entry
    assert KNOWLEDGE.codes.lookup("ERR00042") is None  # no kind 042


def test_feature_not_supported_summary_is_a_configuration_problem() -> None:
    text = (
        "(EngineCore_DP0 pid=70312) ERROR 03-02 09:14:51 [core.py:655] RuntimeError: "
        "Do not support this queue mode while the NPU stream is being captured.\n"
        "(EngineCore_DP0 pid=70312) ERROR 03-02 09:14:51 [core.py:655] [ERROR] "
        "2026-03-02-09:14:51 (PID:70312, Device:3, RankID:-1) ERR00007 PTA feature not supported\n"
        "(EngineCore_DP0 pid=70312) Process EngineCore_DP0:\n"
        "(EngineCore_DP0 pid=70312) Traceback (most recent call last):\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert (
        "ERR00007" in diagnosis.first_error.text or "Do not support" in diagnosis.first_error.text
    )

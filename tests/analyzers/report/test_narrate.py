"""The root-cause sentence and the culprit note are written in English and Chinese by the
same code: the Chinese follows the same decisions (which rank, which code, who followed)
with Chinese words and word order, and quotes the log as printed."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from analyzers import analyze
from analyzers.classify.rules import load_knowledge
from analyzers.core.phrases import say
from analyzers.report.culprit_note import culprit_note
from analyzers.report.narrate import Story, root_cause, title
from tests.analyzers.excerpts import diagnose_files
from tests.analyzers.report.test_diagnose import (
    ENV,
    STEPS,
    loading,
    stamped,
)
from tests.corpus_path import CORPUS

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "analyzers/schema/report.schema.json").read_text()
)


def signature(signature_id: str):
    return next(s for s in load_knowledge().signatures if s.id == signature_id)


def test_an_operator_exception_on_one_rank_with_followers_and_a_checkpoint():
    story = Story(
        title=title(signature("aicore.fftsplus_exception")),
        culprits=[2],
        rank=2,
        operator="aclnnRmsNorm",
        code=load_knowledge().codes.lookup("507015"),
        where="log_2.log:41",
        quote="there is an exception of fftsplus aivector error, core id is 32",
        followers=[3, 0, 1],
        checkpoint="layer 3 / norm passed",
    )

    said = root_cause(story)

    assert said.en == (
        "AI Core / vector core exception on the device in aclnnRmsNorm (code 507015: An AI Core"
        " kernel raised an exception while running (aicore exception)) on rank 2 at"
        ' log_2.log:41: "there is an exception of fftsplus aivector error, core id is 32".'
        " Ranks 0, 1, 3 failed afterwards as a consequence."
        " Last checkpoint every rank reached: 'layer 3 / norm passed'."
    )
    assert said.zh == (
        "设备上 AI Core / Vector Core 异常，出错算子 aclnnRmsNorm（错误码 507015：AI Core kernel"
        " 运行时发生异常（aicore exception）），发生在 rank 2，位置 log_2.log:41："
        "“there is an exception of fftsplus aivector error, core id is 32”。"
        "rank 0、1、3 随后受其影响而失败。"
        "所有 rank 都到达的最后一个检查点：“layer 3 / norm passed”。"
    )


def test_a_first_error_reported_by_a_peer_says_who_caused_it():
    why = say("blame.rank_error_names", rank=0, many=False)
    note = culprit_note(0, [2], why)
    story = Story(
        title=title(signature("hccl.monitored_barrier_failed")),
        culprits=[2],
        rank=0,
        where="log_0.log:20",
        quote="[Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms",
        followers=[1, 3],
        culprit_note=note,
    )

    said = root_cause(story)

    assert note is not None
    assert note.en == "Rank 0 reported first; rank 2 caused it: rank 0's error names it."
    assert note.zh == "rank 0 最先报错；起因在 rank 2：rank 0 的报错点名了该 rank。"
    assert said.en.startswith("Ranks failed to reach the monitored barrier reported by rank 0 ")
    assert said.zh == (
        "有 rank 未能到达 monitored barrier，由 rank 0 上报，位置 log_0.log:20："
        "“[Rank 0]: Rank 2 failed to pass monitoredBarrier in 5000 ms”。"
        "rank 0 最先报错；起因在 rank 2：rank 0 的报错点名了该 rank。"
        "rank 1、3 随后受其影响而失败。"
    )


def test_an_unrecognised_line_and_a_code_known_by_its_family():
    story = Story(
        title=title(None),
        code=load_knowledge().codes.lookup("EZ7777"),
        where="plog-1.log:3",
        quote="something odd",
    )

    said = root_cause(story)

    assert said.en == (
        'Unrecognised error (code EZ7777: Operator / aclnn layer error) at plog-1.log:3: "something odd".'
    )
    assert (
        said.zh
        == "未识别的错误（错误码 EZ7777：算子 / aclnn 层错误），位置 plog-1.log:3：“something odd”。"
    )


def test_ranks_that_failed_together_start_it_in_both_languages():
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS[:4]]) for r in range(4)}
    for r, at in ((2, "07:24:09,200"), (3, "07:24:09,249")):
        files[f"job/log_{r}.log"] += (
            f"2026-11-29 {at} [rank{r}] ERROR RuntimeError: start (70656) + length (35328)"
            " exceeds dimension size (131125).\n"
        )

    diagnosis = diagnose_files({"job/env.txt": ENV, **files})

    assert diagnosis.culprit_ranks == [2, 3]
    assert (
        diagnosis.culprit_reason == "Rank 3 failed the same way 49 ms later; ranks 2, 3 started it."
    )
    assert diagnosis.culprit_reason_zh == "rank 3 以相同方式失败（晚 49 ms）；起因在 rank 2、3。"
    assert diagnosis.root_cause_zh.startswith(
        "张量并行的权重切分越界，发生在 rank 2，位置 job/log_2.log:"
    )
    assert diagnosis.culprit_reason_zh in diagnosis.root_cause_zh


def test_a_rank_that_stopped_early_is_a_hang_told_in_both_languages():
    files = {f"job/log_{r}.log": stamped(r, [*loading(r), *STEPS]) for r in range(3)}
    files["job/log_3.log"] = stamped(3, [*loading(3), *STEPS[:6]])

    diagnosis = diagnose_files({"job/env.txt": ENV, **files})

    assert diagnosis.root_cause == (
        "Rank 3 stopped making progress after 'layer 1 / norm passed' while ranks 0, 1, 2"
        " reached 'layer 2 passed'."
    )
    assert diagnosis.root_cause_zh == (
        "rank 3 在“layer 1 / norm passed”之后不再推进，而 rank 0、1、2 已到达“layer 2 passed”。"
    )
    assert diagnosis.culprit_reason_zh == diagnosis.root_cause_zh


def test_a_rank_that_skipped_a_collective_is_explained_in_chinese():
    timed_out = (
        "ERROR model run failed: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] "
        "Timed out waiting 10000ms for recv operation to complete"
    )
    files = {}
    for r in range(4):
        ahead = r == 2
        text = stamped(r, [*loading(r), *STEPS[: 7 if ahead else 6]])
        if not ahead:
            text += f"2026-11-29 07:24:39,500 [rank{r}] {timed_out}\n"
        files[f"job/log_{r}.log"] = text

    diagnosis = diagnose_files({"job/env.txt": ENV, **files})

    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.culprit_reason_zh == (
        "rank 0 最先报错；起因在 rank 2：该 rank 继续运行到了“layer 1 / attention passed”，"
        "而其他 rank 停在“layer 1 / norm passed”，跳过了其他 rank 正在等待的集合通信。"
    )


@pytest.mark.parametrize(
    ("bundle", "chinese"),
    [
        (
            "crash_one_rank.tar.gz",
            "矩阵形状无法相乘，发生在 rank 3，位置 job-f0dddebb/log_3.log:48："
            "“RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)”。"
            "rank 0、1、2 随后受其影响而失败。所有 rank 都到达的最后一个检查点：“layer 1 / norm passed”。",
        ),
        ("healthy.tar.gz", "所有 rank 都到达了“model run success”。"),
    ],
)
def test_the_report_carries_both_sentences(bundle: str, chinese: str):
    report = analyze(CORPUS / "torch" / bundle).to_dict()
    diagnosis = report["diagnosis"]

    assert diagnosis["root_cause_zh"] == chinese
    assert diagnosis["root_cause"] not in ("", chinese)
    assert diagnosis["culprit_reason"] is None
    assert diagnosis["culprit_reason_zh"] is None
    jsonschema.validate(report, SCHEMA)

"""The whole pipeline on real bundles: the report is valid, complete and the same every run."""

import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import jsonschema
import pytest

from analyzers import AnalyzeOptions, BundleError, analyze, pipeline
from analyzers.core import phrases
from analyzers.scan import host_labels
from analyzers.scan.linestore import LineStoreReader
from tests.analyzers import hostile
from tests.corpus_path import CORPUS as SHARED_CORPUS

ROOT = Path(__file__).resolve().parents[2]
CORPUS = SHARED_CORPUS
TORCH_BUNDLES = sorted((CORPUS / "torch").glob("*.tar.gz"))
SCHEMA = json.loads((ROOT / "analyzers" / "schema" / "report.schema.json").read_text())
# The report schema the project was given: ours extends it and must stay within it.
GIVEN_SCHEMA = CORPUS.parent / "spec" / "report.schema.json"


@pytest.mark.parametrize("bundle", TORCH_BUNDLES, ids=lambda p: p.name)
def test_report_is_valid_against_the_schema(bundle):
    report = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    jsonschema.validate(report, SCHEMA)
    if GIVEN_SCHEMA.exists():
        jsonschema.validate(report, json.loads(GIVEN_SCHEMA.read_text()))
    assert len(report["bundle"]["sha256"]) == 64
    assert report["bundle"]["files"]


@pytest.mark.parametrize("name", ["killed_rank", "divergent_monitored_barrier"])
def test_a_gloo_job_on_cpus_is_read_as_cpu_and_told_nothing_of_npu_tools(name):
    """Real CPU runs (backend=gloo, torch+cpu): no npu-smi, plog or CANN switch advice."""
    report = analyze(CORPUS / "torch" / f"{name}.tar.gz", AnalyzeOptions(workers=1)).to_dict()

    advice = "\n".join(report["diagnosis"]["next_actions"])
    assert report["environment"]["accelerator"] == "cpu"
    assert "npu-smi" not in advice
    assert "plog" not in advice
    assert "ASCEND_" not in advice


def test_a_serving_engines_gloo_group_alone_does_not_make_a_cpu_job(tmp_path):
    """SGLang and vLLM print gloo's connection lines for their CPU group on every GPU or NPU
    run: such a bundle tells no stack unless something else does."""
    log = tmp_path / "server.log"
    log.write_text(
        "[2026-04-23 04:04:10] server_args=ServerArgs(model_path='Qwen/Qwen3-30B-A3B', tp_size=2)\n"
        "[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1\n"
        "[Gloo] Rank 1 is connected to 1 peer ranks. Expected number of connected peer ranks is : 1\n"
        "[2026-04-23 04:04:20 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        "ValueError: The checkpoint you are trying to load has model type `qwen3_moe` but "
        "Transformers does not recognize this architecture.\n"
    )

    report = analyze(log, AnalyzeOptions(workers=1)).to_dict()

    assert "accelerator" not in report["environment"]


# no error word and no rule: only the learned words can read it
STOPPED_WITHOUT_ERROR_WORD = (
    "npu driver version too old for this toolkit, please upgrade the driver package"
)


def test_a_bundle_with_no_error_line_is_read_at_its_files_last_lines(tmp_path):
    """A job that stopped on a line with no error word: no line passes the scan's gate, so the
    file's last lines are read as the gate's lines are, and the page says so."""
    log = tmp_path / "stdout.log"
    log.write_text("start training job\n" + STOPPED_WITHOUT_ERROR_WORD + "\n")

    report = analyze(log, AnalyzeOptions(workers=1))

    first = report.diagnosis.first_error
    assert first is not None
    assert (first.line, first.text) == (2, STOPPED_WITHOUT_ERROR_WORD)
    assert report.bundle.warnings == [
        "stdout.log: no line of the bundle read as an error, so the file's last lines were read "
        "as the scan reads error lines, and its line 2 is cited as the first error"
    ]


def test_ranks_whose_logs_end_on_info_and_progress_lines_still_read_as_a_hang(tmp_path):
    """Counterexample: a real hang's logs end on progress, INFO lines and a plain print that
    no rule or word reads, so the job keeps its reading and the page no note."""
    for rank in range(2):
        (tmp_path / f"log_{rank}.log").write_text(
            f"[default{rank}]:2026-11-29 07:24:00,023 [rank{rank}] INFO  loaded the model\n"
            + "".join(
                f"[default{rank}]:2026-11-29 07:24:{10 + step},000 [rank{rank}] INFO  "
                f"step {step} loss 2.{step}\n"
                for step in range(1 + rank * 3)
            )
            + f"[default{rank}]:2026-11-29 07:25:00,000 [rank{rank}] INFO  waiting for peers\n"
            + f"[default{rank}]:entering all_reduce of the gradients, bucket {rank}\n"
        )

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.diagnosis.category == "hang"
    assert report.diagnosis.first_error is None
    assert report.bundle.warnings == []


def _tar_gz(path: Path, members: list[tuple[str, bytes | None]]) -> Path:
    """A .tar.gz of `members`, a None content making a folder."""
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
            info.size = len(data or b"")
            tar.addfile(info, io.BytesIO(data or b""))
    return path


def _zip(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
    return path


EMPTY_BUNDLES = {
    "empty.tar.gz": lambda path: _tar_gz(path, []),
    "empty.zip": lambda path: _zip(path, []),
    "folders.tar.gz": lambda path: _tar_gz(path, [("job", None), ("job/node0", None)]),
    "empty-files.tar.gz": lambda path: _tar_gz(path, [("notes.txt", b""), ("out/a.txt", b"")]),
    "empty-logs.tar.gz": lambda path: _tar_gz(path, [("log_0.log", b""), ("log_1.log", b"")]),
    "folder-and-empty-file.zip": lambda path: _zip(path, [("job/", b""), ("job/log_0.log", b"")]),
}


@pytest.mark.parametrize("name", EMPTY_BUNDLES)
def test_a_bundle_with_no_log_text_is_refused_in_the_same_words_whatever_holds_it(tmp_path, name):
    path = EMPTY_BUNDLES[name](tmp_path / name)

    with pytest.raises(BundleError) as refused:
        analyze(path, AnalyzeOptions(workers=1))

    message = str(refused.value)
    assert message == (
        f"{name}: the bundle holds no log text: it lists no files, or only folders and empty files"
    )
    assert phrases.refilled(message, "error.") == (
        f"{name}：日志包里没有日志文本：其中没有文件，或只有文件夹和空文件"
    )


UNSAFE_ONLY = [("/etc/log_0.log", b"x\n"), ("../log_1.log", b"x\n"), ("a/../../log_2.log", b"x\n")]


def test_a_bundle_whose_every_file_was_skipped_says_so_not_that_it_lists_no_files(tmp_path):
    """Logs under absolute or `..` names are skipped: the refusal must name that, or the
    uploader looks for empty files in a bundle full of text."""
    path = _tar_gz(tmp_path / "unsafe.tar.gz", UNSAFE_ONLY)

    with pytest.raises(BundleError) as refused:
        analyze(path, AnalyzeOptions(workers=1))

    message = str(refused.value)
    assert message == (
        "unsafe.tar.gz: the bundle holds no log text that could be read: 3 of its files were "
        "skipped (skipped '/etc/log_0.log': absolute path)"
    )
    assert refused.value.zh == (
        "unsafe.tar.gz：日志包里没有可读的日志文本：其中 3 个文件被跳过"
        "（已跳过 '/etc/log_0.log'：使用了绝对路径）"
    )


def test_a_bundle_with_one_readable_log_beside_skipped_files_is_analysed(tmp_path):
    path = _tar_gz(
        tmp_path / "mixed.tar.gz", [*UNSAFE_ONLY, ("log_3.log", b"rank 0 layer 0 passed\n")]
    )

    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()

    assert [f["path"] for f in report["bundle"]["files"]] == ["log_3.log"]


def test_rank_logs_that_are_all_empty_are_said_to_be_empty_not_read_as_a_hang(tmp_path):
    """An empty log shows no progress that stopped: the report says the logs are empty, in the
    diagnosis and among the limits the page's banner states, and blames no rank."""
    (tmp_path / "log_0.log").write_bytes(b"")
    (tmp_path / "log_1.log").write_bytes(b"")
    (tmp_path / "env.txt").write_text("WORLD_SIZE=2\nMASTER_ADDR=10.0.0.1\n")

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    diagnosis = report.diagnosis
    assert (diagnosis.category, diagnosis.culprit_ranks) == ("other", [])
    assert diagnosis.root_cause.startswith("The rank logs are empty: they show neither progress")
    assert diagnosis.root_cause_zh.startswith("各 rank 的日志都是空的")
    [limit] = report.bundle.limits
    assert (limit.limit, limit.message) == (
        "empty_logs",
        "all 2 rank logs are empty (0 bytes: log_0.log, log_1.log); an empty log shows neither "
        "progress nor where its rank stopped, so no rank was read as hung",
    )
    assert report.bundle.warnings == [limit.message]
    assert (limit.message_zh or "").startswith("全部 2 个 rank 日志都是空的")


def test_an_empty_rank_log_beside_one_that_showed_progress_then_stopped_is_no_empty_bundle(
    tmp_path,
):
    """Counterexample: one rank's log shows steps, then nothing: the logs are read as usual."""
    (tmp_path / "log_0.log").write_text(
        "".join(
            f"2026-11-29 07:24:{10 + step},000 [rank0] INFO  step {step}\n" for step in range(3)
        )
    )
    (tmp_path / "log_1.log").write_bytes(b"")

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.bundle.limits == []
    assert "empty" not in report.diagnosis.root_cause


def _two_of_three_ranks_logged(tmp_path: Path) -> Path:
    """Ranks 0 and 1 log three steps each; the world size counts three ranks, and rank 2's
    log was never collected."""
    for rank in range(2):
        (tmp_path / f"log_{rank}.log").write_text(
            "".join(
                f"2026-11-29 07:24:{10 + step},000 [rank{rank}] INFO  step {step} passed\n"
                for step in range(3)
            )
        )
    (tmp_path / "env.txt").write_text("WORLD_SIZE=3\nMASTER_ADDR=10.0.0.1\n")
    return tmp_path


def test_a_rank_whose_log_is_missing_leaves_no_checkpoint_known_common_to_all(tmp_path):
    """The common checkpoint is what every rank is known to have reached: a log not in the
    bundle proves nothing, so none is named and the limits say why, in both languages."""
    report = analyze(_two_of_three_ranks_logged(tmp_path), AnalyzeOptions(workers=1))

    assert report.diagnosis.last_common_checkpoint is None
    assert report.to_dict()["correlation"]["last_common_checkpoint_qualified"] is None
    [limit] = report.bundle.limits
    assert (limit.limit, limit.message) == (
        "missing_logs",
        "rank 2 of the job's 3 has no log in the bundle; a missing log proves nothing about how "
        "far its rank got, so no checkpoint is known to be common to all ranks",
    )
    assert limit.message_zh == (
        "作业的 3 个 rank 中，rank 2 在日志包里没有日志；缺失的日志说明不了该 rank "
        "运行到了哪里，因此无法确定所有 rank 共同到达的检查点"
    )
    assert limit.message in report.bundle.warnings
    jsonschema.validate(report.to_dict(), SCHEMA)


def test_every_rank_logged_names_the_common_checkpoint_and_no_missing_log(tmp_path):
    """Counterexample: with the world size at two, both ranks' logs are in the bundle."""
    job = _two_of_three_ranks_logged(tmp_path)
    (job / "env.txt").write_text("WORLD_SIZE=2\nMASTER_ADDR=10.0.0.1\n")

    report = analyze(job, AnalyzeOptions(workers=1))

    assert report.diagnosis.last_common_checkpoint == "step 2 passed"
    assert report.bundle.limits == []


def test_parallel_and_inline_scans_agree():
    bundle = CORPUS / "torch" / "divergent_monitored_barrier.tar.gz"
    inline = analyze(bundle, AnalyzeOptions(workers=1)).to_dict()
    parallel = analyze(bundle, AnalyzeOptions(workers=2)).to_dict()
    assert inline == parallel


def test_progress_climbs_to_the_end():
    seen: list[int] = []
    analyze(
        CORPUS / "torch" / "healthy.tar.gz", AnalyzeOptions(progress=lambda p, _: seen.append(p))
    )
    assert seen == sorted(seen)
    assert seen[-1] >= 95


def test_store_dir_keeps_every_file_line_addressable(tmp_path):
    report = analyze(
        CORPUS / "torch" / "crash_one_rank.tar.gz", AnalyzeOptions(store_dir=str(tmp_path))
    )
    for info in report.bundle.files:
        reader = LineStoreReader(tmp_path, info.path)
        assert reader.total_lines == info.lines
    first = report.diagnosis.first_error
    assert first is not None
    [(number, text)] = LineStoreReader(tmp_path, first.file).lines(first.line, 1)
    assert number == first.line
    assert first.text.strip() in text


def test_a_path_packed_twice_keeps_both_copies_and_the_evidence_in_the_right_one(tmp_path):
    # `tar -rf job.tar -C nodeN log_0.log` per node: one name, two real files
    earlier = b"[rank0] step 1 done\n[rank0] layer 0 passed\n"
    later = b"[rank0] step 2 start\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    bundle = tmp_path / "job.tar"
    bundle.write_bytes(hostile.tar_bytes([("log_0.log", earlier), ("log_0.log", later)]))

    report = analyze(bundle, AnalyzeOptions(store_dir=str(tmp_path / "store")))

    assert [(f.path, f.rank) for f in report.bundle.files] == [
        ("log_0.log", 0),
        ("log_0.log (copy 2)", 0),
    ]
    first = report.diagnosis.first_error
    assert first is not None
    assert first.file == "log_0.log (copy 2)"
    [(_, text)] = LineStoreReader(tmp_path / "store", first.file).lines(first.line, 1)
    assert "CUDA out of memory" in text
    assert LineStoreReader(tmp_path / "store", "log_0.log").lines(2, 1) == [
        (2, "[rank0] layer 0 passed")
    ]
    assert any("more than once" in warning for warning in report.bundle.warnings)


def test_a_directory_of_logs_is_a_bundle():
    report = analyze(CORPUS / "cases" / "d12")
    assert {f.path for f in report.bundle.files} >= {"log.txt", "log_part2.txt"}


def test_not_a_bundle_raises_bundle_error(tmp_path):
    junk = tmp_path / "photo.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64)
    with pytest.raises(BundleError, match="not a log bundle"):
        analyze(junk)


def test_cli_prints_json_and_summary():
    bundle = str(CORPUS / "torch" / "killed_rank.tar.gz")
    out = subprocess.run(
        [sys.executable, "-m", "analyzers", bundle, "--json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    jsonschema.validate(json.loads(out), SCHEMA)
    summary = subprocess.run(
        [sys.executable, "-m", "analyzers", bundle],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    assert "category" in summary
    assert "rank" in summary


def test_cli_reports_bad_input_with_exit_code_2(tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    result = subprocess.run(
        [sys.executable, "-m", "analyzers", str(empty)], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2
    assert "empty" in result.stderr


def test_checkpoints_past_the_job_budget_are_counted_and_the_report_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "MAX_JOB_CHECKPOINTS", 25)
    for rank in range(2):
        lines = [
            f"2026-11-29 07:24:{i:02d},000 [rank{rank}] INFO layer {i} passed" for i in range(20)
        ]
        (tmp_path / f"log_{rank}.log").write_text("\n".join(lines) + "\n")
    report = pipeline.analyze(tmp_path, AnalyzeOptions(workers=1))
    assert sum(rank.checkpoints for rank in report.ranks) == 25
    assert any("counted but not read" in warning for warning in report.bundle.warnings)
    assert [hit.limit for hit in report.bundle.limits] == ["checkpoints"]  # the page's banner
    assert len(report.bundle.warnings_zh) == len(report.bundle.warnings)
    assert "只计数、未读取" in report.bundle.limits[0].message_zh


def test_start_lines_past_those_kept_are_counted_and_the_report_says_so(tmp_path):
    """A retry loop that restarted the job 2,000 times into one `log_0.log`: the last
    attempt is still cut where it begins, and the report says the attempts in between were
    not told apart."""
    started = "[rank0] INFO init process group: backend=gloo rank=0 world_size=1 attempt={}\n"
    attempts = [started.format(n) + "[rank0] INFO load weights passed\n" for n in range(2000)]
    (tmp_path / "log_0.log").write_text("".join(attempts) + "[rank0] INFO layer 0 passed\n")
    report = pipeline.analyze(tmp_path, AnalyzeOptions(workers=1))
    assert [hit.limit for hit in report.bundle.limits] == ["start_lines"]
    assert "the 975 between them only counted" in report.bundle.limits[0].message
    assert "只计数" in report.bundle.limits[0].message_zh
    assert report.bundle.warnings == [report.bundle.limits[0].message]
    assert [rank.checkpoints for rank in report.ranks] == [2]


def test_hosts_past_those_kept_are_counted_and_the_report_says_so(tmp_path, monkeypatch):
    """A pdsh console of three nodes where only two hosts are kept: the third node's rank is
    placed on no host, and the report says so."""
    monkeypatch.setattr(host_labels, "MAX_HOSTS", 2)
    lines = [
        f"node{rank + 1}: 2026-12-05 19:08:2{rank},103 [rank{rank}] INFO layer 0 passed"
        for rank in range(3)
    ]
    (tmp_path / "pdsh.log").write_text("\n".join(lines) + "\n")
    report = pipeline.analyze(tmp_path, AnalyzeOptions(workers=1))
    assert report.environment["rank_hosts"] == {"0": "node1", "1": "node2"}
    assert [hit.limit for hit in report.bundle.limits] == ["host_labels"]
    assert "more than 2 hosts; only the first 2 were recorded" in report.bundle.limits[0].message
    assert "只记录了前 2 个" in report.bundle.limits[0].message_zh


def test_a_log_with_carriage_return_line_ends_is_read_line_by_line(tmp_path):
    bundle = tmp_path / "job"
    bundle.mkdir()
    lines = [f"[rank0] layer {n} passed" for n in range(1, 6)]
    lines.append("[rank0] RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x8 and 16x16)")
    (bundle / "log_0.log").write_bytes("\r".join(lines).encode() + b"\r")
    store = tmp_path / "store"
    report = analyze(bundle, AnalyzeOptions(workers=1, store_dir=str(store)))
    [info] = report.bundle.files
    assert info.lines == 6
    first = report.diagnosis.first_error
    assert first is not None
    assert first.line == 6
    assert LineStoreReader(store, first.file).lines(6, 1) == [(6, lines[-1])]

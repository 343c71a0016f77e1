"""A merged console's host whose workers the head did not place is named in the report.

pdsh runs torchrun on three hosts of two workers each; the file's head (its first 64 KiB)
gives node-1 and node-2 their offsets, and node-3's workers first print after it. Their lines
keep their local numbers, so the report must say they may stand for other hosts' ranks.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.formats import agent_nodes
from analyzers.formats.hints import HINT_BYTES
from analyzers.pipeline import analyze
from analyzers.scan.host_offsets import UnplacedHosts

SHAPES = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 16x32)"


def rendezvous(host: str, node: int) -> list[str]:
    """What an agent logs at INFO once the rendezvous gave its node a rank."""
    return [f"{host}:   group_rank={node}", f"{host}:   local_ranks=[0, 1]"]


def steps(hosts: tuple[str, ...], first: int, last: int) -> list[str]:
    return [
        f"{host}: [default{local}]:layer {step} passed"
        for step in range(first, last)
        for host in hosts
        for local in (0, 1)
    ]


def past_the_head(hosts: tuple[str, ...]) -> list[str]:
    """Progress lines of `hosts`' workers, enough to fill the head the offsets are read from."""
    lines: list[str] = []
    step = 0
    while sum(len(line) + 1 for line in lines) <= HINT_BYTES:
        lines += [
            f"{host}: [default{local}]:iter {step} done" for host in hosts for local in (0, 1)
        ]
        step += 1
    return lines


def console(tmp_path: Path, lines: list[str]) -> Path:
    job = tmp_path / "sft-6e02"
    job.mkdir()
    (job / "launch.log").write_text("\n".join(lines) + "\n")
    return job


def host_offset_hits(job: Path) -> list[tuple[str, str, str | None]]:
    report = analyze(job, AnalyzeOptions(workers=1))
    return [
        (hit.limit, hit.message, hit.message_zh)
        for hit in report.bundle.limits
        if hit.limit == "host_offsets"
    ]


def test_a_host_whose_workers_first_print_past_the_head_is_named(tmp_path):
    two = ("node-1", "node-2")
    head = rendezvous("node-1", 0) + rendezvous("node-2", 1) + rendezvous("node-3", 2)
    late = [*steps(("node-3",), 0, 2), f"node-3: [default1]:{SHAPES}"]
    job = console(tmp_path, head + steps(two, 0, 2) + past_the_head(two) + late)

    report = analyze(job, AnalyzeOptions(workers=1))

    assert [hit.limit for hit in report.bundle.limits] == ["host_offsets"]
    hit = report.bundle.limits[0]
    assert hit.message == (
        "launch.log: its hosts' torchrun workers are given global ranks from its first"
        " 64 KiB, which placed no worker of 1 of its hosts (node-3); that host's workers keep"
        " their local rank numbers, so their lines may be read as another host's ranks"
    )
    assert "文件前 64 KiB" in hit.message_zh
    assert "1 个主机（node-3）" in hit.message_zh
    assert hit.message in report.bundle.warnings
    assert hit.message_zh in report.bundle.warnings_zh


def test_a_console_whose_hosts_all_print_in_the_head_states_no_limit(tmp_path):
    three = ("node-1", "node-2", "node-3")
    head = rendezvous("node-1", 0) + rendezvous("node-2", 1) + rendezvous("node-3", 2)
    job = console(tmp_path, head + steps(three, 0, 2) + past_the_head(three) + steps(three, 2, 4))

    assert host_offset_hits(job) == []


def test_a_single_hosts_console_states_no_limit(tmp_path):
    one = ("node-1",)
    lines = rendezvous("node-1", 0) + steps(one, 0, 2) + past_the_head(one) + steps(one, 2, 4)

    assert host_offset_hits(console(tmp_path, lines)) == []


def test_hosts_past_those_the_head_keeps_are_stated(tmp_path, monkeypatch):
    monkeypatch.setattr(agent_nodes, "MAX_HOSTS", 2)
    three = ("node-1", "node-2", "node-3")
    job = console(tmp_path, steps(three, 0, 3))

    hits = host_offset_hits(job)

    assert [message for _, message, _ in hits] == [
        "launch.log: its first 64 KiB named more than 2 hosts; the workers of those"
        " past the first 2 got no global ranks from it and keep their local rank numbers, so"
        " their lines may be read as other hosts' ranks",
        "launch.log: its hosts' torchrun workers are given global ranks from its first"
        " 64 KiB, which placed no worker of 1 of its hosts (node-3); that host's workers keep"
        " their local rank numbers, so their lines may be read as another host's ranks",
    ]
    assert all("超过 2 个" in zh or "node-3" in zh for _, _, zh in hits)


def test_the_hosts_are_listed_in_the_order_met_and_counted_past_the_cap(monkeypatch):
    monkeypatch.setattr("analyzers.scan.host_offsets.MAX_HOSTS", 2)
    hosts = UnplacedHosts()
    for host in ("node-4", "node-3", "node-4", "node-9"):
        hosts.note(host)
    facts: dict[str, object] = {}

    hosts.store(facts)

    assert facts == {"host_offsets_unplaced": (["node-4", "node-3"], True)}

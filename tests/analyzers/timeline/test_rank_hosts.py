"""The report says which host each rank ran on, as the host labels pdsh and clush put in front
of every line they relay name it (`environment.rank_hosts`: rank -> host).

The logs below follow two real shapes: DeepSpeed's multi-node launch, where pdsh runs the
launcher on every host and its console holds both hosts' lines behind their names, each rank's
logging tag on its own lines; and a launch script per host whose ranks write
`<host folder>/log_<rank>.log`, every line behind the host's address.
"""

from __future__ import annotations

from analyzers.core.options import AnalyzeOptions
from analyzers.pipeline import analyze
from tests.analyzers.timeline.log_tree import write_lines

LOST = (
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by "
    "peer [10.0.3.7]:4411"
)
SHAPES = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 16x32)"


def merged_console(hosts: dict[str, range], failing: int) -> list[str]:
    """One launcher console as pdsh merges it: each host's ranks log their progress with
    their rank tag, the failing rank its error, the others the closed connection."""
    lines = [
        "[2026-12-05 19:08:19,001] [INFO] [runner.py:568:main] cmd = pdsh -S -f 1024 -w "
        + ",".join(hosts)
        + " export PYTHONPATH=/srv/sft; cd /srv/sft; python -u -m deepspeed.launcher.launch"
    ]
    for step, what in enumerate(("layer 0 | norm passed", "layer 0 | attention passed"), 1):
        for host, ranks in hosts.items():
            lines += [
                f"{host}: 2026-12-05 19:08:2{step},{100 + rank:03d} [rank{rank}] INFO "
                f"step {step} | {what}"
                for rank in ranks
            ]
    for host, ranks in hosts.items():
        lines += [
            f"{host}: 2026-12-05 19:08:25,{500 + rank:03d} [rank{rank}] ERROR model run failed: "
            + (SHAPES if rank == failing else LOST)
            for rank in ranks
        ]
    return lines


def test_a_pdsh_console_of_two_hosts_places_each_rank_on_the_host_its_lines_name(tmp_path):
    hosts = {"cn-0417": range(3), "cn-0418": range(3, 6)}
    write_lines(tmp_path, "job-5c1d/launch.log", merged_console(hosts, failing=5))

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.diagnosis.culprit_ranks == [5]
    assert report.environment["rank_hosts"] == {
        "0": "cn-0417",
        "1": "cn-0417",
        "2": "cn-0417",
        "3": "cn-0418",
        "4": "cn-0418",
        "5": "cn-0418",
    }


def test_each_ranks_own_file_behind_a_hosts_address_places_the_rank_there(tmp_path):
    for rank in range(4):
        host = f"10.0.0.{rank // 2 + 3}"
        lines = [
            f"starting rank={rank} local_rank={rank % 2} world_size=4",
            "layer 0 passed",
            SHAPES if rank == 3 else LOST,
        ]
        write_lines(tmp_path, f"job-8e21/{host}/log_{rank}.log", [f"{host}: {x}" for x in lines])

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.environment["rank_hosts"] == {
        "0": "10.0.0.3",
        "1": "10.0.0.3",
        "2": "10.0.0.4",
        "3": "10.0.0.4",
    }


def test_a_rank_whose_lines_name_two_hosts_is_placed_on_neither(tmp_path):
    """torch's own rank tag names rank 0 on both hosts (an elastic restart that brought the
    job up again on another node, both runs' lines in one console): which host the report's
    rank 0 is the lines cannot say."""
    lines = [
        f"{host}: [rank0]:{x}" for host in ("node1", "node2") for x in ("layer 0 passed", LOST)
    ]
    write_lines(tmp_path, "job-3f7a/launch.log", lines)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert [summary.rank for summary in report.ranks] == [0]
    assert "0" not in report.environment.get("rank_hosts", {})


def test_each_hosts_local_rank_0_is_a_rank_of_its_own_on_its_host(tmp_path):
    """A launcher that numbers its workers from 0 on each host (`[default0]:`) writes local rank
    0 for both hosts' first worker in a merged console: two workers, each on its host
    (`formats.agent_nodes`)."""
    lines = [
        f"{host}: [default0]:{x}" for host in ("node1", "node2") for x in ("layer 0 passed", LOST)
    ]
    write_lines(tmp_path, "job-3f7a/launch.log", lines)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert [summary.rank for summary in report.ranks] == [0, 1]
    assert report.environment["rank_hosts"] == {"0": "node1", "1": "node2"}


def test_a_log_without_host_labels_names_no_host(tmp_path):
    write_lines(tmp_path, "job-77c0/log_0.log", ["layer 0 passed", SHAPES])

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert "rank_hosts" not in report.environment


def journal(host: str, rank: int, pid: int, lines: list[str]) -> list[str]:
    """A rank's lines as `journalctl -u train` prints them on its host: a service running the
    job logs each line with the host and the program's pid in front."""
    return [
        f"Dec 07 00:12:{second:02d} {host} python3[{pid}]: 2026-12-07 00:12:{second:02d},"
        f"{100 + rank:03d} [rank{rank}] {line}"
        for second, line in enumerate(lines, 1)
    ]


def test_each_hosts_journal_places_its_ranks_on_that_host(tmp_path):
    for node, host in enumerate(("node-3", "node-4")):
        lines = []
        for rank in (2 * node, 2 * node + 1):
            said = [
                f"INFO init process group: backend=nccl rank={rank} world_size=4",
                "INFO step 1 | layer 0 passed",
                "ERROR model run failed: " + (SHAPES if rank == 3 else LOST),
            ]
            lines += journal(host, rank, 4121 + rank, said)
        write_lines(tmp_path, f"job-2b90/journal-{host}.log", lines)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.diagnosis.culprit_ranks == [3]
    assert report.environment["rank_hosts"] == {
        "0": "node-3",
        "1": "node-3",
        "2": "node-4",
        "3": "node-4",
    }


def test_per_host_folders_place_the_ranks_whose_files_they_hold(tmp_path):
    """A collector that fetched each host's logs into a folder named for it; the lines carry
    no label."""
    folders = {0: "node-3", 1: "node-3", 2: "host10.20.0.5", 3: "host10.20.0.5"}
    for rank, folder in folders.items():
        lines = [
            f"2026-12-07 00:12:0{rank},100 [rank{rank}] INFO init process group: backend=nccl "
            f"rank={rank} world_size=4",
            f"2026-12-07 00:12:1{rank},100 [rank{rank}] INFO layer 0 passed",
            f"2026-12-07 00:12:2{rank},100 [rank{rank}] ERROR model run failed: "
            + (SHAPES if rank == 3 else LOST),
        ]
        write_lines(tmp_path, f"job-8e21/{folder}/rank_{rank}.log", lines)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.environment["rank_hosts"] == {
        "0": "node-3",
        "1": "node-3",
        "2": "10.20.0.5",
        "3": "10.20.0.5",
    }


def test_the_host_label_on_the_lines_wins_over_the_folder(tmp_path):
    """A folder named by the collector (`node-0`) around a console whose lines pdsh labelled
    with the machine's own name."""
    write_lines(tmp_path, "job-5c1d/node-0/launch.log", merged_console({"cn-0417": range(2)}, 1))

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.environment["rank_hosts"] == {"0": "cn-0417", "1": "cn-0417"}

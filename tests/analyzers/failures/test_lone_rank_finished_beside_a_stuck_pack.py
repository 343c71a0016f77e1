"""A hang where one rank printed its success line while every other rank stopped at one
checkpoint in the middle of the model (docs/labelling.md, "A rank that finished while its peers
waited"). Ranks of one job pass the same collectives, so a rank that finished the forward its
peers are still inside went past a collective they are waiting in: it skipped one (a serving
rank then idles, waiting for the next request). It is the culprit, not the pack."""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

PARTS = ("第{n}层 norm 通过", "第{n}层 attention 通过", "第{n}层 mlp 通过", "第{n}层 完成")


def progress(rank: int, layers: int, tail: tuple[str, ...] = (), world: int = 6) -> str:
    lines = [f"[rank{rank}] 开始推理, world_size={world}"]
    for n in range(layers):
        lines += [f"[rank{rank}] " + part.format(n=n) for part in PARTS]
    return "\n".join([*lines, *(f"[rank{rank}] {t}" for t in tail)]) + "\n"


def stuck(rank: int, world: int = 6) -> str:
    # the pack stops after layer 3's attention: it waits in layer 3's MLP all_reduce
    return (
        progress(rank, 3, world=world)
        + f"[rank{rank}] 第3层 norm 通过\n[rank{rank}] 第3层 attention 通过\n"
    )


def test_the_rank_that_finished_while_the_pack_waited_is_the_culprit() -> None:
    files = {f"job/log_{r}.log": stuck(r) for r in range(6)}
    files["job/log_4.log"] = progress(4, 4, ("模型运行成功", "等待下一个请求"))
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [4]
    assert diagnosis.first_error is None


def test_half_the_ranks_finishing_singles_out_no_finisher() -> None:
    # counterexample: as many finished as stopped; the stopped ranks are still the ones named
    files = {f"job/log_{r}.log": stuck(r, world=4) for r in range(4)}
    for r in (2, 3):
        files[f"job/log_{r}.log"] = progress(r, 4, ("模型运行成功",), world=4)
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [0, 1]


def test_a_finisher_beside_ranks_stopped_at_different_places_names_the_one_behind() -> None:
    # counterexample: the pack is not at one place; the rank left behind is what they wait for
    files = {f"job/log_{r}.log": stuck(r) for r in range(6)}
    files["job/log_1.log"] = progress(1, 2)
    files["job/log_4.log"] = progress(4, 4, ("模型运行成功",))
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]

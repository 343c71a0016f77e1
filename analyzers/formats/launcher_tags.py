"""The tags a launcher, a multiplexing tool or a CI runner puts in front of each process's line.

`formats.wrappers` peels these; each names the writer, so it joins the line's `stream_key`,
and some name the rank (torch's `[rankN]:`, Open MPI's tag) or the host (pdsh) as well.
Seen in real reports:

- `kubectl logs --prefix`: `[pod/trainer-0/pytorch] [rank3]: ...` - the pod and container are
  the writer (before `--timestamps`' time when both are asked for)
- a CI runner's lines of a step's output (nektos/act): `[CI/train]   | [rank3]: ...`, the job
  the writer; on a terminal act writes the bar alone in the job's colour, `| [rank3]: ...` once
  the colour codes are dropped - only a bar that opens a line that does not end in one, so a
  table's row (`| 0  910B  | OK |`) stays as written
- docker compose: `mineru-npu-model-server   | 2026-02-26 19:18:17.731 | ERROR    | ...`
- pdsh / clush / deepspeed multi-node: `worker-1: ...`, `10.0.0.3: [rank2]: ...` - the host is
  the writer and is kept in `tags["host"]` (the innermost label, when a pdsh run on one host
  relays another's), so the report can say which host each rank ran on
- Slurm's `srun --label`: the task number, right-aligned, a colon and one space before each
  task's line: ` 3: [rank3]: Traceback ...`, `11: ...` (a writer of its own, like pdsh's host)
- torchrun: `[default3]:...` (local rank) and torch's `[rank3]:...` (global rank)
- Open MPI's `mpirun --tag-output` (DeepSpeed's and Horovod's MPI launchers):
  `[1,3]<stderr>:...` - the job number, the rank, the stream
- vLLM-Omni's stage tag, which a multi-stage server puts in front of each line a stage's
  process writes: `[Stage-0] INFO 01-21 09:47:31 [shm_broadcast.py:501] ...` - the stage is
  the writer, so the tag joins the stream key; only `Stage-` with a number, closed, and a
  space before the line (a bracketed word inside a message, `[Stage 2/4]`, stays as written)
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats import outer_prefix
from analyzers.formats.base import ParsedLine, peel_writer
from analyzers.formats.worker_tags import host_tag, srun_tag

# the task's line after the label keeps its indent when that indent is whole pairs of spaces
# (a stack's frames, `  File ...`) or tabs (torch's list of a state dict's mismatches,
# `\tsize mismatch for ...`); `118:  File ...` (grep -n of an indented line, no space of its
# own after the colon) is a line number
# a task's empty line keeps its label (`3: ` or `3:`): it still ends the task's message
_SRUN_LABEL = regex_programs.compile(r" {0,4}\d{1,5}:(?: (?=\S|(?:  )+\S|\t+\S)| ?$)")
_SRUN_LABEL_ODD_INDENT = regex_programs.compile(r" {0,4}(\d{1,5}):  (?=\S)")

_COMPOSE = regex_programs.compile(r"([A-Za-z][\w.-]*)\s+\|(?:\s|$)")
_PDSH = regex_programs.compile(outer_prefix.PDSH + outer_prefix.AFTER)

# torchrun's `[default3]:` and torch's `[rank3]:` (`formats.paste_marks` leaves a progress bar
# behind one to this tag)
TORCHRUN = regex_programs.compile(r"\[(rank|" + outer_prefix.AGENT_ROLE + r")(\d+)\]:\s?")
_MPI_TAG = regex_programs.compile(r"\[\d+,(\d+)\]<(?:stdout|stderr|stddiag)>:\s?")

_KUBECTL = regex_programs.compile(outer_prefix.KUBECTL + r"(?: |$)")
_CI_STEP = regex_programs.compile(outer_prefix.CI_STEP + outer_prefix.AFTER)
_CI_BAR = regex_programs.compile(r"\|(?: |$)")

_STAGE_TAG = regex_programs.compile(r"\[Stage-\d{1,3}\] (?=\S)")


def peel_torchrun(line: ParsedLine, text: str) -> bool:
    """torchrun's tag names the local rank, torch's own the global rank; either is the writer."""
    found = TORCHRUN.match(text)
    if found:
        number = int(found.group(2))
        if found.group(1) == "rank":
            line.rank = number
            line.tags.pop("mpi_rank", None)  # torch's own rank, which a worker's tag keeps
        else:
            line.local_rank = number
        line.stream_key += found.group(0).rstrip()
        line.message = text[found.end() :]
    return found is not None


def peel_host(line: ParsedLine, text: str) -> bool:
    """pdsh's (or clush's) host label: the host is the writer, and the host the line's
    process ran on (the last label peeled is the innermost, where the line began)."""
    found = _PDSH.match(text)
    if found:
        line.stream_key += found.group(0).strip()
        line.tags["host"] = found.group(1)
        line.tags.setdefault("worker", host_tag(found.group(1)))
        line.message = text[found.end() :]
    return found is not None


def peel_mpi_tag(line: ParsedLine, text: str) -> bool:
    """Open MPI's output tag names the rank (MPI's rank is the job's) and the stream."""
    found = _MPI_TAG.match(text)
    if found:
        line.rank = int(found.group(1))
        line.tags["mpi_rank"] = found.group(1)
        line.stream_key += found.group(0).rstrip()
        line.message = text[found.end() :]
    return found is not None


def peel_srun_label(line: ParsedLine, text: str) -> bool:
    """`srun --label` numbers each task's lines; the task is the writer, so its number joins
    the stream key. It is not taken as a rank here (with one launcher per node it names the
    node): the task is kept as a worker tag, which gets a rank only when the task's own lines
    state one (`timeline.worker_ranks`)."""
    found = _SRUN_LABEL.match(text)
    if found:
        task = found.group(0).strip()
        line.stream_key += f"srun{task}"
        line.tags.setdefault("worker", srun_tag(int(task[:-1])))
        line.message = text[found.end() :]
        return True
    found = _SRUN_LABEL_ODD_INDENT.match(text)
    if found:
        # `0:  norm passed`: the task's line indented by one space, or grep -n's number before
        # a line indented by two; the number is peeled either way (the two spaces kept, as
        # grep's reading has them), and kept as a worker tag
        # (no stream key: grep's numbers differ on every line, and the frames of a traceback
        # it numbered are still one writer's). A task that states its rank gives it a rank.
        line.tags.setdefault("worker", srun_tag(int(found.group(1))))
        line.message = text[found.end(1) + 1 :]
        return True
    return False


def peel_ci_step(line: ParsedLine, text: str) -> bool:
    """A CI runner's step output: the job is the writer."""
    found = _CI_STEP.match(text)
    if found:
        line.stream_key += f"[{found.group(1)}]"
        line.message = text[found.end() :]
    return found is not None


def peel_ci_bar(line: ParsedLine, text: str) -> bool:
    """The bar a CI runner writes alone on a terminal: it names no writer. A line that also
    ends in a bar is a table's row (`| 0  910B  | OK |`) and stays as written."""
    if text[-1:] == "|":
        return False
    found = _CI_BAR.match(text)
    if found:
        line.message = text[found.end() :]
    return found is not None


def peel_kubectl(line: ParsedLine, text: str) -> bool:
    """`kubectl logs --prefix`: the pod and its container are the writer."""
    found = _KUBECTL.match(text)
    if found:
        line.stream_key += found.group(0).rstrip()
        line.message = text[found.end() :]
    return found is not None


def peel_compose(line: ParsedLine, text: str) -> bool:
    """docker compose's service column: the service is the writer."""
    return peel_writer(line, text, _COMPOSE)


def peel_stage_tag(line: ParsedLine, text: str) -> bool:
    """vLLM-Omni's stage tag: the stage is the writer."""
    return peel_writer(line, text, _STAGE_TAG)

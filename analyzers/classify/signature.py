"""One signature of `knowledge/signatures.yaml` as the classifier uses it: the regex that
finds a failure in a log line, the label it gives, and the fields that say where the line may
stand and which lines say better what failed.

    - id: oom.device_out_of_memory
      category: oom
      role: cause
      regex: '(?:NPU|CUDA) out of memory\\.'

Reading and checking the file is `classify.signature_file`'s work; this module holds only the
values, so every stage that reads a signature's fields imports no YAML checking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `levels: [NONE]`: a line its writer printed with no level field at all (Python's own print
# of `sys.exit("<why>")`), as against one logged at INFO or WARNING
NO_LEVEL = "NONE"


@dataclass(frozen=True, slots=True)
class NeighbourEvidence:
    """What a bundle must show before a conditional neighbour is offered: a line labelled
    with one of `labels` (by its rule or its code), an error or warning line the regex finds,
    or (`ranks_stalled`) a rank that stopped with no error, success or fatal signal
    (`neighbour_evidence` in signatures.yaml)."""

    name: str
    labels: tuple[str, ...] = ()
    regex: re.Pattern[str] | None = None
    ranks_stalled: bool = False


@dataclass(frozen=True, slots=True)
class Signature:
    id: str
    title: str
    category: str
    subsystem: str
    role: str
    weight: int
    keywords: tuple[str, ...]
    regex: re.Pattern[str]
    ignore_case: bool = False
    category_from_code: bool = False
    role_from_code: bool = False
    code_table: str | None = None
    culprit: str | None = None
    # named group holding the writer's own rank inside the process group the line reports on
    # (c10d's `[Rank 0]:` of a sub-group); the culprit ranks are then that group's numbers
    group_rank: str | None = None
    settled: bool = False  # category `other` is this line's answer, not a missing label
    # the line only introduces the detail printed under it (a device report's opening words):
    # when it steps aside for that detail (`yields_to`) it offers no label of its own
    # (causal.alternatives)
    headline: bool = False
    # ids of block neighbours that say better what failed; across the bundle too when both
    # lines capture the same `pid` (classify.block_context.yield_to_same_process)
    yields_to: tuple[str, ...] = ()
    # ids of lines that, printed earlier in the same file at any distance, say why this line
    # has nothing of its own to report (classify.block_context.yield_to_earlier_in_file)
    yields_to_earlier: tuple[str, ...] = ()
    # ids of lines that, anywhere in the bundle (another node's file too), say why this line
    # came about (classify.block_context.yield_to_anywhere_in_bundle)
    yields_to_bundle: tuple[str, ...] = ()
    # ids of lines that, printed later in the same file, say why this line came about: an
    # agent's report of its worker's plain exit, then its finding that another agent had
    # already ended the job (classify.block_context.yield_to_later_in_file)
    yields_to_later: tuple[str, ...] = ()
    # ids of lines that, anywhere in the bundle and later too, say why this line's failure
    # happened while this line stays the first error: the label is theirs, this rule's own is
    # offered beside it (causal.labels.first_error_reading): a checkpoint write the file
    # system refused, then another writer of the same output finding the disk full
    label_from_bundle: tuple[str, ...] = ()
    # ids of lines that must have been printed earlier in the same file for this line to be
    # read as the rule at all: a bare exception whose words say nothing alone (a `TimeoutError`
    # with no message) is the end of a wait only after its writer announced that wait
    # (classify.rule_conditions, `keep_rules_announced_earlier`)
    needs_earlier: tuple[str, ...] = ()
    # the line reports a rank's end: it is that rank's own failure when the rank it names
    # logged no error line itself (else it only summarises the rank's error)
    cause_if_silent: bool = False
    # the line is a process's own record of its end (a fault handler's abort dump): it is that
    # rank's failure when it is the first error line the rank wrote, and echoes an earlier
    # error of the rank otherwise (causal.promoted_ends.promote_first_own_ends)
    own_if_first: bool = False
    # the line only echoes that the process it served went away (a helper process finding its
    # parent gone): it never says why, so it offers no reading against a line that does
    # (report.confidence)
    echoes_end: bool = False
    # the line records the job being stopped from outside (a scheduler's time limit, an
    # operator): it explains why the job ended, not why its ranks had stopped advancing
    outside_stop: bool = False
    # the writer logs this failure at warning level, the only level it has for failures
    # (NCCL's `WARN`): the line keeps its role's tier instead of losing the warning penalty,
    # so that a log holding nothing better still cites it (classify.tiers)
    failure_warning: bool = False
    # the line records the launcher giving up before it started any worker process (its
    # rendezvous never completed): when no rank left a line, no rank ran, so none is missing
    before_workers: bool = False
    # the line reports a message a peer sent that did not fit (checked on arrival): the sender
    # was running, so a rank that merely went quiet is not singled out by this line
    peer_sent: bool = False
    # the line reports a setting every rank reads (the store's host name): a rank that only
    # went quiet is not singled out by it, only a line that names the rank
    shared_setting: bool = False
    # ids of warning rules whose earlier line naming the same `(host, port)` says why this
    # line failed (causal.warned_first.announced_before)
    warned_by: tuple[str, ...] = ()
    # ids of rules whose earlier line in the same file, with the same code, is the first report
    # of the failure this line restates (a synchronize's headline, then the runtime's record of
    # the same wait; causal.warned_first.reported_before)
    reported_by: tuple[str, ...] = ()
    # the rank the line names is the reference every rank compared itself with (its values
    # were broadcast): the writers are the ranks that differ from it, so the named rank is the
    # odd one only when most ranks wrote the line (causal.source_compared)
    names_source: bool = False
    # the line says a peer's end of the connection went away under this rank (closed, reset):
    # the writer was still running and talking to peers that had already left
    peer_gone: bool = False
    # the line records a rank ended by a stop signal sent from outside (SIGTERM): while the
    # rank's peers timed out waiting for it, it was alive and stalled, and the stop came after
    # (promoted_ends.promote_silent_ends)
    signalled_stop: bool = False
    # the line says this rank's client never got through to the rendezvous store (its
    # connect timed out): peers whose store waits did reach it were waiting for this rank
    unreached: bool = False
    # the rule reads one check at two thresholds: a warning past the first, an exception past
    # the second; the warning is the earlier record of the same failure (causal.warned_first)
    warns_first: bool = False
    # the line is a rank's own notice that it left out work of a step its peers ran (a loop
    # that skips a step whose loss is non-finite): when the job then ends in its peers' waits,
    # the notice is what they waited behind (causal.warned_first.skipped_before)
    skips_step: bool = False
    # ids of waits this wait stands behind: when another rank logged one of them, that
    # rank's wait is the one this line waited on, whichever timeout ran out first
    waits_behind: tuple[str, ...] = ()
    # accelerator stacks on which the line is expected and harmless: software that probes for
    # another vendor's library logs the failed probe loudly and carries on without it
    harmless_on: tuple[str, ...] = ()
    # the line is a rank refused for a rank number its own world size cannot hold (gloo's
    # `rank < size`): the ranks were started with different world sizes, so the sizes their
    # start lines state say which were started wrong (report.multirank)
    rank_past_world: bool = False
    # the line records a process interrupted by hand (Ctrl-C, SIGINT): a rank in its own code
    # raises the interrupt at once, a rank blocked in a collective only once it returns, so who
    # raised it first says who the others waited for (causal.interrupted)
    interrupted: bool = False
    # the line is the error manager's generic record, printed for any runtime call that failed,
    # the teardown's too: after a failure a rule recognised in the same writer's file it
    # reports that writer going down, not the cause (classify.late_blocks)
    generic_record: bool = False
    # two named groups of the regex whose numbers the line must order (`joined` over `size`):
    # a count the line states decides, such as more processes joining than the world holds
    more_than: tuple[str, str] | None = None
    # the same with equality allowed (`id` at least `count`): an index the line states beside
    # the count it indexes into is past the end once it equals the count
    at_least: tuple[str, str] | None = None
    # the rule holds only for an exception raised under a library this regex finds among the
    # innermost package frames of its traceback (a model hub's client above the HTTP library
    # whose dropped connection it raised): the same words from a collective's socket are not
    # the rule's (`classify.rule_conditions`, formats.traceback's `inner_packages`)
    raised_in: re.Pattern[str] | None = None
    # the rule holds only on an exception line whose traceback kept no installed-package frame
    # (a paste cut to the exception itself): with no frame to say where it was raised, the
    # exception's own type speaks (an HTTP client's, which no collective raises); under frames
    # the rules that read them decide (`classify.rule_conditions`)
    unframed: bool = False
    # the rule holds only on a line its writer logged at one of these levels (the parsed
    # level field): a job's own words that it gives up are its failure at ERROR, a report of
    # its way out at INFO (`classify.rule_conditions`)
    levels: frozenset[str] = frozenset()
    # the NVIDIA Xid origins the rule reads (`xid_origins`, classify.xid): the listed numbers
    # of those origins, every number the table gives an origin, and whether a number it gives
    # none fits as well; None when the rule reads no Xid
    xid_numbers: frozenset[str] | None = None
    xid_known: frozenset[str] = frozenset()
    xid_unknown: bool = False
    guide: str | None = None  # anchor of the docs/labelling.md section the rule implements
    also: tuple[str, ...] = ()  # labels the guide names as this rule's defensible neighbours
    # neighbours the guide names only when the bundle shows their evidence (an AI CPU
    # exception is a collective's only beside a collective's lines): (label, evidence)
    also_if: tuple[tuple[str, NeighbourEvidence], ...] = ()
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()
    needles: tuple[str, ...] = ()  # keywords as compared (lower-case when ignore_case)
    title_zh: str | None = None  # from knowledge/zh/signature_titles.yaml

    def search(self, message: str) -> re.Match[str] | None:
        """The regex match, after the cheap keyword test says it can match at all."""
        haystack = message.lower() if self.ignore_case else message
        if not any(needle in haystack for needle in self.needles):
            return None
        found = self.regex.search(message)
        if found is None:
            return None
        if self.more_than is not None:
            larger, smaller = (int(found.group(name)) for name in self.more_than)
            if larger <= smaller:
                return None
        if self.at_least is not None:
            index, bound = (int(found.group(name)) for name in self.at_least)
            if index < bound:
                return None
        if self.xid_numbers is not None and not self._xid_fits(found):
            return None
        return found

    def _xid_fits(self, found: re.Match[str]) -> bool:
        """The Xid whose origin decides is the earlier one the line names as its cause
        (`caused by previous Xid 149`), else the line's own number."""
        groups = found.groupdict()
        number = groups.get("caused_by") or groups.get("xid")
        if number in self.xid_known:
            return self.xid_numbers is not None and number in self.xid_numbers
        return self.xid_unknown

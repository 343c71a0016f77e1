"""Exceptions the traceback reader marks: one raised while handling another, one the
interpreter only printed, a handler's failed write of its dump."""

from __future__ import annotations

from analyzers.classify.events import classify_scans
from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_CASCADE, TIER_CAUSE, TIER_GENERIC
from tests.analyzers.excerpts import scan_text

KNOWLEDGE = load_knowledge()

RERAISED_IN_HANDLER = """\
Traceback (most recent call last):
  File "/work/job/infer.py", line 12, in main
    dist.all_reduce(t)
RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:2461.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/work/job/infer.py", line 14, in main
    raise JobAborted("step failed")
infer.JobAborted: step failed
"""


def test_an_exception_raised_while_handling_another_stays_a_cascade_not_a_carrier() -> None:
    # a re-raise printed after its cause is not a carrier: it keeps the cascade tier
    items = classify_scans([scan_text("job/log_0.log", RERAISED_IN_HANDLER)], KNOWLEDGE)
    handler = next(i for i in items if "JobAborted" in i.event.text)
    assert handler.tier == TIER_CASCADE


# A transfer library's refusal, then a destructor that trips over the half-built object while
# the process tears down: the interpreter only printed the second exception.
REFUSED_THEN_DESTRUCTOR = """\
  File "/opt/venv/lib/python3.12/site-packages/kvlink/agent.py", line 318, in add_peer
    name = self._agent.load_peer(blob)
kvlink.errors.PeerRejectedError: peer metadata rejected
Exception ignored in: <function PeerHandle.__del__ at 0x7fd0c1a2e8e0>
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/kvlink/handle.py", line 95, in __del__
    self._agent.drop_peer(self._peer)
AttributeError: 'PeerHandle' object has no attribute '_peer'
"""


def test_an_exception_the_interpreter_only_printed_is_cited_last() -> None:
    """docs/labelling.md#an-exception-python-only-printed"""
    items = classify_scans([scan_text("job/decode_0.log", REFUSED_THEN_DESTRUCTOR)], KNOWLEDGE)
    refused = next(item for item in items if "PeerRejectedError" in item.event.text)
    ignored = next(item for item in items if "AttributeError" in item.event.text)
    assert ignored.tier <= TIER_GENERIC < refused.tier


def test_an_exception_raised_after_the_same_refusal_keeps_its_weight() -> None:
    text = REFUSED_THEN_DESTRUCTOR.replace(
        "Exception ignored in: <function PeerHandle.__del__ at 0x7fd0c1a2e8e0>\n", ""
    )
    items = classify_scans([scan_text("job/decode_0.log", text)], KNOWLEDGE)
    raised = next(item for item in items if "AttributeError" in item.event.text)
    assert raised.tier == TIER_CAUSE


# A rank's handler writes a dump of what it was doing when the first exception hit, and the
# write itself fails: Python prints both, the handler's under `During handling ...`.
HANDLER_DUMP_FAILED = """\
prefill start: 8 tokens
  norm passed
[rank1]: Traceback (most recent call last):
[rank1]:   File "/opt/app/serve/moe_router.py", line 88, in route
[rank1]:     slot = self.slots[expert_id]
[rank1]:            ~~~~~~~~~~^^^^^^^^^^^
[rank1]: IndexError: list index out of range

[rank1]: During handling of the above exception, another exception occurred:

[rank1]: Traceback (most recent call last):
[rank1]:   File "/opt/app/serve/main.py", line 40, in <module>
[rank1]:     run()
[rank1]:   File "/opt/app/serve/moe_router.py", line 91, in route
[rank1]:     with open(os.path.join(self.dump_dir, "route_state.json"), "w") as fh:
[rank1]: FileNotFoundError: [Errno 2] No such file or directory: '/var/dumps/route_state.json'
"""

# Counterexample: the handler falls back to reading another file, and that file is missing:
# the missing file is what the program needed, not a side record of the first failure.
HANDLER_FALLBACK_READ_FAILED = """\
Traceback (most recent call last):
  File "/opt/app/serve/loader.py", line 30, in load
    return self.cache[name]
KeyError: 'router.weight'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/app/serve/loader.py", line 33, in load
    with open(os.path.join(self.root, name + ".bin"), "rb") as fh:
FileNotFoundError: [Errno 2] No such file or directory: '/models/moe/router.weight.bin'
"""


def _first_cause(text: str) -> str:
    items = list(classify_scans([scan_text("session.txt", text)], KNOWLEDGE))
    top = max(item.tier for item in items)
    return next(item for item in items if item.tier == top).event.text


def test_a_handler_that_fails_to_write_its_dump_yields_to_the_exception_it_handled() -> None:
    """docs/labelling.md, "A handler that fails to write down the failure": the first
    exception is the cause, the handler's failed write a cascade."""
    assert "IndexError: list index out of range" in _first_cause(HANDLER_DUMP_FAILED)
    items = classify_scans([scan_text("job/log_1.log", HANDLER_DUMP_FAILED)], KNOWLEDGE)
    write = next(i for i in items if "FileNotFoundError" in i.event.text)
    assert write.tier <= TIER_CASCADE


def test_a_handler_that_fails_to_read_its_fallback_keeps_the_missing_files_weight() -> None:
    items = classify_scans([scan_text("job/log_0.log", HANDLER_FALLBACK_READ_FAILED)], KNOWLEDGE)
    read = next(i for i in items if "FileNotFoundError" in i.event.text)
    assert read.tier > TIER_CASCADE

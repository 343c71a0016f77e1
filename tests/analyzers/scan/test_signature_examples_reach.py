"""Every signature example is a line the scan keeps and the signature then reads.

`tests/analyzers/classify/test_signature.py` checks each example against its signature's regex;
a line only reaches that regex when the scan keeps it: the block prefilter must find it
(`knowledge/prefilter.yaml` keywords and patterns) and its level or words must make it an
error or a warning (`formats/severity.py`). Here each example is written alone as a rank
log's line and scanned, and some ERROR or WARNING event of it must match the signature, so an
example documents a line as the scan really meets it.

A few lines are never printed alone: a Python traceback's last line whose exception class has
no error word, a continuation of an exception message under its headline, a logger's line
found by the shape of that logger's other lines, a message the signature reads after its
logger's header. They sit in `READ_IN_A_BLOCK` with the reason and the block they are printed
in (`{line}` marks the example's place), and are scanned there.
"""

from __future__ import annotations

import pytest

from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import load_knowledge
from analyzers.core.types import EventKind
from tests.analyzers.excerpts import scan_text

KNOWLEDGE = load_knowledge()
PATH = "job/log_0.log"
_LOUD = (EventKind.ERROR, EventKind.WARNING)

_TRACEBACK = 'Traceback (most recent call last):\n  File "train.py", line 41, in <module>\n'
# a logger that prints str(exception) as its ERROR line's message: a KeyError's is the quoted key
_KEY_HEADLINE = (
    "the message of a logger's ERROR line that prints str(KeyError), the quoted key alone; the "
    "signature reads the message after the logger's header",
    "ERROR 03-02 10:14:08 [model_runner.py:1182] {line}\n",
)

# a native frame HCCL's plog prints at ERROR level: a frame alone is no event; a file that ends on
# such frames with nothing else is read at the first one (formats.native_frames)
_NATIVE_HEAD = "[ERROR] HCCL(30211,):2026-03-04-05:06:07.080.100 [op_base_v2.cc:1600]"
_NATIVE_FRAMES = (
    "a native backtrace frame, read only as the innermost of the frames a log ends on",
    f"{_NATIVE_HEAD}{{line}}\n{_NATIVE_HEAD}[30211]/opt/cann/lib64/libhcomm.so("
    "HcclCommInitRootInfoConfig+0x1a4) [0x7f2a18b49784]\n",
)
# (signature, example) -> (why the line is only read in a block, the block it is printed in)
READ_IN_A_BLOCK: dict[tuple[str, str], tuple[str, str]] = {
    (
        "cfg.package_not_installed",
        "pkg_resources.DistributionNotFound: The 'sentencepiece>=0.1.99' distribution was not "
        "found and is required by the application",
    ): (
        "a traceback's last line; its class has no error word, the traceback reader keeps it",
        _TRACEBACK + "    __import__('pkg_resources').require('sentencepiece>=0.1.99')\n{line}\n",
    ),
    ("hang.interrupted", "KeyboardInterrupt"): (
        "a traceback's last line, the interrupted call's frames above it",
        _TRACEBACK + "    time.sleep(5)\n{line}\n",
    ),
    (
        "tail.inner_error_reported_above",
        "Since the operator is called asynchronously, the stacktrace may be inaccurate. If you "
        "want to get the accurate stacktrace, please set the environment variable "
        "ASCEND_LAUNCH_BLOCKING=1.",
    ): (
        "torch_npu's advice under its RuntimeError headline (benign alone, prefilter.yaml), "
        "read with the headline",
        _TRACEBACK + "    torch.npu.synchronize()\n"
        "RuntimeError: The Inner error is reported as above. The process exits for this inner "
        "error, and the current working operator name is aclnnRmsNorm.\n{line}\n",
    ),
    (
        "env.tt_fabric_links_missing",
        "2026-03-02 10:14:07.389 | critical |          Always | Expected 4 eth links from "
        "physical chip 1 to physical chip 3 (assert.hpp:103)",
    ): (
        "a column logger's CRITICAL line with no error word, found by the line shape the "
        "logger's INFO lines above it teach the block scan (tt-metal opens with them)",
        "2026-03-02 10:14:03.389 | info     |          Device | Opening user mode device driver "
        "(tt_cluster.cpp:189)\n{line}\n",
    ),
    (
        "cfg.extension_cuda_toolkit_mismatch",
        "      The detected CUDA version (11.8) mismatches the version that was used to compile",
    ): (
        "torch's extension builder prints the exception's name alone and its message on the "
        "lines under it; the traceback reader joins them to the headline",
        "      RuntimeError:\n{line}\n      PyTorch (12.4). Please make sure to use the same CUDA "
        "versions.\n",
    ),
    ("wl.bare_weight_key_headline", "'model.layers.7.mlp.down_proj.weight'"): _KEY_HEADLINE,
    ("wl.bare_weight_key_headline", "'visual.blocks.0.attn.proj.deq_scale'"): _KEY_HEADLINE,
    ("cfg.layer_missing_from_registry", "'language_model.model.layers.11.self_attn.attn'"): (
        _KEY_HEADLINE
    ),
    (
        "hccl.nccl_socket_connect_failed",
        "[rank3]: socketPollConnect poll() returned 1, no POLLOUT events",
    ): (
        "NCCL's reason with no error word, which torch prints under `Last error:` of the "
        "`unhandled system error` headline; the signature reads it there",
        "[rank3]: torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:77, unhandled "
        "system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.3\n"
        "[rank3]: ncclSystemError: System call (e.g. socket, malloc) or external library call "
        "failed or device error.\n[rank3]: Last error:\n{line}\n",
    ),
    ("hccl.flagcx_call_failed", "Undefined: flagcxComm is not fully initialized."): (
        "FlagCX's reason with no error word, which its torch backend prints under `Last error:` "
        "of the `FLAGCX error in:` headline; the signature reads it there",
        "torch.distributed.DistBackendError: FLAGCX error in: /opt/flagcx/src/backend_flagcx.cpp:"
        "811, \nflagcxInvalidArgument: Invalid value for an argument.\nLast error:\n{line}\n",
    ),
    (
        "hccl.comm_init_native_frame",
        "[30211]/opt/cann/9.1/lib64/libhccl_v2.so(_ZN4Hccl20RankInfoDetectClient5SetupERNS_13"
        "RankTableInfoE+0x88) [0x7f2a10c0a3b0]",
    ): _NATIVE_FRAMES,
    (
        "hccl.comm_init_native_frame",
        "[4410]/usr/local/Ascend/cann/lib64/libhcomm.so(HcclCommInitRootInfoConfig+0x1b4) "
        "[0x7f0b2c349784]",
    ): _NATIVE_FRAMES,
}


def _reads(signature_id: str, text: str) -> bool:
    """Whether some ERROR or WARNING event the scan makes of `text` matches the signature."""
    for event in scan_text(PATH, text).events:
        if event.kind not in _LOUD:
            continue
        matches = match_line(event.message or event.text, event.codes, KNOWLEDGE)
        if any(match.id == signature_id for match in matches):
            return True
    return False


def test_every_example_alone_is_kept_and_read_by_its_signature() -> None:
    unreached = [
        f"{signature.id}: {example!r}"
        for signature in KNOWLEDGE.signatures
        for example in signature.examples
        if (signature.id, example) not in READ_IN_A_BLOCK
        and not _reads(signature.id, example + "\n")
    ]
    assert not unreached, (
        "examples the scan drops or reads as another line (write the example as the line is "
        "printed, or make the prefilter keep it):\n  " + "\n  ".join(unreached)
    )


@pytest.mark.parametrize(
    ("signature_id", "example"), list(READ_IN_A_BLOCK), ids=[key[0] for key in READ_IN_A_BLOCK]
)
def test_a_line_read_in_a_block_is_an_example_and_read_there(
    signature_id: str, example: str
) -> None:
    signature = next((s for s in KNOWLEDGE.signatures if s.id == signature_id), None)
    assert signature is not None, "no such signature"
    assert example in signature.examples, "no longer an example of its signature"
    assert not _reads(signature_id, example + "\n"), "kept alone now: drop it from READ_IN_A_BLOCK"
    _reason, block = READ_IN_A_BLOCK[(signature_id, example)]
    assert _reads(signature_id, block.replace("{line}", example))

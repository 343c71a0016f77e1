"""A store client on Windows whose connect fails with a Winsock code.

torch's c10d client on Windows words each failed connect to the rendezvous store with Winsock's
numbering (`system error: NNNNN`, the system's sentence after it in the machine's language, or
nothing). 10049 says the address the store's name resolved to is not one this machine can
connect to: a hosts-file entry (a desktop container tool maps its own names onto loopback or
onto an address of a network the laptop has since left) or a computer name that resolves to
nothing. 10065, 10051 and 10060 are the Winsock forms of no route, an unreachable network and an
attempt nobody answered. No retry mends any of them while the name stays as it is: the first
such warning is the first error, `hccl`, with the address the job was given (`config`) and the
machine's naming (`driver_env`) beside it. A refusal (10061) is the normal start-up race and is
not read this way. docs/labelling.md#a-rendezvous-host-with-no-address. Values are our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ADDRESS_NOT_VALID = "hccl.store_address_not_valid"
NO_ROUTE = "hccl.store_no_route"

# Two spawned ranks on one Windows laptop; the client warns on each attempt and the paste ends.
LOCAL_NAME_NOT_VALID = """\
[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:558] [c10d] The client socket has failed to connect to [desk-7.lan.example]:29517 (system error: 10049 - The requested address is not valid in its context.).
[W ..\\torch\\csrc\\distributed\\c10d\\socket.cpp:558] [c10d] The client socket has failed to connect to [desk-7.lan.example]:29517 (system error: 10049 - The requested address is not valid in its context.).
"""

# torchrun's prefixes, the system's sentence in another language, the launcher's notes around it.
TORCHRUN_LOCALISED = """\
W1207 09:14:02.118000 4412 Lib\\site-packages\\torch\\distributed\\elastic\\multiprocessing\\redirects.py:29] NOTE: Redirects are currently not supported in Windows or MacOs.
[W1207 09:14:02.000000000 socket.cpp:752] [c10d] The client socket has failed to connect to [gateway.docker.internal]:41023 (system error: 10049 - 请求的地址在其上下文中无效。).
[W1207 09:14:08.000000000 socket.cpp:752] [c10d] The client socket has failed to connect to [gateway.docker.internal]:41023 (system error: 10049 - 请求的地址在其上下文中无效。).
"""

# A release that prints only the code.
CODE_ONLY = """\
[W C:\\build\\torch\\csrc\\distributed\\c10d\\socket.cpp:601] [c10d] The client socket has failed to connect to [trainbox]:40811 (system error: 10049).
"""

# The normal start-up race on Windows: refused while the store was not listening, then the job ran.
REFUSED_THEN_RUNNING = """\
[W socket.cpp:697] [c10d] The client socket has failed to connect to [trainbox]:29500 (system error: 10061 - No connection could be made because the target machine actively refused it.).
2026-12-07 09:20:31,004 [rank1] INFO epoch 0 step 10 loss 2.31
"""


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (LOCAL_NAME_NOT_VALID, "[desk-7.lan.example]:29517 (system error: 10049"),
        (TORCHRUN_LOCALISED, "[gateway.docker.internal]:41023 (system error: 10049"),
        (CODE_ONLY, "[trainbox]:40811 (system error: 10049)"),
    ],
)
def test_an_address_windows_cannot_connect_to_is_the_first_error(text: str, words: str) -> None:
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error=words,
        rule=ADDRESS_NOT_VALID,
        beside=("config", "driver_env"),
    )


@pytest.mark.parametrize(
    ("code", "sentence"),
    [
        ("10065", "A socket operation was attempted to an unreachable host."),
        ("10051", "A socket operation was attempted to an unreachable network."),
    ],
)
def test_winsock_forms_of_no_route_read_as_no_route(code: str, sentence: str) -> None:
    text = (
        "[W socket.cpp:697] [c10d] The client socket has failed to connect to"
        f" [node-b.cluster.example]:29400 (system error: {code} - {sentence}).\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "hccl", first_error=f"system error: {code}", rule=NO_ROUTE)


def test_a_refused_connect_during_start_up_is_neither_reading() -> None:
    diagnosis = diagnose_text("train.log", REFUSED_THEN_RUNNING)
    rules = rules_of(diagnosis)
    assert ADDRESS_NOT_VALID not in rules
    assert NO_ROUTE not in rules

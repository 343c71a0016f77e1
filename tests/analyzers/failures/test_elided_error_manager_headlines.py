"""An error-manager headline kept in a note with its sentence elided.

CANN names each error-manager record by its class and code (`Resource_Error_Insufficient_Host_
Memory(EH0010): ...`); an engineer's note or a chat paste often keeps the name and code and
elides the middle of the sentence (`(EH0010) ... host memory for`). The record is an error
whatever its class: the elided headline is read as one, and is the first error of the paste,
whichever class it names. Counterexamples: a year or a count in parentheses followed by an
ellipsis, and a class name with no code, are no error records.

docs/labelling.md#an-error-manager-headline-whose-sentence-was-elided
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

ELIDED_HEADLINES = (
    "Resource_Error_Insufficient_Host_Memory(EH0010) ... bytes host memory for\nthe staging copy\n",
    "Invalid_Argument_API_Call_Sequence(EK0002) ... the call order was\nstart before init\n",
    "INFO loading weights done\nNot_Supported_API(EK0004) … this interface on the current\nchip\n",
)

NOT_RECORDS = (
    "INFO eval of checkpoint (2024) ... done in 41 s\n",
    "INFO Not_Supported_API ... see the table of classes\n",
)


@pytest.mark.parametrize("text", ELIDED_HEADLINES)
def test_an_elided_headline_is_the_first_error(text: str) -> None:
    headline = next(line for line in text.splitlines() if "(E" in line)
    diagnosis = diagnose_text("notes/run.log", text)
    assert diagnosis.first_error is not None
    assert headline.split(" ")[0] in diagnosis.first_error.text


@pytest.mark.parametrize("text", NOT_RECORDS)
def test_parentheses_before_an_ellipsis_are_no_record(text: str) -> None:
    diagnosis = diagnose_text("notes/run.log", text)
    assert diagnosis.first_error is None

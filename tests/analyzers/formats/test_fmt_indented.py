"""Error headlines whose message sits on the indented lines below (CMake's diagnostics).

Fixtures are written in CMake's shape (headline with `at file:line (command):`, message
indented two blanks, blank line after); paths and wording are made up.
"""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file
from tests.analyzers.excerpts import assert_reads, diagnose_text


def scan(text: str):
    return scan_file(io.BytesIO(text.encode()), FileInfo("build.log", FileKind.RANK_LOG, None))


def errors_in(text: str):
    """The error events a scan of `text` reports, in order."""
    return [e for e in scan(text).events if e.kind == EventKind.ERROR]


CMAKE_BLOCK = (
    "-- The CXX compiler identification is GNU 11.4.0\n"
    "CMake Error at cmake/toolkit.cmake:41 (message):\n"
    "  ASCEND_HOME_PATH /opt/cann/8.1 does not exist, source the toolkit's\n"
    "  set_env.sh before configuring\n"
    "\n"
    "\n"
    "-- Configuring incomplete, errors occurred!\n"
)


def test_the_indented_message_is_read_with_its_headline():
    errors = errors_in(CMAKE_BLOCK)
    assert errors[0].line == 2
    # the headline ends at its colon and names no failure: the cited line carries the first
    # indented line too
    assert errors[0].text == (
        "CMake Error at cmake/toolkit.cmake:41 (message): ASCEND_HOME_PATH /opt/cann/8.1 "
        "does not exist, source the toolkit's"
    )
    assert errors[0].message == (
        "CMake Error at cmake/toolkit.cmake:41 (message): ASCEND_HOME_PATH /opt/cann/8.1 "
        "does not exist, source the toolkit's set_env.sh before configuring"
    )
    assert all("Configuring incomplete" not in e.message for e in errors[:1])


def test_a_missing_toolkit_at_configure_time_is_the_environment():
    diagnosis = diagnose_text("build.log", CMAKE_BLOCK)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2


def test_a_headline_that_ends_its_sentence_takes_nothing_below():
    text = "CMake Error: the build directory is not writable.\n  see the permissions of ./build\n"
    events = scan(text).events
    assert events[0].message == "CMake Error: the build directory is not writable."


def test_an_info_headline_is_not_made_an_error():
    text = "[I kernel_cache.py:88] compile errors seen this run:\n    none\n\n"
    assert not errors_in(text)


NCCL_LAST_ERROR = (
    "[rank2]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/"
    "c10d/ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL "
    "developers, NCCL version 2.20.5\n"
    "[rank2]: ncclInternalError: Internal check failed.\n"
    "[rank2]: Last error:\n"
    "[rank2]: Bootstrap : no socket interface found\n"
)


def test_the_line_after_nccls_last_error_header_is_its_reason():
    errors = errors_in(NCCL_LAST_ERROR)
    assert [e.line for e in errors if "no socket interface" in e.text] == [4]
    assert not [e for e in errors if e.message.strip() == "Last error:"]


def test_the_reason_is_the_first_error_ahead_of_the_exception_that_wraps_it():
    diagnosis = diagnose_text("rank2.log", NCCL_LAST_ERROR)
    assert_reads(diagnosis, "hccl", first_error="no socket interface found")


# torch ends the NCCL error detail with a blank before the `Last error:` header, as it
# prints it: that blank is not a paste cutting the line, so the header stays NCCL's own.
NCCL_DETAIL_WITH_BLANK = (
    "torch.distributed.DistBackendError: NCCL error in: /opt/torch/csrc/distributed/c10d/"
    "NCCLUtils.hpp:268, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL "
    "version 2.21.5\n"
    "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or "
    "device error. \n"
    "Last error:\n"
    "Error while creating shared memory segment /dev/shm/nccl-Tz04pQ (size 9437184)\n"
)


def test_a_blank_at_the_end_of_nccls_detail_does_not_swallow_the_last_error_header():
    errors = errors_in(NCCL_DETAIL_WITH_BLANK)
    assert [e.line for e in errors if "shared memory segment" in e.text] == [4]
    assert not [e for e in errors if "Last error:" in e.message]


def test_the_shm_reason_under_a_detail_ending_in_a_blank_is_the_first_error():
    diagnosis = diagnose_text("rank0.log", NCCL_DETAIL_WITH_BLANK)
    assert_reads(diagnosis, "driver_env", first_error="shared memory segment")


def test_a_pasted_message_cut_at_a_blank_still_goes_on_below_it():
    """Counterexample: a line cut at a blank by a paste still takes the next piece."""
    text = (
        "ValueError: (InvalidArgument) Fail to open library: \n"
        "/opt/plugins/libcustom_dev.so \n"
        "with error: libatb.so: cannot open shared object file: No such file or directory\n"
    )
    errors = errors_in(text)
    assert "libatb.so: cannot open shared object file" in errors[0].message


def test_a_last_error_header_with_nothing_after_it_reads_nothing():
    text = "[rank2]: Last error:\n\n[I314 09:21:50.101022311 ProcessGroupNCCL.cpp:88] done\n"
    assert not errors_in(text)


def test_a_logged_loader_headline_is_cited_with_the_reason_below_it():
    """A job that logs `model run failed: {e}` prints a multi-line exception's text as is: the
    load_state_dict headline, then its tab-indented problems with no prefix of their own."""
    text = (
        "rank 3: model run failed: Error(s) in loading state_dict for ToyDecoder:\n"
        "\tsize mismatch for layers.0.experts: copying a param with shape torch.Size([3, 32, 32])"
        " from checkpoint, the shape in current model is torch.Size([2, 32, 32]).\n"
        "\tsize mismatch for layers.1.experts: copying a param with shape torch.Size([3, 32, 32])"
        " from checkpoint, the shape in current model is torch.Size([2, 32, 32]).\n"
        "rank 0: waiting for all ranks to finish loading weights\n"
    )
    [error] = errors_in(text)
    assert error.line == 1
    assert error.text == (
        "rank 3: model run failed: Error(s) in loading state_dict for ToyDecoder: size mismatch "
        "for layers.0.experts: copying a param with shape torch.Size([3, 32, 32]) from "
        "checkpoint, the shape in current model is torch.Size([2, 32, 32])."
    )
    assert "layers.1.experts" in error.message


# A notebook front end's copy of a failed cell's error, one member a line (made-up cell)
NOTEBOOK_ERROR = (
    "{\n"
    '\t"name": "RuntimeError",\n'
    '\t"message": "indices should be either on cpu or on the same device as the indexed tensor (cuda:1)",\n'
    '\t"stack": "---------------------------------------------------------------------------\n'
    "RuntimeError                              Traceback (most recent call last)\n"
    "Cell In[7], line 4\n"
    "---> 4 logits = model(**batch)\n"
)

SAVED_NOTEBOOK_ERROR = (
    '   "ename": "ValueError",\n'
    '   "evalue": "Attempt to split tensors that exceed maximum supported devices. Current LLAMA_MAX_DEVICES=1",\n'
    '   "output_type": "error",\n'
)


def test_an_error_objects_message_member_is_its_exception_line():
    errors = errors_in(NOTEBOOK_ERROR)
    assert errors[0].line == 3
    assert errors[0].message == (
        "RuntimeError: indices should be either on cpu or on the same device as the indexed "
        "tensor (cuda:1)"
    )


def test_a_notebook_error_is_read_by_its_message_member():
    diagnosis = diagnose_text("job/cell_output.log", NOTEBOOK_ERROR)
    assert_reads(diagnosis, "operator", first_error="indices should be either on cpu")


def test_a_saved_notebooks_ename_and_evalue_read_the_same_way():
    diagnosis = diagnose_text("job/cell_output.log", SAVED_NOTEBOOK_ERROR)
    assert_reads(diagnosis, "config", first_error="exceed maximum supported devices")


def test_a_name_member_that_names_no_exception_opens_nothing():
    text = '  "name": "llama-3-8b",\n  "message": "weights loaded in 3.2 s",\n'
    assert not errors_in(text)


# A fatal check whose reason string was printed on the next line, then the process's end.
FATAL_REASON_BELOW = (
    "[2021-03-08 10:41:07.553019: F byteps/common/shm.cc:52] Check failed: rc == cudaSuccess "
    "CUDA:\n"
    "OS call failed or operation not supported on this OS\n"
    "Aborted (core dumped)\n"
)


def test_a_fatal_line_ending_at_a_colon_takes_its_reason_from_the_next_bare_line():
    errors = errors_in(FATAL_REASON_BELOW)
    assert errors[0].line == 1
    assert errors[0].message.endswith("CUDA: OS call failed or operation not supported on this OS")
    assert not any(e.line == 2 for e in errors)


def test_the_joined_fatal_line_is_the_first_error_and_read_by_its_reason():
    diagnosis = diagnose_text("worker.log", FATAL_REASON_BELOW)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1


def test_a_fatal_line_followed_by_the_process_end_takes_nothing():
    text = (
        "F0308 10:41:07.553019 2201 worker.cc:91] Check failed: status == 0 (3 vs. 0) init:\n"
        "*** Check failure stack trace: ***\n"
        "Aborted (core dumped)\n"
    )
    errors = errors_in(text)
    assert errors[0].line == 1
    assert "stack trace" not in errors[0].message
    assert "Aborted" not in errors[0].message


def test_an_error_line_ending_at_a_colon_does_not_take_the_next_line():
    """Only a fatal line: an ERROR line that ends at a colon is often followed by other text."""
    text = "E0308 10:41:07.553019 2201 worker.cc:91] retrying the send:\nattempt 2 of 5\n"
    errors = errors_in(text)
    assert all("attempt 2" not in e.message for e in errors)


def test_a_terminal_padded_exception_row_does_not_take_the_row_below():
    """A terminal copy pads every row with blanks to its width: the exception's row ends in a
    run of blanks, not the one blank a paste leaves where it broke a message."""
    rows = [
        "Traceback (most recent call last):",
        '  File "/opt/proj/run_sft.py", line 57, in <module>',
        "    main()",
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB",
        "worker 3 shutting down",
    ]
    text = "".join(row.ljust(100) + "\n" for row in rows)
    errors = errors_in(text)
    assert errors[0].message.rstrip().endswith("Tried to allocate 2.00 GiB")
    assert not [e for e in errors if "shutting down" in e.message]


# A library's exception quoted with its text on the indented line below `EXCEPTION:`.
WRAPPED_LIBRARY_EXCEPTION = (
    "oneCCL: coll_param.cpp:452 validate: EXCEPTION:\n"
    "   average operation is not supported for the scheduler path\n"
)


def test_an_exception_whose_text_is_below_is_one_message():
    errors = errors_in(WRAPPED_LIBRARY_EXCEPTION)
    assert errors[0].line == 1
    assert errors[0].message == (
        "oneCCL: coll_param.cpp:452 validate: EXCEPTION: average operation is not supported "
        "for the scheduler path"
    )


def test_python_s_chained_exception_header_opens_no_block():
    text = (
        "The above exception was the direct cause of the following exception:\n"
        "   see the traceback below\n"
    )
    events = scan(text).events
    assert not [e for e in events if "see the traceback below" in e.message and e.line == 1]

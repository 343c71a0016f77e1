"""Next actions: the most specific advice first, each once, and log switches only where
the bundle does not already show them."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from analyzers.classify.action_book import Action, ActionBook
from analyzers.classify.rules import load_knowledge
from analyzers.report.advise import MAX_ACTIONS, Situation, asks_for, next_actions, stack_of
from tests.analyzers.excerpts import diagnose_files

BOOK = load_knowledge().actions


def action(action_id: str, text: str, **conditions) -> Action:
    when = conditions.pop("when_text", None)
    return Action(
        id=action_id,
        text=text,
        unless_env=conditions.pop("unless_env", {}),
        when_text=re.compile(when, re.IGNORECASE) if when else None,
        **conditions,
    )


def test_signature_advice_comes_before_code_and_category_advice() -> None:
    book = ActionBook(
        categories={"hccl": (action("general", "General."), action("shared", "Shared."))},
        signatures={"hccl.x": (action("specific", "Specific."), action("shared", "Shared."))},
        codes={"EI0006": (action("by_code", "By code."),)},
    )
    situation = Situation(category="hccl", signature_ids=["hccl.x"], codes=["EI0006"])
    assert next_actions(book, situation) == ["Specific.", "Shared.", "By code.", "General."]


def test_switch_already_set_in_the_env_dump_is_not_suggested() -> None:
    text = "RuntimeError: ... AclrtSynchronizeDeviceWithTimeout, error code is 507014"
    fresh = next_actions(BOOK, Situation(category="aicore_timeout", first_error_text=text))
    already = next_actions(
        BOOK,
        Situation(
            category="aicore_timeout",
            first_error_text=text,
            env={"ASCEND_LAUNCH_BLOCKING": "1"},
        ),
    )
    assert any("ASCEND_LAUNCH_BLOCKING=1" in a for a in fresh)
    assert not any("ASCEND_LAUNCH_BLOCKING=1" in a for a in already)


def test_plog_collection_is_only_asked_for_when_no_plog_was_uploaded() -> None:
    without = next_actions(BOOK, Situation(category="aicore_timeout", accelerator="ascend"))
    with_plog = next_actions(
        BOOK, Situation(category="aicore_timeout", file_kinds={"plog"}, accelerator="ascend")
    )
    assert any("plog" in a for a in without)
    assert not any("Collect the CANN plogs" in a for a in with_plog)


def test_fragmentation_advice_needs_the_allocator_figures_in_the_error() -> None:
    figures = (
        "NPU out of memory. Tried to allocate 2 GiB (... 60.10 GiB reserved in total by PyTorch)"
    )
    with_figures = Situation(
        category="oom", signature_ids=["oom.device_out_of_memory"], first_error_text=figures
    )
    bare = Situation(
        category="oom", signature_ids=["oom.device_out_of_memory"], first_error_text="NPU OOM"
    )
    assert any("max_split_size_mb" in a for a in next_actions(BOOK, with_figures))
    assert not any("max_split_size_mb" in a for a in next_actions(BOOK, bare))


def test_advice_naming_ranks_is_left_out_when_no_rank_is_known() -> None:
    signature = ["hccl.monitored_barrier_failed"]
    named = Situation(category="hccl", signature_ids=signature, values={"ranks": "2"})
    unknown = Situation(category="hccl", signature_ids=signature)
    assert next_actions(BOOK, named)[0].startswith("Rank(s) 2 never reached the barrier")
    assert not any("never reached the barrier" in a for a in next_actions(BOOK, unknown))


def test_multi_rank_advice_is_kept_for_multi_rank_jobs() -> None:
    single = next_actions(BOOK, Situation(category="hccl", values={"first_ranks_suffix": ""}))
    multi = next_actions(
        BOOK,
        Situation(category="hccl", multi_rank=True, values={"first_ranks_suffix": " (rank 3)"}),
    )
    assert not any("failed first" in a for a in single)
    assert any("failed first (rank 3)" in a for a in multi)


def test_at_most_six_actions() -> None:
    situation = Situation(
        category="aicore_timeout",
        signature_ids=[sig.id for sig in load_knowledge().signatures],
        codes=["507014", "507015", "561002"],
        values={"ranks": "1", "ranks_suffix": " (rank 1)", "op": "aclnnAdd"},
    )
    assert len(next_actions(BOOK, situation)) == MAX_ACTIONS


NCCL_LINE = (
    "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
    "ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), "
    "NCCL version 2.21.5"
)
HCCL_LINE = (
    "EI0006: [PID: 40211] 2026-05-02-11:20:31.402.118 Getting socket times out. Reason: 1. The "
    "remote does not initiate a connect request."
)


def test_an_nccl_failure_gets_nccl_debugging_instead_of_plog_collection() -> None:
    actions = next_actions(BOOK, Situation(category="hccl", first_error_text=NCCL_LINE))
    assert any("NCCL_DEBUG=INFO" in a for a in actions)
    assert not any("ASCEND_GLOBAL_LOG_LEVEL" in a for a in actions)


def test_an_hccl_failure_keeps_plog_collection_and_gets_no_nccl_advice() -> None:
    actions = next_actions(BOOK, Situation(category="hccl", first_error_text=HCCL_LINE))
    assert any("ASCEND_GLOBAL_LOG_LEVEL" in a for a in actions)
    assert not any("NCCL_DEBUG" in a for a in actions)


def test_nccl_debugging_is_not_asked_for_when_the_env_dump_shows_it() -> None:
    situation = Situation(category="hccl", first_error_text=NCCL_LINE, env={"NCCL_DEBUG": "INFO"})
    assert not any("NCCL_DEBUG=INFO" in a for a in next_actions(BOOK, situation))


def test_a_cuda_allocator_failure_names_the_cuda_allocator_setting() -> None:
    text = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 2 has a "
        "total capacity of 39.38 GiB of which 120.06 MiB is free. Of the allocated memory 30.11 "
        "GiB is allocated by PyTorch, and 8.02 GiB is reserved by PyTorch but unallocated."
    )
    for signatures in (["oom.device_out_of_memory"], []):
        situation = Situation(category="oom", signature_ids=signatures, first_error_text=text)
        actions = next_actions(BOOK, situation)
        assert any("PYTORCH_CUDA_ALLOC_CONF" in a for a in actions)
        assert not any("PYTORCH_NPU_ALLOC_CONF" in a for a in actions)


def test_an_npu_allocator_failure_keeps_the_npu_allocator_setting() -> None:
    text = "NPU out of memory. Tried to allocate 2 GiB (... 60.10 GiB reserved in total by PyTorch)"
    for signatures in (["oom.device_out_of_memory"], []):
        situation = Situation(category="oom", signature_ids=signatures, first_error_text=text)
        actions = next_actions(BOOK, situation)
        assert any("PYTORCH_NPU_ALLOC_CONF" in a for a in actions)
        assert not any("PYTORCH_CUDA_ALLOC_CONF" in a for a in actions)


def test_a_cuda_kernel_fault_gets_gpu_checks_and_cuda_launch_blocking() -> None:
    text = "RuntimeError: CUDA error: an illegal memory access was encountered"
    actions = next_actions(BOOK, Situation(category="device_fault", first_error_text=text))
    assert any("nvidia-smi" in a for a in actions)
    assert any("CUDA_LAUNCH_BLOCKING=1" in a for a in actions)
    assert not any("npu-smi" in a or "ASCEND_LAUNCH_BLOCKING" in a for a in actions)


def test_an_npu_device_fault_keeps_the_npu_checks() -> None:
    text = "RuntimeError: The Inner error is reported as above. ... error code is 507053"
    actions = next_actions(BOOK, Situation(category="device_fault", first_error_text=text))
    assert any("npu-smi" in a for a in actions)
    assert not any("nvidia-smi" in a or "CUDA_LAUNCH_BLOCKING" in a for a in actions)


def test_a_cuda_job_gets_cuda_advice_even_when_its_first_error_names_no_stack() -> None:
    text = "ValueError: Unsupported head size 72 for the chosen attention backend"
    on_gpu = next_actions(
        BOOK, Situation(category="operator", first_error_text=text, accelerator="cuda")
    )
    on_npu = next_actions(
        BOOK, Situation(category="operator", first_error_text=text, accelerator="ascend")
    )
    assert any("CUDA_LAUNCH_BLOCKING=1" in a for a in on_gpu)
    assert not any("ASCEND_" in a or "CANN" in a for a in on_gpu)
    assert any("ASCEND_LAUNCH_BLOCKING=1" in a for a in on_npu)
    assert not any("CUDA_LAUNCH_BLOCKING" in a for a in on_npu)


def test_the_stack_the_bundle_shows_beats_the_words_of_the_first_error() -> None:
    # torch_npu's device-mapping shim keeps CUDA's names in some messages
    text = "RuntimeError: CUDA error: an illegal memory access was encountered"
    actions = next_actions(
        BOOK, Situation(category="device_fault", first_error_text=text, accelerator="ascend")
    )
    assert any("npu-smi" in a for a in actions)
    assert not any("nvidia-smi" in a for a in actions)


def test_a_hung_cuda_job_is_not_told_to_read_npu_smi() -> None:
    actions = next_actions(BOOK, Situation(category="hang", accelerator="cuda"))
    assert any("nvidia-smi" in a for a in actions)
    assert not any("npu-smi" in a or "NPUs" in a for a in actions)


def test_a_cpu_job_with_an_unread_failure_is_told_what_to_collect_without_device_tools() -> None:
    text = "KeyError: 'experts.7.w2'"
    actions = next_actions(
        BOOK, Situation(category="other", first_error_text=text, accelerator="cpu")
    )
    assert any("TORCH_DISTRIBUTED_DEBUG=DETAIL" in a for a in actions)
    assert not any(word in a for a in actions for word in ("npu-smi", "nvidia-smi", "plog"))


# Advice written for Ascend jobs alone (npu-smi, CANN's switches and plogs, set_env.sh).
ASCEND_ONLY = {
    action.text
    for book in (BOOK.categories, BOOK.signatures, BOOK.codes)
    for actions in book.values()
    for action in actions
    if action.stack == "ascend"
}
# Categories whose general advice is written per stack (a CPU/gloo job stating no backend, or
# a CUDA job whose lines name no CUDA word, shows no device at all).
STACK_WRITTEN = (
    "hccl",
    "oom",
    "hang",
    "device_fault",
    "driver_env",
    "config",
    "operator",
    "stream_sync",
    "other",
)
GLOO_TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:"
    "78] Timed out waiting 10000ms for recv operation to complete"
)


def test_a_job_that_shows_no_device_gets_no_ascend_steps() -> None:
    for category in STACK_WRITTEN:
        for text in ("ImportError: libfoo.so: cannot open shared object file", GLOO_TIMEOUT):
            actions = next_actions(BOOK, Situation(category=category, first_error_text=text))
            assert actions, category
            assert not ASCEND_ONLY.intersection(actions), category


def test_a_job_that_shows_no_device_gets_each_stacks_way_where_advice_is_per_stack() -> None:
    oom = next_actions(BOOK, Situation(category="oom", first_error_text="out of memory"))
    other = next_actions(BOOK, Situation(category="other", first_error_text="boom"))
    hccl = next_actions(BOOK, Situation(category="hccl", first_error_text=GLOO_TIMEOUT))
    assert any("PYTORCH_CUDA_ALLOC_CONF" in a and "PYTORCH_NPU_ALLOC_CONF" in a for a in oom)
    assert any("every rank's stdout/stderr" in a and "nvidia-smi" in a for a in other)
    assert any("TORCH_DISTRIBUTED_DEBUG=DETAIL" in a for a in hccl)


def test_each_stacks_own_advice_leaves_out_the_device_neutral_twin() -> None:
    for stack in ("ascend", "cuda", "cpu"):
        situation = Situation(category="oom", first_error_text="out of memory", accelerator=stack)
        assert not [a for a in next_actions(BOOK, situation) if "on Ascend NPUs" in a], stack


def test_a_first_error_in_ascends_words_gets_ascend_advice_without_other_evidence() -> None:
    text = "RuntimeError: npuSynchronizeDevice: NPU function error: aclrtSynchronizeDevice"
    actions = next_actions(BOOK, Situation(category="driver_env", first_error_text=text))
    assert any("set_env.sh" in a for a in actions)
    assert not any("nvidia-smi" in a for a in actions)


def test_stack_advice_is_read_from_actions_yaml_with_its_stack() -> None:
    versions = {a.id: a.stack for a in BOOK.categories["config"]}
    assert versions["versions"] == "ascend"
    assert versions["versions_cuda"] == "cuda"
    assert versions["config_fields"] is None


def test_weight_load_split_advice_only_for_a_split_that_does_not_divide() -> None:
    split = "RuntimeError: start (105984) + length (35328) exceeds dimension size (131125)."
    unreadable = (
        "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge"
    )
    about_split = next_actions(BOOK, Situation(category="weight_load", first_error_text=split))
    about_file = next_actions(
        BOOK,
        Situation(
            category="weight_load",
            signature_ids=["wl.corrupt_checkpoint"],
            first_error_text=unreadable,
        ),
    )
    assert any("TP/EP size" in a for a in about_split)
    assert not any("TP/EP size" in a for a in about_file)
    assert "checksums" in about_file[0]


def test_each_weight_load_failure_kind_gets_its_own_first_advice() -> None:
    firsts = {
        signature: next_actions(BOOK, Situation(category="weight_load", signature_ids=[signature]))[
            0
        ]
        for signature in (
            "wl.quant_scheme_unresolved",
            "wl.param_size_mismatch",
            "wl.corrupt_checkpoint",
            "wl.parameter_copy_failed",
            "wl.not_divisible",
        )
    }
    assert "quantization scheme" in firsts["wl.quant_scheme_unresolved"]
    assert "config.json" in firsts["wl.param_size_mismatch"]
    assert len(set(firsts.values())) == len(firsts)


def test_a_watchdog_timeout_tells_each_stack_its_own_timeout_setting() -> None:
    """HCCL_EXEC_TIMEOUT means nothing to a GPU job; its twin there is the process group's
    own timeout."""
    signature = ["hccl.watchdog_timeout"]
    on_gpu = " ".join(
        next_actions(BOOK, Situation(category="hccl", signature_ids=signature, accelerator="cuda"))
    )
    on_npu = " ".join(
        next_actions(
            BOOK, Situation(category="hccl", signature_ids=signature, accelerator="ascend")
        )
    )
    assert "HCCL_EXEC_TIMEOUT" not in on_gpu
    assert "init_process_group(timeout=" in on_gpu
    assert "HCCL_EXEC_TIMEOUT" in on_npu
    assert "init_process_group(timeout=" not in on_npu


def test_memory_held_by_another_process_is_looked_up_with_the_stacks_own_tool() -> None:
    """A CUDA job is sent to nvidia-smi, an NPU job to npu-smi, never the other's tool."""
    cuda = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 3 has a "
        "total capacity of 79.33 GiB of which 41.50 MiB is free. Process 51234 has 79.27 GiB "
        "memory in use. Of the allocated memory 12.40 GiB is allocated by PyTorch."
    )
    npu = "NPU out of memory. Tried to allocate 2 GiB (... 60.10 GiB reserved in total by PyTorch)"
    for text, tool, other in ((cuda, "nvidia-smi", "npu-smi"), (npu, "npu-smi", "nvidia-smi")):
        situation = Situation(
            category="oom", signature_ids=["oom.device_out_of_memory"], first_error_text=text
        )
        actions = next_actions(BOOK, situation)
        assert any(tool in a for a in actions)
        assert not any(other in a for a in actions)


def test_a_ddp_reducer_refusal_is_told_how_to_fit_ddp_to_the_model() -> None:
    """Unused parameters and a parameter ready twice are the same reducer refusing a step,
    and each gets the switch that fits it, not the other's."""
    unused = (
        "RuntimeError: Expected to have finished reduction in the prior iteration before "
        "starting a new one. This error indicates that your module has parameters that were "
        "not used in producing loss."
    )
    twice = "RuntimeError: Expected to mark a variable ready only once. This error is caused by"
    static = (
        "RuntimeError: Your training graph has changed in this iteration, e.g., one parameter "
        "is used in first iteration, but then got unused in the second iteration. this is not "
        "compatible with static_graph set to True."
    )
    for text, wanted, unwanted in (
        (unused, "find_unused_parameters=True", "use_reentrant"),
        (twice, "use_reentrant=False", "find_unused_parameters"),
        (static, "static-graph setting", "use_reentrant"),
    ):
        situation = Situation(
            category="config", signature_ids=["cfg.ddp_reducer_refused"], first_error_text=text
        )
        actions = next_actions(BOOK, situation)
        assert wanted in actions[0]
        assert not any(unwanted in a for a in actions)


def test_a_refused_backward_or_unscale_is_told_how_to_fix_the_step() -> None:
    """Reentrant checkpointing refusing a partial backward and a grad scaler refusing a second
    unscale each get the change to the step that fits them."""
    for signature, text, wanted in (
        (
            "cfg.checkpoint_reentrant_partial_backward",
            "RuntimeError: Checkpointing is not compatible with .grad() or when an `inputs` "
            "parameter is passed to .backward().",
            "use_reentrant=False",
        ),
        (
            "cfg.grad_scaler_unscaled_twice",
            "RuntimeError: unscale_() has already been called on this optimizer since the last "
            "update().",
            "once per optimizer step",
        ),
    ):
        situation = Situation(category="config", signature_ids=[signature], first_error_text=text)
        actions = next_actions(BOOK, situation)
        assert wanted in actions[0]


def test_ranks_that_built_different_models_are_told_to_compare_what_each_built() -> None:
    text = (
        "RuntimeError: DDP expects same model across all ranks, but Rank 1 has 96 params, "
        "while rank 0 has inconsistent 0 params."
    )
    situation = Situation(
        category="config", signature_ids=["cfg.ddp_models_differ"], first_error_text=text
    )
    assert "parameter count" in next_actions(BOOK, situation)[0]


def test_another_accelerators_runtime_gets_no_ascend_or_cuda_advice() -> None:
    """A first error that names torch_xla, the Neuron runtime, Tenstorrent or poptorch gets
    its signature's advice and the advice written for every stack, not npu-smi or CUDA's.
    docs/labelling.md#runtimes-of-other-accelerators"""
    neuron_line = (
        "2024-Mar-07 08:01:55.318204 7715:7715 ERROR  TDRV:tdrv_init_mla_phase1"
        "                    Could not open the nd6"
    )
    neuron = next_actions(
        BOOK,
        Situation(
            category="driver_env",
            signature_ids=["env.neuron_device_not_opened"],
            first_error_text="Could not open the nd6",
            first_error_line=neuron_line,
        ),
    )
    assert any("neuron-ls" in a for a in neuron)
    assert not any("npu-smi" in a or "CANN" in a or "nvidia-smi" in a for a in neuron)
    xla = next_actions(
        BOOK,
        Situation(
            category="oom",
            signature_ids=["oom.xla_resource_exhausted"],
            first_error_text="RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error"
            " allocating device buffer: Attempting to allocate 64.00M. (0x0x0_HBM0) on TPU",
        ),
    )
    assert any("HBM" in a for a in xla)
    assert not any("PYTORCH_NPU_ALLOC_CONF" in a or "PYTORCH_CUDA_ALLOC_CONF" in a for a in xla)


def test_an_unnamed_runtime_gets_no_stacks_tools() -> None:
    plain = next_actions(BOOK, Situation(category="driver_env", first_error_text="boom"))
    assert not any("npu-smi" in a or "set_env.sh" in a for a in plain)


def test_a_gpu_peer_access_refusal_is_told_to_look_at_the_gpus_peer_path() -> None:
    """A C++ extension names CUDA's runtime only by its prefix: the advice is still the GPU's."""
    refusal = "RuntimeError: CUDART error: peer access is not supported between these two devices"
    situation = Situation(
        category="driver_env",
        signature_ids=["env.gpu_peer_access_unsupported"],
        first_error_text=refusal,
    )
    actions = next_actions(BOOK, situation)
    assert any("nvidia-smi topo" in a and "--disable-custom-all-reduce" in a for a in actions)
    assert not any("npu-smi" in a or "NPUs" in a or "CANN" in a for a in actions)


def test_an_npu_peer_access_refusal_keeps_the_npu_topology_check() -> None:
    refusal = "EL9999: [drv api] halDeviceEnableP2P failed: drv devId=2, phyIdSrc=0, drvRetCode=17"
    situation = Situation(
        category="driver_env", signature_ids=["env.peer_access_refused"], first_error_text=refusal
    )
    actions = next_actions(BOOK, situation)
    assert any("npu-smi" in a for a in actions)
    assert not any("nvidia-smi" in a for a in actions)


def test_an_engine_allreduce_check_naming_only_its_cuda_header_gets_the_engine_advice() -> None:
    """Older custom all-reduce builds print the failed call's place and CUDA's message only."""
    line = "Failed: /opt/build/csrc/custom_all_reduce.cuh:291 'invalid argument'"
    situation = Situation(
        category="hccl", signature_ids=["hccl.custom_allreduce_cuda_check"], first_error_text=line
    )
    actions = next_actions(BOOK, situation)
    assert any("--disable-custom-all-reduce" in a for a in actions)
    assert not any("ASCEND_GLOBAL_LOG_LEVEL" in a or "plog" in a for a in actions)


# docs/labelling.md#numbers-that-went-non-finite: a failure read as numbers that went NaN or Inf
# is told where to look in the numbers, not to collect the logs it was just read from.
NONFINITE_GUIDE = "numbers-that-went-non-finite"


def test_a_loop_guard_that_stops_on_a_nan_loss_gets_numerical_advice_first() -> None:
    text = "RuntimeError: Loss is nan at epoch 1 step 5 on rank 3; stopping training"
    actions = next_actions(
        BOOK,
        Situation(
            category="other",
            signature_ids=["num.own_check_nonfinite"],
            first_error_text=text,
            accelerator="cpu",
            multi_rank=True,
        ),
    )
    assert "set_detect_anomaly" in actions[0]
    assert not actions[0].startswith("Collect every rank")


def test_every_rule_of_the_non_finite_section_has_advice_of_its_own() -> None:
    rules = [s.id for s in load_knowledge().signatures if s.guide == NONFINITE_GUIDE]
    assert rules
    assert [r for r in rules if not BOOK.signatures.get(r)] == []


def test_anomaly_mode_is_not_suggested_where_it_already_raised() -> None:
    # counterexample: anomaly mode named the backward function, so turning it on again is no step
    text = "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output."
    actions = next_actions(
        BOOK,
        Situation(
            category="other",
            signature_ids=["num.anomaly_nan_in_backward"],
            first_error_text=text,
            accelerator="cpu",
        ),
    )
    assert actions
    assert not actions[0].startswith("Collect every rank")
    assert not any("set_detect_anomaly" in a for a in actions)


def test_a_job_whose_bundle_shows_no_device_is_not_given_ascend_steps() -> None:
    """Plain prints, no env dump, no start line naming a backend, no device word: a CPU job
    or a GPU job alike."""
    failed = [
        "load weights passed",
        "Traceback (most recent call last):",
        '  File "/srv/train/train.py", line 12, in <module>',
        "    main()",
        "OSError: libgomp.so.1: cannot open shared object file: No such file or directory",
    ]
    files = {"job/log_0.log": "\n".join(failed) + "\n", "job/log_1.log": "load weights passed\n"}

    diagnosis = diagnose_files(files)

    assert diagnosis.next_actions
    assert not ASCEND_ONLY.intersection(diagnosis.next_actions)


def test_a_missing_library_on_no_known_stack_is_not_blamed_on_the_cann_environment() -> None:
    missing = "OSError: libgomp.so.1: cannot open shared object file: No such file or directory"
    situation = Situation(
        category="driver_env",
        signature_ids=["env.missing_shared_library"],
        first_error_text=missing,
    )
    actions = next_actions(BOOK, situation)
    assert not ASCEND_ONLY.intersection(actions)
    assert any("LD_LIBRARY_PATH" in a for a in actions)
    ascend = next_actions(BOOK, replace(situation, accelerator="ascend"))
    assert any("set_env.sh" in a for a in ascend)


NO_CUDA_BUILD = "AssertionError: Torch not compiled with CUDA enabled"
NO_NCCL_BUILD = "RuntimeError: Distributed package doesn't have NCCL built in"


def test_a_torch_build_that_lacks_the_device_asked_for_names_no_stack_by_that_device() -> None:
    """The sentence names the device the code asked for, not a runtime the job had: a CPU-only
    torch build (Ascend's torch is one too, under torch_npu) has no CUDA and no NCCL."""
    for text in (NO_CUDA_BUILD, NO_NCCL_BUILD):
        assert stack_of(Situation(category="config", first_error_text=text)) == "unknown"


def test_the_bundles_stack_still_decides_for_a_torch_build_without_cuda() -> None:
    for stack in ("cuda", "cpu", "ascend"):
        situation = Situation(category="config", first_error_text=NO_CUDA_BUILD, accelerator=stack)
        assert stack_of(situation) == stack


def test_cuda_named_beside_a_build_without_it_still_reads_as_cuda() -> None:
    text = f"RuntimeError: CUDA error: no kernel image is available; {NO_CUDA_BUILD}"
    assert stack_of(Situation(category="config", first_error_text=text)) == "cuda"


def test_a_torch_build_without_cuda_is_told_to_install_the_right_build_not_to_check_a_driver():
    situation = Situation(
        category="config",
        signature_ids=["cfg.torch_build_without_device"],
        first_error_text=NO_CUDA_BUILD,
    )
    actions = next_actions(BOOK, situation)
    assert "install the torch build for the machine's accelerator" in actions[0]
    assert not any("NVIDIA driver" in a for a in actions)


def test_a_torch_build_without_nccl_is_told_each_stacks_backend() -> None:
    situation = Situation(
        category="config", signature_ids=["cfg.backend_not_built"], first_error_text=NO_NCCL_BUILD
    )
    first = next_actions(BOOK, situation)[0]
    assert "on GPUs nccl" in first
    assert "on Ascend NPUs the hccl backend" in first
    assert "on CPUs gloo" in first


# A rank that the host refused memory: Python's bare exception under an address-space limit,
# numpy's and torch's CPU allocator's refusals, a native allocation that threw.
HOST_REFUSALS = [
    "[rank1]: MemoryError",
    "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 2.00 GiB for an array with "
    "shape (8, 8192, 8192) and data type float32",
    "RuntimeError: [enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: can't "
    "allocate memory: you tried to allocate 8589934592 bytes. Error code 12 (Cannot allocate "
    "memory)",
    "RuntimeError: std::bad_alloc",
]


def _lost_peer(rank: int) -> str:
    return (
        f"[rank{rank}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "pair.cc:553] Connection closed by peer [127.0.0.1]:40412. This is typically caused by "
        "a remote worker crashing.\n"
    )


@pytest.mark.parametrize("line", HOST_REFUSALS)
def test_a_host_memory_refusal_gets_host_advice_not_the_devices(line: str) -> None:
    diagnosis = diagnose_files({"job/log_1.log": line + "\n", "job/log_0.log": _lost_peer(0)})
    assert diagnosis.category == "oom"
    assert diagnosis.next_actions, "no advice at all"
    assert "host" in diagnosis.next_actions[0]
    assert "ulimit -v" in diagnosis.next_actions[0]
    assert not any("Reduce what lives on the device" in a for a in diagnosis.next_actions)


@pytest.mark.parametrize(
    "line",
    [
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
        "total capacity of 79.15 GiB of which 1.2 GiB is free.",
        "MemoryError: (ResourceExhausted) Out of memory error on XPU 0. Cannot allocate 1.5GB "
        "memory on XPU 0",
    ],
)
def test_a_device_memory_refusal_keeps_the_device_advice(line: str) -> None:
    diagnosis = diagnose_files({"job/log_1.log": line + "\n", "job/log_0.log": _lost_peer(0)})
    assert diagnosis.category == "oom"
    assert any("Reduce what lives on the device" in a for a in diagnosis.next_actions)
    assert not any("ulimit -v" in a for a in diagnosis.next_actions)


def _silent_exit_job(rank1_error: str | None) -> dict[str, str]:
    """Rank 1 printed progress and then ended with status 4 (with or without its own error);
    rank 0 lost it; the agent reports the exit."""
    rank1 = "2026-12-06 10:02:11,310 [rank1] INFO layer 2 passed\n"
    if rank1_error:
        rank1 += f"2026-12-06 10:02:11,320 [rank1] ERROR {rank1_error}\n"
    return {
        "job/attempt_0/1/stderr.log": rank1,
        "job/attempt_0/0/stderr.log": (
            "2026-12-06 10:02:11,309 [rank0] INFO layer 2 passed\n"
            "2026-12-06 10:02:11,402 [rank0] ERROR model run failed: " + _lost_peer(0)
        ),
        "job/launcher.log": (
            "E1206 10:02:11.690000 7001 torch/distributed/elastic/multiprocessing/api.py:1002] "
            "failed (exitcode: 4) local_rank: 1 (pid: 7012) of binary: /opt/venv/bin/python3\n"
        ),
    }


def test_a_rank_that_exits_without_a_word_is_told_where_to_look() -> None:
    diagnosis = diagnose_files(_silent_exit_job(None))
    assert diagnosis.first_error is not None
    assert "failed (exitcode: 4) local_rank: 1" in diagnosis.first_error.text
    assert diagnosis.next_actions, "no advice at all"
    assert "os._exit" in diagnosis.next_actions[0]


def test_a_rank_that_logged_its_own_error_gets_no_silent_exit_advice() -> None:
    diagnosis = diagnose_files(_silent_exit_job("model run failed: KeyError: 'lm_head.weight'"))
    assert diagnosis.first_error is not None
    assert "KeyError" in diagnosis.first_error.text
    assert not any("os._exit" in a for a in diagnosis.next_actions)


def _paced_rank(rank: int, durations: list[float], error: str | None) -> str:
    """A rank's log: timed `step S done` lines, each step taking its duration, then its error."""
    now = datetime(2026, 12, 7, 7, 44, 30)
    lines = [f"{now:%Y-%m-%d %H:%M:%S},000 [rank{rank}] INFO load weights passed"]
    for step, duration in enumerate(durations):
        now += timedelta(seconds=duration)
        stamp = f"{now:%Y-%m-%d %H:%M:%S},{now.microsecond // 1000:03d}"
        lines.append(f"{stamp} [rank{rank}] INFO step {step} done")
    if error:
        lines.append(f"[rank{rank}]: RuntimeError: {error}")
    return "\n".join(lines) + "\n"


_GLOO_TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] "
    "Timed out waiting 10000ms for recv operation to complete"
)


def test_a_timeout_after_steps_that_slowed_down_says_so_first() -> None:
    growing = [0.1, 0.1, 0.3, 0.9, 2.7, 8.1]
    files = {
        f"job/log_{r}.log": _paced_rank(r, growing, None if r == 2 else _GLOO_TIMEOUT)
        for r in range(4)
    }
    actions = diagnose_files(files).next_actions
    assert actions[0].startswith("The ranks slowed down step by step before this: 'step N done'")
    assert "0.10 s apart at first and 8.1 s apart at the end" in actions[0]


def test_a_timeout_after_a_level_pace_gets_no_slowdown_advice() -> None:
    # counterexample: the same wait after steps of an even length
    files = {
        f"job/log_{r}.log": _paced_rank(r, [2.0] * 6, None if r == 2 else _GLOO_TIMEOUT)
        for r in range(4)
    }
    actions = diagnose_files(files).next_actions
    assert actions
    assert not any("slowed down" in a for a in actions)


@pytest.mark.parametrize(("category", "asked"), [("hccl", True), ("hang", True), ("oom", False)])
def test_only_advice_that_names_the_pace_asks_for_the_slowdown(category, asked) -> None:
    # the pass over every checkpoint is made for the categories whose advice names the pace
    situation = Situation(category=category, env={}, file_kinds=frozenset(), multi_rank=True)
    assert asks_for(BOOK, situation, "slow_line") is asked

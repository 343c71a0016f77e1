"""A process stopped by the OpenMP runtime's own numbered error.

docs/labelling.md#a-native-assertion-no-rule-knows: the OpenMP runtime that MKL and many wheels
bring along ends the process with `OMP: Error #N: <text>` and prints `OMP: Hint ...` advice
under it. The error line is the first error; its own assertion is the runtime's business
(`other`, with `device_fault` and `driver_env` beside it), and two copies of the runtime in one
process are the installation's (`driver_env`). The hint lines are advice: their words
(compilers, configuration) name no failure and they are never cited. The fixtures follow a
speech recipe's training log (a `(module:line) LEVEL:` logging header, then the runtime's bare
lines on stderr) and a rank's stdout under torchrun, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

HINT_REPORT = (
    "OMP: Hint Please submit a bug report with this message, compile and run commands used, "
    "and machine configuration info including native compiler and operating system versions."
)

RECIPE_LOG = f"""\
2026-12-05 21:40:02,118 (asr_train:231) INFO: random seed = 7
2026-12-05 21:40:02,160 (asr_train:258) INFO: backend = pytorch, ngpu = 4
2026-12-05 21:40:31,907 (trainer:112) INFO: building the data iterator for 4 workers
OMP: Error #13: Assertion failure at kmp_affinity.cpp(1193).
{HINT_REPORT}
OMP: Error #13: Assertion failure at kmp_affinity.cpp(1193).
{HINT_REPORT}
"""

TWO_RUNTIMES = """\
[default1]:2026-12-05 21:44:10,311 [rank1] INFO importing the feature extractor
[default1]:OMP: Error #15: Initializing libiomp5.so, but found libiomp5.so already initialized.
[default1]:OMP: Hint This means that multiple copies of the OpenMP runtime have been linked into the program. Set the environment variable to work around it at your own risk.
E1205 21:44:12.004000 811 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) local_rank: 1 (pid: 905) of binary: /opt/venv/bin/python
"""


def test_the_runtimes_assertion_is_the_first_error_not_its_hint() -> None:
    diagnosis = diagnose_text("exp/asr_train/train.log", RECIPE_LOG)
    assert diagnosis.category == "other", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert (
        "OMP: Error #13: Assertion failure at kmp_affinity.cpp(1193)" in diagnosis.first_error.text
    )
    assert {"device_fault", "driver_env"} <= set(alternative_labels(diagnosis))
    assert "native.openmp_runtime_error" in rules_of(diagnosis)


def test_a_second_copy_of_the_runtime_is_the_installation() -> None:
    diagnosis = diagnose_text("job/stdout.log", TWO_RUNTIMES)
    assert_reads(diagnosis, "driver_env", first_error="already initialized")
    assert "config" in alternative_labels(diagnosis)
    assert "env.openmp_runtime_loaded_twice" in rules_of(diagnosis)


def test_the_runtimes_advice_alone_is_never_cited() -> None:
    diagnosis = diagnose_text("train.log", f"step 40 loss 2.31\n{HINT_REPORT}\n")
    assert diagnosis.first_error is None or "OMP: Hint" not in diagnosis.first_error.text
    assert diagnosis.category != "config"

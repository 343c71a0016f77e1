"""An op that torch's dispatcher does not know: a package built for another torch.

docs/labelling.md#operator-installation-or-platform-limit gives the label: when a package's
Python side looks one of its own ops up by qualified name and the dispatcher holds no schema
for it (`operator <ns>::<op> does not exist`, older releases `No such operator <ns>::<op>`),
the package's compiled library registered nothing, so the installed packages do not fit
together (`config`, with `operator` and `driver_env` beside it). An earlier load failure keeps
its own reading. Fixtures follow the real formats with paths and ranks of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RANKS_IMPORT_VISION = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/workspace/det/train_ddp.py", line 12, in <module>
[rank1]:     import torchvision
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torchvision/__init__.py", line 10, in <module>
[rank1]:     from torchvision import _meta_registrations, datasets, io, models, ops, transforms, utils  # usort:skip
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torchvision/_meta_registrations.py", line 164, in <module>
[rank1]:     def meta_nms(dets, scores, iou_threshold):
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/library.py", line 828, in register
[rank1]:     use_lib._register_fake(op_name, func, _stacklevel=stacklevel + 1)
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/_library/fake_impl.py", line 31, in register
[rank1]:     if torch._C._dispatch_has_kernel_for_dispatch_key(self.qualname, "Meta"):
[rank1]: RuntimeError: operator torchvision::nms does not exist
E0412 10:02:17.551000 4411 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 0 (pid: 4416) of binary: /opt/venv/bin/python
"""

OLD_TORCH_OPS_CALL = """\
Traceback (most recent call last):
  File "/srv/audio/align.py", line 48, in <module>
    out = torch.ops.torchvision.roi_align(feats, boxes, 1.0, 7, 7, 2, False)
  File "/opt/conda/lib/python3.8/site-packages/torch/_ops.py", line 61, in __getattr__
    op = torch._C._get_operation(qualified_op_name)
RuntimeError: No such operator torchvision::roi_align
"""

DUPLICATE_REGISTRATION = """\
Traceback (most recent call last):
  File "/workspace/ext/load.py", line 9, in <module>
    torch.ops.load_library("build/libvisionops.so")
RuntimeError: Tried to register an operator (visionops::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor) with the same name and overload name multiple times.
"""


def test_an_operator_the_dispatcher_does_not_know_is_the_package_set() -> None:
    diagnosis = diagnose_text("logs/train_ddp_rank1.log", RANKS_IMPORT_VISION)
    assert_reads(diagnosis, "config", first_error="operator torchvision::nms does not exist")
    assert "cfg.dispatcher_operator_not_registered" in {
        e.rule for e in diagnosis.evidence if e.rule
    }
    assert {"operator", "driver_env"} & set(alternative_labels(diagnosis))


def test_the_older_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/align.log", OLD_TORCH_OPS_CALL)
    assert_reads(diagnosis, "config", first_error="No such operator torchvision::roi_align")


def test_a_duplicate_registration_is_not_an_unknown_operator() -> None:
    diagnosis = diagnose_text("logs/load.log", DUPLICATE_REGISTRATION)
    rules = rules_of(diagnosis)
    assert "cfg.dispatcher_operator_not_registered" not in rules, rules

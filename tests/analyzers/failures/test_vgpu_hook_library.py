"""A GPU-sharing device plugin's hook library that the container's loader refuses.

docs/labelling.md#a-gpu-sharing-hook-library-the-container-cannot-load: GPU-sharing device
plugins (HAMi and the vGPU scheduler it grew from) mount a library of their own into every
container they give a share of a GPU (`/usr/local/vgpu/libvgpu.so`) and preload it, so every
CUDA or NVML call goes through it. When that library does not fit the image's C library, or
is missing where the preload points, the loader stops the first program that starts, before
the job does anything. The node's plugin put it there, so the label is `driver_env`, with
`config` (another image, or the plugin's release) beside it, and the loader's line is the
first error. A Python package's own extension that lacks a symbol stays `config`. Values of
our own in the loader's shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SYMBOL = """\
$ kubectl exec -it trainer-0 -- nvidia-smi
nvidia-smi: symbol lookup error: /usr/local/vgpu/libvgpu.so: undefined symbol: _dl_sym, version GLIBC_PRIVATE
command terminated with exit code 127
"""

PRELOAD = """\
ERROR: ld.so: object '/usr/local/vgpu/libvgpu.so' from /etc/ld.so.preload cannot be preloaded (cannot open shared object file): ignored.
"""

# Counterexample: a package's extension that lacks a torch symbol.
EXTENSION = """\
ImportError: /opt/venv/lib/python3.10/site-packages/fastops/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi
"""


def test_the_sharing_plugins_library_the_loader_refuses_is_the_node() -> None:
    diagnosis = diagnose_text("pod/trainer-0.log", SYMBOL)
    assert_reads(
        diagnosis, "driver_env", first_error="libvgpu.so: undefined symbol", beside=("config",)
    )


def test_the_sharing_plugins_library_missing_from_the_preload_is_the_node() -> None:
    diagnosis = diagnose_text("pod/trainer-0.log", PRELOAD)
    assert diagnosis.category == "driver_env"


def test_a_packages_extension_lacking_a_symbol_stays_config() -> None:
    diagnosis = diagnose_text("pod/trainer-0.log", EXTENSION)
    assert diagnosis.category == "config"

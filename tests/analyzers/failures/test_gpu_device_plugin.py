"""A Kubernetes GPU device plugin that finds no GPU to offer.

docs/labelling.md#a-gpu-device-plugin-that-finds-no-way-to-the-gpus: NVIDIA's device plugin
starts in its own container and looks for the GPUs through NVML (or the Tegra files) that the
node's container runtime mounts for it. When the node's runtime is not NVIDIA's, it finds
neither, refuses to pick a discovery strategy and stops, so no pod on the node gets a GPU.
That is the node's container set-up, `driver_env`, with `config` (the plugin's runtime class,
node selector or strategy flag) beside it; the refusal is the first error, ahead of the error
that ends the plugin. Lines of a plugin that started are no failure. Values of our own in the
plugin's klog shape.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text

NO_STRATEGY = """\
I0312 08:01:02.100200       1 main.go:317] Loading configuration.
I0312 08:01:02.100900       1 main.go:342] Updating config with default resource matching patterns.
I0312 08:01:02.101500       1 main.go:356] Retrieving plugins.
E0312 08:01:02.101700       1 factory.go:112] Incompatible strategy detected auto
E0312 08:01:02.101720       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container Toolkit?
E0312 08:01:02.101760       1 factory.go:116] If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes
E0312 08:01:02.120400       1 main.go:173] error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: invalid device discovery strategy
"""

# Counterexample: a plugin that found its GPUs and registered them.
STARTED = """\
I0312 08:01:02.101500       1 main.go:356] Retrieving plugins.
I0312 08:01:02.130100       1 server.go:195] Starting GRPC server for 'nvidia.com/gpu'
I0312 08:01:02.131400       1 server.go:139] Starting to serve 'nvidia.com/gpu' on /var/lib/kubelet/device-plugins/nvidia-gpu.sock
I0312 08:01:02.133900       1 server.go:146] Registered device plugin for 'nvidia.com/gpu' with Kubelet
"""


def test_a_plugin_with_no_discovery_strategy_is_the_nodes_setup() -> None:
    diagnosis = diagnose_text("nvidia-device-plugin.log", NO_STRATEGY)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Incompatible strategy detected auto",
        beside=("config",),
    )


def test_the_plugins_end_alone_is_read_the_same_way() -> None:
    text = NO_STRATEGY.splitlines()[-1] + "\n"
    diagnosis = diagnose_text("nvidia-device-plugin.log", text)
    assert_reads(diagnosis, "driver_env", first_error="invalid device discovery strategy")


def test_a_plugin_that_registered_its_gpus_is_no_failure() -> None:
    rules = [s for s in load_knowledge().signatures if s.id == "env.gpu_device_plugin_no_gpu"]
    assert rules
    assert not any(rules[0].search(line) for line in STARTED.splitlines())


# docs/labelling.md#a-gpu-device-plugin-whose-mig-strategy-does-not-fit-the-node: with the
# `single` MIG strategy the plugin offers every MIG slice as `nvidia.com/gpu`, so it insists
# that all slices on the node are of one profile, and it stops when they are not (or when there
# is none, or a card has MIG on and no slices). The strategy chosen for the node and the MIG
# layout the node was given disagree: `config`, with `driver_env` beside it, and the refusal is
# the first error. Values of our own, in the shapes the plugin prints: a Go panic in older
# releases, an error through klog in newer ones.
MIG_PANIC = """\
2024/03/05 10:12:40 Loading NVML
2024/03/05 10:12:40 Starting FS watcher.
2024/03/05 10:12:40 Starting OS watcher.
2024/03/05 10:12:40 Retreiving plugins.
panic: More than one MIG device type present on node

goroutine 1 [running]:
main.(*migStrategySingle).GetPlugins(0x10a2a40, 0x6, 0xb01a20, 0x10a2a40)
\t/go/src/nvidia-device-plugin/mig-strategy.go:124 +0x7cb
"""

MIG_KLOG = """\
I0305 10:12:40.501100       1 main.go:317] Loading configuration.
I0305 10:12:40.502300       1 main.go:356] Retrieving plugins.
E0305 10:12:40.518800       1 main.go:177] error starting plugins: error getting plugins: unable to create plugins: at least one device with migEnabled=true was not configured correctly: error visiting device: device 2 has no MIG devices configured
"""

# Counterexamples: the plugin's note that a MIG strategy needs NVML, and its config dump.
MIG_NOT_A_FAILURE = [
    'W0305 10:12:40.500200       1 rm.go:108] mig-strategy="mixed" is only supported with NVML',
    '    "migStrategy": "single",',
    "I0305 10:12:40.533900       1 server.go:146] Registered device plugin for 'nvidia.com/gpu' with Kubelet",
]


def test_a_single_mig_strategy_on_mixed_slices_is_the_nodes_configuration() -> None:
    diagnosis = diagnose_text("nvidia-device-plugin.log", MIG_PANIC)
    assert_reads(
        diagnosis,
        "config",
        first_error="More than one MIG device type present on node",
        beside=("driver_env",),
    )


def test_a_card_with_mig_on_and_no_slices_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("nvidia-device-plugin.log", MIG_KLOG)
    assert_reads(diagnosis, "config", first_error="migEnabled=true was not configured correctly")


def test_the_feature_discovery_warning_names_the_same_refusal() -> None:
    line = (
        "W0305 10:12:41.002000       1 mig-strategy.go:161] Invalid configuration detected for "
        "mig-strategy=single: more than one MIG device type present on node\n"
    )
    diagnosis = diagnose_text("gpu-feature-discovery.log", line)
    assert diagnosis.category == "config"


def test_mig_notes_and_settings_are_no_refusal() -> None:
    rules = [s for s in load_knowledge().signatures if s.id == "cfg.gpu_device_plugin_mig_strategy"]
    assert rules
    assert not any(rules[0].search(line) for line in MIG_NOT_A_FAILURE)

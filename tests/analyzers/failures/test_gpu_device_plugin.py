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
from tests.analyzers.excerpts import diagnose_text

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
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "Incompatible strategy detected auto" in diagnosis.first_error.text
    assert "config" in [alt.category for alt in diagnosis.alternatives]


def test_the_plugins_end_alone_is_read_the_same_way() -> None:
    text = NO_STRATEGY.splitlines()[-1] + "\n"
    diagnosis = diagnose_text("nvidia-device-plugin.log", text)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "invalid device discovery strategy" in diagnosis.first_error.text


def test_a_plugin_that_registered_its_gpus_is_no_failure() -> None:
    rules = [s for s in load_knowledge().signatures if s.id == "env.gpu_device_plugin_no_gpu"]
    assert rules
    assert not any(rules[0].search(line) for line in STARTED.splitlines())

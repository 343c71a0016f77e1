"""The failure labels of `shared/spec/taxonomy.md` as data the rule files are checked
against: each category with the subsystems it may belong to, and the roles a line can
play in a cascade of errors."""

from analyzers.core.report import UNLABELLED

ANY_SUBSYSTEM = (
    "none",
    "operator",
    "communication",
    "memory",
    "framework",
    "stream",
    "device",
    "environment",
)
TAXONOMY: dict[str, tuple[str, ...]] = {
    "healthy": ("none",),
    "aicore_timeout": ("operator",),
    "hccl": ("communication",),
    "oom": ("memory",),
    "shape_mismatch": ("framework",),
    "op_constraint": ("operator",),
    "operator": ("operator",),
    "weight_load": ("framework",),
    "config": ("framework",),
    "stream_sync": ("stream",),
    "device_fault": ("device",),
    "driver_env": ("environment",),
    "hang": ("communication", "framework"),
    UNLABELLED: ANY_SUBSYSTEM,
}
ROLES = ("cause", "symptom", "wrapper", "cascade", "generic")

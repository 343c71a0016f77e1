"""One module per log format; `analyzers.scan.member` drives them.

Line headers (level, time, pid, rank): `plog`, `torch_npu`, `glog`, `pylogging`, `richlog`
(rich's console handler, whose right-hand path column is dropped from the message), `d2log`
(detectron2's and fvcore's logger: a level word only for warnings and errors), and those
of other accelerators' runtimes: `hiplog` (ROCm's debug levels), `neuron_rt` (AWS Neuron),
`ttlog` (Tenstorrent), `macalog` (MetaX's MACA runtime and driver), and of the communication
libraries under them: `ucxlog` (UCX's own levelled lines, as NIXL and MPI print them), of the
inference engines on them: `trtllm_log` (TensorRT-LLM's and TensorRT's level tags), with the
launcher/tool prefixes peeled by `wrappers` (the collectors' and platforms' times in
`collector_stamps`, launchers' tags in `launcher_tags`, Ray's and vLLM's in `process_tags`, a
viewer's or grep's marks in `viewer_marks`, a paste's or a terminal's in `paste_marks`; their
collector prefixes as raw bytes in `outer_prefix`, for readers that look at a line before it is
parsed),
combined by `lines.parse_line`, which also peels structured records: `jsonlines` (one JSON
object a line) and `keyvalue` (structlog's key=value pairs with an `event`). Multi-line structures:
`traceback` (plain and rich's boxed ones; its pieces in `traceback_lines`, `traceback_frames`,
`open_traceback`, `traceback_carriers`, `above_exception`, `exception_message`,
`parted_exception` and `exception_events`), `cann_block`, `elastic`, `indented` (a headline
whose message is indented below it), `stack_dump` (faulthandler's timer and signal dumps: evidence, not a failure).
What a paste did to every line of a file (a shared indent, double spacing): `paste`; lines
that ranks sharing one stdout glued together: `glued`, and the exception line two of them
printed at once: `twinned`. A job log with no error line is read at
its end: `refusal` (plain-words refusal),
`pending` (an announced step), `cut_traceback` (frames with no exception line). Whole-file
parsers for small structured files:
`npu_smi`, `env`, `versions` (via `structured`). Shared pieces: `timestamps`, `codes`,
`severity` (error/warning/noise and the prefilter knowledge), `blockfilter`, `hints`,
`year_less` (times whose file never said the year, placed once the bundle is read),
`bare_stamp` (a date and time opening a line no header took).
"""

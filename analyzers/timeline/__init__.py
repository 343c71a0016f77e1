"""The ranks side by side: checkpoint sequences, correlation, divergence, rank status,
serving-framework worker ranks and npu-smi device state."""

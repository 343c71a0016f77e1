"""A notebook's traceback header that names a memory error, above the exception line.

IPython and Jupyter open a traceback with the exception's type padded to a column and
`Traceback (most recent call last)` with no colon; the cell's frames follow and the exception
line ends the block. When the type is a memory error the header only names the type of the line
at the bottom, which says which device and how much was asked for, so that line is the first
error; the header is cited only when the paste kept nothing under it
(docs/labelling.md#a-notebook-tracebacks-numbered-source). The excerpt follows the layout of a
notebook run of a model split over two GPUs, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NOTEBOOK_CELL = """\
---------------------------------------------------------------------------
OutOfMemoryError                          Traceback (most recent call last)
Cell In[12], line 4
      2 model = torch.nn.DataParallel(model, device_ids=[0, 1])
      3 batch = next(iter(loader))
----> 4 out = model(batch["pixel_values"].cuda())

File /opt/conda/lib/python3.10/site-packages/torch/nn/parallel/data_parallel.py:185, in DataParallel.forward(self, *inputs, **kwargs)
    183     return self.module(*inputs[0], **module_kwargs[0])
    184 replicas = self.replicate(self.module, self.device_ids[:len(inputs)])
--> 185 outputs = self.parallel_apply(replicas, inputs, module_kwargs)
    186 return self.gather(outputs, self.output_device)

OutOfMemoryError: CUDA out of memory. Tried to allocate 3.12 GiB. GPU 1 has a total capacity of 15.77 GiB of which 1.94 GiB is free. Of the allocated memory 12.40 GiB is allocated by PyTorch, and 1.02 GiB is reserved by PyTorch but unallocated.
"""


def test_the_exception_line_under_a_notebook_memory_header_is_the_first_error() -> None:
    diagnosis = diagnose_text("cell_output.txt", NOTEBOOK_CELL)
    assert_reads(diagnosis, "oom", first_error="Tried to allocate 3.12 GiB")


def test_a_notebook_memory_header_kept_alone_is_still_the_first_error() -> None:
    cut = NOTEBOOK_CELL.split("\nFile /opt/conda")[0] + "\n"
    diagnosis = diagnose_text("cell_output.txt", cut)
    assert_reads(diagnosis, "oom", first_error="Traceback (most recent call last)")


def test_a_notebook_header_of_another_type_is_not_read_as_memory() -> None:
    text = NOTEBOOK_CELL.replace(
        "OutOfMemoryError                          Traceback",
        "RuntimeError                              Traceback",
    ).replace(
        "OutOfMemoryError: CUDA out of memory. Tried to allocate 3.12 GiB. GPU 1 has a total "
        "capacity of 15.77 GiB of which 1.94 GiB is free. Of the allocated memory 12.40 GiB is "
        "allocated by PyTorch, and 1.02 GiB is reserved by PyTorch but unallocated.",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two "
        "devices, cuda:1 and cpu!",
    )
    diagnosis = diagnose_text("cell_output.txt", text)
    assert diagnosis.category != "oom"
    assert diagnosis.first_error is not None
    assert "Expected all tensors to be on the same device" in diagnosis.first_error.text

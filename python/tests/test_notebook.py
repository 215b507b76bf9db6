"""The example notebook runs from top to bottom without an error (headless, in a fresh kernel)."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat

from conftest import ROOT


def test_example_notebook_runs(tmp_path: Path) -> None:
    notebook = nbformat.read(  # type: ignore[no-untyped-call]
        ROOT / "examples" / "explore.ipynb", as_version=4
    )
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 2
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "value 12 first appears at 479" in printed

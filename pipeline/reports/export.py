"""`repogenesis export`: the published tasks, test cases and their reviews as parquet or jsonl.

Three files (tasks, cases, reviews) plus COLUMNS.md describing every column. They load with
`pandas.read_parquet` / `pandas.read_json(lines=True)` and with
`datasets.load_dataset("parquet", data_files={"tasks": ".../tasks.parquet", ...})`.
Reviews are their own table (one row per reviewer and reviewed case version, every round) so
every score stays a plain integer column whatever reviewers a build used, and the reliability
figures can be recomputed from the files alone.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.reports.tables import (
    CASE_COLUMNS,
    REVIEW_COLUMNS,
    TASK_COLUMNS,
    TYPES,
    cases_table,
    reviews_table,
    tasks_table,
)
from pipeline.stages.publish import raw_tasks
from pipeline.store import Store

FORMATS = ("parquet", "jsonl")


class ExportError(ValueError):
    pass


def export(store: Store, data_dir: Path, out: Path, fmt: str, *, all_cases: bool = False
           ) -> dict[str, int]:
    """Write tasks/cases/reviews in `fmt` and COLUMNS.md into `out`; rows per table."""
    if fmt not in FORMATS:
        raise ExportError(f"--format {fmt!r}: choose parquet or jsonl")
    if out.exists() and not out.is_dir():
        raise ExportError(f"--out {out} is a file; give a folder (created if missing)")
    tasks = raw_tasks(data_dir)
    tables = {"tasks": tasks_table(store, tasks)}
    tables["cases"] = cases_table(store, tasks, all_cases=all_cases)
    tables["reviews"] = reviews_table(store, tasks)
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        if fmt == "parquet":
            pq.write_table(arrow_table(frame, TYPES[name]), out / f"{name}.parquet")
        else:
            write_jsonl(out / f"{name}.jsonl", frame)
    (out / "COLUMNS.md").write_text(columns_doc(fmt, all_cases), encoding="utf-8")
    return {name: len(frame) for name, frame in tables.items()}


def arrow_table(frame: pd.DataFrame, types: dict[str, str]) -> pa.Table:
    """The frame with each column's declared type (text unless `types` says otherwise)."""
    arrow = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
    schema = pa.schema([(c, arrow[types[c]] if c in types else pa.string())
                        for c in frame.columns])
    return pa.Table.from_pandas(frame, schema=schema, preserve_index=False)


def write_jsonl(path: Path, frame: pd.DataFrame) -> None:
    """One JSON object per row, keys in column order, NaN written as null."""
    with path.open("w", encoding="utf-8") as fh:
        for record in frame.to_dict(orient="records"):
            fh.write(json.dumps({k: _plain(v) for k, v in record.items()},
                                ensure_ascii=False) + "\n")


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalar
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def columns_doc(fmt: str, all_cases: bool) -> str:
    parts = [
        "# Exported tables\n",
        f"Format: {fmt}. `tasks`: one row per published task; `cases`: one row per "
        + ("test case of a published task (latest version, published or not, with its route)"
           if all_cases else "published test case")
        + "; `reviews`: one row per valid review of every reviewed version (every round) of "
        "the published tasks, the rows `repogenesis reliability` computes alpha from.\n",
        "```python\nimport pandas as pd\n"
        + (f"tasks = pd.read_parquet('tasks.{fmt}')\n" if fmt == "parquet"
           else f"tasks = pd.read_json('tasks.{fmt}', lines=True)\n")
        + "from datasets import load_dataset  # one table per call (their columns differ)\n"
        + f"cases = load_dataset('{'parquet' if fmt == 'parquet' else 'json'}', "
        + f"data_files='cases.{fmt}', split='train')\n```\n",
    ]
    for title, cols in (("tasks", TASK_COLUMNS), ("cases", CASE_COLUMNS),
                        ("reviews", REVIEW_COLUMNS)):
        parts.append(f"\n## {title}\n\n| column | meaning |\n|---|---|\n")
        parts += [f"| `{k}` | {v} |\n" for k, v in cols.items()]
    return "".join(parts)

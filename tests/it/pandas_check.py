# Reads the summary sheet of nimsieve's xlsx workbooks with pandas, as a user would, and checks
# it against the JSON summary of the same run. Arguments: stems (without extensions) of runs
# written with -f xlsx,json.
import json
import math
import sys

import numpy as np
import pandas as pd


def same(got, want):
    """A cell read by pandas equals a JSON scalar, of the same kind: null is a missing cell,
    integers stay integers (no float padding), booleans booleans, text text."""
    if want is None:
        return pd.isna(got)
    if isinstance(want, bool):
        return isinstance(got, (bool, np.bool_)) and bool(got) == want
    if isinstance(want, int):
        return isinstance(got, (int, np.integer)) and not isinstance(got, bool) and got == want
    if isinstance(want, float):
        # A fraction (a fit's error) may differ in its last digit between the two writers.
        return isinstance(got, (float, np.floating)) and math.isclose(got, want, rel_tol=1e-12)
    return isinstance(got, str) and got == want


def as_sheet_fields(summary):
    """The summary's fields as the sheet names them: a list of lists is a field `name[k]` for
    each inner list, and an empty list has no rows (`counts_at_powers_of_two` of one position)."""
    fields = {}
    for field, value in summary.items():
        if value == []:
            continue
        if isinstance(value, list) and all(isinstance(v, list) for v in value):
            for k, inner in enumerate(value):
                fields[f"{field}[{k}]"] = inner
        else:
            fields[field] = value
    return fields


def check(stem):
    want = as_sheet_fields(json.load(open(stem + ".json"), object_pairs_hook=dict))
    df = pd.read_excel(stem + ".xlsx", sheet_name="summary")
    assert list(df.columns) == ["field", "key", "value"], list(df.columns)
    assert df.columns.is_unique
    assert df.field.notna().all(), "every row names its field"
    assert set(df.field) == set(want), (set(df.field), set(want))
    for field, value in want.items():
        rows = df[df.field == field]
        if isinstance(value, list):
            # One row an element, keyed by its index (integers; floats when no key is text).
            assert len(rows) == len(value), (field, len(rows), len(value))
            assert (rows.key.astype(float) == np.arange(len(value))).all(), (field, rows.key)
            bad = [(k, got, w) for k, got, w in zip(rows.key, rows.value, value) if not same(got, w)]
            assert not bad, (field, bad[:5])
        elif field == "period" or isinstance(value, dict):
            # An object a row an entry (the period's three always, without values when no
            # period is proven; the provenance; the growth of the P-position count).
            entries = value or {"preperiod": None, "period": None, "saltus": None}
            assert list(rows.key) == list(entries), (field, list(rows.key))
            for got, w in zip(rows.value, entries.values()):
                assert same(got, w), (field, got, w)
        else:
            assert len(rows) == 1, (field, rows)
            assert pd.isna(rows.key.iloc[0]), (field, rows.key.iloc[0])
            assert same(rows.value.iloc[0], value), (field, rows.value.iloc[0], value)


for stem in sys.argv[1:]:
    check(stem)
print("pandas check passed:", len(sys.argv) - 1, "summaries")

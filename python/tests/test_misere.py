"""nimsieve.misere: the report of `nimsieve misere -f json`, as a dict."""

from __future__ import annotations

import json

import pytest

import nimsieve
from conftest import Cli


def test_misere_is_the_command_lines_json(cli: Cli) -> None:
    report = nimsieve.misere("kayles", 1000)
    assert report == json.loads(cli.ok("misere", "kayles", "-n", "1000", "-f", "json"))
    assert report["size"] == 40 and report["period"] == {"preperiod": 71, "period": 12, "proven": True}
    assert nimsieve.misere("sub:1,3,4+misere", "2^6")["tame"]


def test_misere_errors_read_as_on_the_cli(cli: Cli) -> None:
    for game, n, limit in [("kayles", "0", "1000"), ("kayles", "100", "10"), ("wythoff", "10", "1000")]:
        with pytest.raises(ValueError) as raised:
            nimsieve.misere(game, n, max_size=limit)
        assert str(raised.value) == cli.error("misere", game, "-n", n, "--max-size", limit)

"""Tool arguments as models send them."""

import pytest
from pydantic import ValidationError

from webferret.mcp_tools import WebSearchArgs


def test_engines_as_a_list_or_a_comma_string() -> None:
    assert WebSearchArgs(query="q", engines=["searxng"]).engines == ["searxng"]
    assert WebSearchArgs.model_validate({"query": "q", "engines": "searxng, github"}).engines == [
        "searxng",
        "github",
    ]
    with pytest.raises(ValidationError):
        WebSearchArgs.model_validate({"query": "q", "engines": 3})

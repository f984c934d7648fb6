"""Content: typed models over YAML files, validated on load, every problem reported at once."""

from kassen.content.layers import Origin, deep_merge, yaml_sources
from kassen.content.yamlio import (
    HouseDefault,
    StrictModel,
    line_of,
    load_model,
    load_package_model,
    parse_yaml,
    validation_issues,
)

__all__ = [
    "HouseDefault",
    "Origin",
    "StrictModel",
    "deep_merge",
    "line_of",
    "load_model",
    "load_package_model",
    "parse_yaml",
    "validation_issues",
    "yaml_sources",
]

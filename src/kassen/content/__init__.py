"""Content: typed models over YAML files, validated on load, every problem reported at once."""

from kassen.content.yamlio import HouseDefault, StrictModel, load_model, load_package_model

__all__ = ["HouseDefault", "StrictModel", "load_model", "load_package_model"]

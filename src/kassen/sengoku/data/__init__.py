"""Bundled Sengoku data (YAML), loaded and validated by the ruleset's typed models."""

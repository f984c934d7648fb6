"""Bundled arena bout scenarios (YAML)."""

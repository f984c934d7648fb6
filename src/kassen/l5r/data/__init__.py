"""Bundled roll-and-keep data (YAML): CORE house defaults, called shots, special attacks, duels."""

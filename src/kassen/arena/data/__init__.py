"""Bundled arena data (YAML): checks, damage, hit locations, falling and knockback, injury, match."""

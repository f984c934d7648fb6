"""Tests of the Sengoku ruleset (seeds 000 and 002)."""

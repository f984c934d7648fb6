"""Tests of the shared content loader and the Sengoku catalog as content."""

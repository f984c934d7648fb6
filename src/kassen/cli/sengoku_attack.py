"""Sengoku CLI commands (registered on ``kassen.cli.sengoku.sengoku_app``)."""

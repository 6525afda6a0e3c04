"""Pipeline stages, one package per stage (issue 12 layout)."""

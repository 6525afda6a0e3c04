"""The turn's stages, one package each (see docs/internals.md)."""

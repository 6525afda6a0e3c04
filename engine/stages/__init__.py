"""The turn's stages, one module (or package, when it has helpers) per stage, each exposing `run`; `engine.pipeline` lists them in order."""

"""The score stage and its helpers."""

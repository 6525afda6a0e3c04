"""Language helpers shared by several stages: mention detection and time expressions."""

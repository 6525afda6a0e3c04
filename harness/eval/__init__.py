"""`kgchat eval ...`: one module per evaluation, each exposing `main(argv, command)`."""

"""`kgchat bench ...`: one module per benchmark, each exposing `main(argv, command)`."""

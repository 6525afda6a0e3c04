"""Everything that measures: benchmark generators, `kgchat eval ...`, `kgchat bench ...`, `kgchat learn`. Library code never imports it."""

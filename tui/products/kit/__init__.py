"""The kit every product is declared with, and the engine that runs what they declare: kinds and their
fields, options and action shapes (`base`, `kind_options`, `declared`, `shapes`, `vocabulary`); reading
lists and objects (`service`, `list_model`, `refresh_plan`); the one write path (`writes`, `outcome`,
`looks`); files, commands and what crosses products (`export`, `commands`, `related`, `search_index`).
The product packages beside it (`tui/products/<product>`) hold only what is their own."""

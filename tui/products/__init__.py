"""Products: one package per product, each with a `manifest` of its views (see `manifest.py`) and
modules of resource kinds, forms and flows that load when a view is first opened."""

"""The widgets the screens are made of."""

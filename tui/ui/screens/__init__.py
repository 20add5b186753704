"""The screens the console shows."""

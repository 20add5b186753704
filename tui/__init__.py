"""cloudtui: a keyboard-driven terminal console for the cloud platform."""

__version__ = "0.1.0"

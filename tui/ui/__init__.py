"""The console's screens, widgets and the app that holds them."""

"""What crosses products: finding any resource the lists hold (`finder`), the palette's commands
(`commands`), watching resources for a change of state (`watch`) and monthly estimates (`costs`)."""

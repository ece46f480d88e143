"""bansha-sim: play many games of a board with policies as players (``bansha simulate``)."""

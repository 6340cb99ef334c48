"""Playback speeds, one table for the page's player (`banditviz_app.player`) and a figure's own controls.

Milliseconds per frame of each speed: the default Watch run has 200 frames, 100 s slow and 4 s fastest; slow to
fastest is 25x apart (a class needs at least 4x). A frame that is not drawn in time is skipped, never slowed down.
"""

SPEEDS = (("slow", 500), ("normal", 150), ("fast", 50), ("fastest", 20))
DEFAULT_SPEED = "normal"

"""How a page plays an animated figure: the speeds, the chart's sizes and Plotly's options, one table for Watch's
player (`banditviz_app.player`), an exported run (`banditviz.export`) and a figure's own controls.

Milliseconds per frame of each speed: the default Watch run has 200 frames, 100 s slow and 4 s fastest; slow to
fastest is 25x apart (a class needs at least 4x). A frame that is not drawn in time is skipped, never slowed down.
"""

SPEEDS = (("slow", 500), ("normal", 150), ("fast", 50), ("fastest", 20))
DEFAULT_SPEED = "normal"

WATCH_HEIGHT = 560  # px: the Watch figure, its playback bar and the explanation fit a 1366x768 screen
WATCH_HEIGHTS = tuple(range(420, WATCH_HEIGHT, 20))  # a shorter screen (or a bar on two rows): the chart shrinks
PRESENT_HEIGHT = 820  # px: presentation mode's figure until the player fits it to the screen, to one of:
PRESENT_HEIGHTS = tuple(range(440, 1001, 40))  # 1280x720 to 2560x1440 (the figure carries a layout for each)

# plotGlPixelRatio 1 (Plotly's default 2 renders WebGL at twice the resolution): a 3-D scene's frames drawn in
# software GL (headless Chromium, many school laptops) twice as fast (measured 3.2-4.3 -> 7.4-8.1 drawn frames/s
# of the default 3-D Watch run at a load average of 7); 2-D charts are SVG and do not use it.
CHART_CONFIG = {"displaylogo": False, "plotGlPixelRatio": 1}

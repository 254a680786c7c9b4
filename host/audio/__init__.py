"""The party's sounds: synthesised cues and music loops, and a mixer that ducks under the voice.

Importing this package starts nothing (no pygame, no thread): ``SoundBoard.start()`` opens the
mixer and renders or loads the sounds on its own thread.
"""

from host.audio.cues import CUES, LOOPS
from host.audio.mixer import SoundBoard

__all__ = ["CUES", "LOOPS", "SoundBoard"]

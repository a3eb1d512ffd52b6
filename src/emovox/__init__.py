"""emovox: expressive, offline text-to-speech.

    from emovox import Engine
    engine = Engine.from_packages()
    audio = engine.synthesize("Hello there.", voice="joe")
"""

from emovox.emotion.model import Emotion
from emovox.engine import Engine
from emovox.errors import EmovoxError, InvalidOptionError, InvalidTextError, ModelAssetError, UnknownVoiceError
from emovox.types import Audio, AudioChunk, SynthesisInfo, VoiceInfo

__all__ = [
    "Audio", "AudioChunk", "Emotion", "EmovoxError", "Engine", "InvalidOptionError", "InvalidTextError",
    "ModelAssetError", "SynthesisInfo", "UnknownVoiceError", "VoiceInfo",
]
__version__ = "0.1.0"

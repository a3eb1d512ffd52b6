"""emovox: expressive, offline text-to-speech.

    import emovox
    engine = emovox.from_packages()
    audio = engine.synthesize("Hello there.", voice="joe")
"""

from emovox.compose import from_packages
from emovox.emotion.model import Emotion
from emovox.engine import Engine
from emovox.errors import EmovoxError, InvalidOptionError, InvalidTextError, ModelAssetError, UnknownVoiceError
from emovox.options import SpeechOptions
from emovox.types import Audio, AudioChunk, SynthesisInfo, VoiceInfo

__all__ = [
    "Audio", "AudioChunk", "Emotion", "EmovoxError", "Engine", "InvalidOptionError", "InvalidTextError",
    "ModelAssetError", "SpeechOptions", "SynthesisInfo", "UnknownVoiceError", "VoiceInfo", "from_packages",
]
__version__ = "0.1.0"

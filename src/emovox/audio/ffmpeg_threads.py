"""FFmpeg on one thread, wherever the project opens a codec or a resampler.

PyAV (18.1.1 and later) gives every codec and every resampling graph a thread per CPU unless
told otherwise. Speech is encoded and decoded in well under a millisecond a chunk, so the
threads buy nothing, and a streaming encoder abandoned by a client that hung up kept its
threads until a garbage collection freed it: a server gathered them (the soak saw 41 grow
to 111)."""

from __future__ import annotations


def single_threaded_resampler(codec_context, **resampler_options):
    """Sets `codec_context` (encoder or decoder, before it opens) to one thread and returns an
    `av.AudioResampler(**resampler_options)` whose graph runs on one thread too."""
    import av

    codec_context.thread_count = 1
    return av.AudioResampler(threads=1, **resampler_options)

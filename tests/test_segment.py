from emovox.frontend import segment
from emovox.frontend.english import EnglishFrontend


def test_sentences_keep_their_punctuation():
    text = "Hello there. How are you? Fine!\nNew paragraph without a stop"
    assert list(segment.sentences(text)) == [
        "Hello there.", "How are you?", "Fine!", "New paragraph without a stop",
    ]


def test_clauses_split_after_commas_and_semicolons():
    assert segment.clauses("One, two; three: four — five") == ["One,", "two;", "three:", "four —", "five"]


def test_pack_respects_the_limit():
    pieces = ["aaa", "bb", "cccc", "d"]
    assert list(segment.pack(pieces, len, 7)) == ["aaa bb", "cccc d"]


def test_long_sentence_is_split_under_the_model_limit_and_never_inside_a_word():
    frontend = EnglishFrontend()
    words = [f"word{i % 10}" for i in range(400)]
    text = " ".join(words[:150]) + ", " + " ".join(words[150:]) + "."
    text = frontend.normalize(text).text
    segments = list(frontend.segments(text, max_phonemes=510))
    assert len(segments) > 2
    assert all(len(s.phonemes) <= 510 for s in segments)
    assert " ".join(s.text for s in segments).split() == text.split()
    assert segments[-1].ends_sentence and not segments[0].ends_sentence


def test_long_first_sentence_is_split_early_for_streaming():
    frontend = EnglishFrontend()
    text = "When the long first sentence finally starts, the listener should hear its first clause quickly."
    first = next(frontend.segments(text, 400, first_segment_chars=40))
    assert first.text == "When the long first sentence finally starts,"


def test_a_single_overlong_token_is_cut_to_fit():
    frontend = EnglishFrontend()
    segments = list(frontend.segments("x" * 2000, max_phonemes=510))
    assert segments and all(len(s.phonemes) <= 510 for s in segments)

from concurrent.futures import ThreadPoolExecutor

from emovox.frontend.g2p.english import Dialect, EnglishG2P


def test_ipa_keeps_punctuation_between_clauses():
    assert EnglishG2P()("Hello there, my friend!") == "həlˈoʊ ðˈɛɹ, maɪ fɹˈɛnd!"


def test_misaki_dialect_folds_diphthongs_affricates_and_flaps():
    phonemes = EnglishG2P()("My child ate the water.", Dialect.MISAKI)
    assert "I" in phonemes and "ʧ" in phonemes and "A" in phonemes and "T" in phonemes
    assert "ː" not in phonemes and "^" not in phonemes


def test_ipa_is_decomposed_for_piper_symbol_tables():
    import unicodedata

    phonemes = EnglishG2P()("Nasal vowels in croissant and résumé.")
    assert phonemes == unicodedata.normalize("NFD", phonemes)


def test_concurrent_calls_give_the_same_result_as_serial_ones():
    g2p = EnglishG2P()
    texts = [f"Sentence number {i} is about thirty cats." for i in range(40)]
    serial = [g2p(t, Dialect.MISAKI) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda t: g2p(t, Dialect.MISAKI), texts))
    assert parallel == serial

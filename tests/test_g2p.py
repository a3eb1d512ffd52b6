from concurrent.futures import ThreadPoolExecutor

import pytest

from emovox.frontend.g2p.english import EnglishG2P

pytestmark = pytest.mark.paired

VARIED = ("The quick brown fox jumps over the lazy dog; a judge's church, with measure, "
          "thought and rhythm! Why? Boys enjoy the zoo, singing ten thousand unusual songs.")


def test_ipa_keeps_punctuation_between_clauses():
    assert EnglishG2P()("Hello there, my friend!") == "həlˈoʊ ðˈɛɹ, maɪ fɹˈɛnd!"


def test_language_switch_markers_are_not_left_in_the_phonemes():
    assert "(" not in EnglishG2P()("A croissant at the café in Zürich.")


def test_the_teens_are_stressed_on_teen_so_they_are_not_heard_as_the_tens():
    phonemes = EnglishG2P()("At eight fifteen on March fourteenth, thirteen, not thirty, and the nineteens.")
    assert "fˌɪftˈiːn" in phonemes and "fˌɔːɹtˈiːnθ" in phonemes and "nˌaɪntˈiːnz" in phonemes
    assert "θˌɜːtˈiːn" in phonemes and "θˈɜːɾi" in phonemes  # thirty keeps its own stress
    assert "nˈɪkətˌiːn" in EnglishG2P()("nicotine")  # only the numbers


def test_and_keeps_its_vowel_so_it_is_not_heard_as_in():
    assert EnglishG2P()("Bread and butter, sand and sandals.") == "bɹˈɛd ˌænd bˈʌɾɚ, sˈænd ˌænd sˈændəlz."


def test_this_keeps_its_vowel_so_it_is_not_heard_as_the():
    assert EnglishG2P()("Accept this license, or this.") == "ɐksˈɛpt ðˌɪs lˈaɪsəns, ɔːɹ ðˈɪs."


def test_an_initialism_is_spelled_in_a_short_clause_as_in_a_long_one():
    # espeak-ng read these as words where the clause had few lowercase letters ("ˈɛpə", "tˈɑː")
    g2p = EnglishG2P()
    assert g2p("The EPA, the PTA, she said.") == "ðɪ ˌiːpˌiːˈeɪ, ðə pˌiːtˌiːˈeɪ, ʃiː sˈɛd."
    assert g2p("A TSA,") == "ɐ tˌiːˌɛsˈeɪ,"
    assert g2p("She called the EPA and the PTA.") == "ʃiː kˈɔːld ðɪ ˌiːpˌiːˈeɪ ˌænd ðə pˌiːtˌiːˈeɪ."


def test_a_name_espeak_reads_by_rule_wrongly_is_read_as_the_pronouncing_dictionary_lists_it():
    g2p = EnglishG2P()
    assert g2p("Doctor Kowalski met Moreau.") == "dˈɑːktɚ kəwˈɑːlski mˈɛt mɚˈoʊ."  # by rule: kaʊˈɔlski, mˈɔːɹaʊ
    assert g2p("Kowalski's son, at Dubois's.") == "kəwˈɑːlskiz sˈʌn, æt duːbˈɔɪsɪz."
    assert g2p("We met an Abernathy.") == "wiː mˈɛt ɐn ˈæbɚnˌæθi."  # the article as read in a sentence


def test_the_native_voice_reads_those_names_from_the_dictionary_too():
    from emovox.frontend.g2p.misaki import MisakiG2P

    # neither of hibari's lexicons holds them; its network for unknown words reads as espeak does
    assert MisakiG2P()("Doctor Kowalski's son.") == "dˈɑktəɹ kəwˈɑlskiz sˈʌn."
    assert MisakiG2P(names=False)("Doctor Kowalski's son.") == "dˈɑktəɹ kWˈɔlskiz sˈʌn."


def test_names_espeak_knows_or_reads_as_listed_and_common_words_stay_espeaks():
    # "Garcia" is in espeak's dictionary; "Mendez" is listed both ways, espeak's among them;
    # "February" is read by rule and listed otherwise, but it is a common word
    text = "Garcia, Mendez and February."
    assert EnglishG2P()(text) == EnglishG2P(names=False)(text)


def test_espeak_reports_the_words_its_dictionary_holds():
    from emovox.frontend.g2p.espeak import Espeak

    assert Espeak.shared().known_words("Garcia met Kowalski at the Winnipeg office.") >= {"garcia", "the", "winnipeg"}
    assert "kowalski" not in Espeak.shared().known_words("Kowalski")


def test_cmu_pronunciations_are_written_as_espeak_writes_ipa():
    from emovox.frontend.g2p.names import arpabet_to_ipa, misread

    assert arpabet_to_ipa("K AH0 W AA1 L S K IY0".split()) == "kəwˈɑːlski"
    assert arpabet_to_ipa("TH IH1 B AH0 D OW0".split()) == "θˈɪbədoʊ"
    assert not misread("ˈæŋkɚɹɪdʒ", "ˈæŋkɚədʒ")  # espeak's linking ɹ, the same consonants
    assert misread("mˈɔːɹaʊ", "mɚˈoʊ")  # another syllable stressed
    assert misread("dˈoʊmɪŋz", "dəmˈɪŋɪz")  # a consonant lost


def test_capitals_that_are_words_stay_words():
    assert EnglishG2P()("NO, the WHO.") == "nˈoʊ, ðə hˈuː."


@pytest.mark.parametrize("voice", ["joe", "jf_alpha"])
def test_every_phoneme_of_varied_english_is_in_the_model_symbol_table(engine, voice):
    from emovox.frontend.g2p.names import _CONSONANTS, _UNSTRESSED, _VOWELS

    phonemes = EnglishG2P()(VARIED) + " " + "".join([*_VOWELS.values(), *_UNSTRESSED.values(), *_CONSONANTS.values()])
    encoded = engine.backend_of(voice).encode(phonemes)
    assert encoded.dropped == () and len(encoded.ids) >= len(phonemes)


def test_unknown_symbols_are_dropped_and_reported(engine):
    encoded = engine.backend_of("jf_alpha").encode("hɛlˈoʊ ǂ")
    assert encoded.dropped == ("ǂ",)


def test_a_mark_the_model_reads_without_is_dropped_unreported():
    from emovox.backends.symbols import SymbolTable

    ids = {"b": 1, "ˈ": 2, "ʌ": 3, "ʔ": 4, "n": 5}
    button = "bˈʌʔn\u0329"  # espeak's syllabic n
    quiet = SymbolTable.from_single_ids(ids, unmarked=frozenset({"\u0329"})).lookup(button)
    assert (quiet.ids, quiet.dropped) == ([1, 2, 3, 4, 5], ())
    assert SymbolTable.from_single_ids(ids).lookup(button).dropped == ("\u0329",)


def test_concurrent_calls_give_the_same_result_as_serial_ones():
    g2p = EnglishG2P()
    texts = [f"Sentence number {i} is about thirty cats." for i in range(40)]
    serial = [g2p(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(g2p, texts))
    assert parallel == serial


@pytest.mark.parametrize("text", ["Plan A is fine.", "The Q and A session.", "A Type A person.", "We need vitamin A.",
                                  "Is it A or B?", "A T and T"])
def test_a_capital_a_after_a_word_is_the_letter_not_the_article(text):
    assert "ˈeɪ" in EnglishG2P()(text)


@pytest.mark.parametrize("text", ["A dog barked.", "Read A Tale of Two Cities.", '"A dog," she said.'])
def test_the_article_a_is_still_the_article(text):
    assert EnglishG2P()(text).lstrip('"').startswith("ɹˈiːd ɐ" if text.startswith("Read") else "ɐ")


def test_initials_with_a_keep_their_periods():
    from emovox.frontend.g2p.letter_a import marked

    assert marked("between three hundred B.C. and A.D. fifteen hundred, at A.M. time") == \
        "between three hundred B.C. and A.D. fifteen hundred, at A.M. time"

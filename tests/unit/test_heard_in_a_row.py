"""Two words said apart are one label word ("Black Hat" for the film Blackhat) unless a label
says those two words in a row: then they are that label's words."""

from engine.nlp.mentions import LabelIndex, detect_names
from kgstore.terms import LabelEntry


def linked(text: str, index: LabelIndex) -> list[tuple[str, str]]:
    return [(m.text, m.candidates[0][0]) for m in detect_names(text, index)]


def test_a_title_holding_two_words_of_another_title_said_as_one_is_heard_whole():
    index = LabelIndex([LabelEntry("Fear", "f:fear"), LabelEntry("Fear of a Black Hat", "f:fear_hat"),
                        LabelEntry("Blackhat", "f:blackhat")])
    assert linked("which films have the same actor of Fear of a Black Hat", index) == [
        ("Fear of a Black Hat", "f:fear_hat")]


def test_two_words_no_label_says_in_a_row_still_say_the_one_word():
    index = LabelIndex([LabelEntry("Fear", "f:fear"), LabelEntry("Blackhat", "f:blackhat")])
    assert linked("who starred in Black Hat", index) == [("Black Hat", "f:blackhat")]

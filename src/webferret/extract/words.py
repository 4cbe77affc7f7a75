"""How many words a page's text holds: one count for every kind of document (HTML, PDF, text, Reddit).

Chinese and Japanese are written without spaces between words, so splitting on whitespace would call
a whole paragraph one word (a Japanese article of 700 characters counted 18 "words", and was then
taken for an empty JavaScript shell). Each ideograph or kana character counts as a word there, as word
processors count them. Thai, Lao, Khmer and Myanmar are written without spaces between words too, but
their words are several characters long: a run of them counts one word per `SEA_CHARS_PER_WORD`
characters (a Thai word of running text is 4.1 characters long, marks included, in the Thai National
Corpus's 33 million word frequencies; 3.9 in the Thai Textbook Corpus; the other three scripts get the
same estimate, unmeasured). Every other script counts whitespace-separated tokens that hold a letter or
digit (Markdown marks such as `#`, `|` and `-` are not words, nor are link targets).
"""

from __future__ import annotations

import re

CJK_CHARS = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs (extension A, unified, compatibility)
    "\uff66-\uff9f"  # half-width katakana
    "\U00020000-\U0003134f"  # CJK ideographs, extensions B to G
)
"""Characters written without spaces between words, each one a word (for a regular expression's
`[...]`; the page store indexes each as a term of its own too, `store.terms`)."""
# one match per CJK character, else per token from its first letter or digit to the next space or
# CJK character ("iPhoneを" is two words)
_WORD = re.compile(rf"[{CJK_CHARS}]|[^\W_{CJK_CHARS}][^\s{CJK_CHARS}]*")
# a Markdown link's target, `](...)`: its URL holds no words
LINK_TARGET = re.compile(r"\]\([^)]*\)")
_SEA_RUN = re.compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]+")  # Thai, Lao, Myanmar, Khmer
SEA_CHARS_PER_WORD = 4


def count_words(text: str) -> int:
    """Words of rendered text (Markdown or plain)."""
    text = LINK_TARGET.sub("]", text)
    runs = _SEA_RUN.findall(text)
    if not runs:
        return len(_WORD.findall(text))
    spaced = len(_WORD.findall(_SEA_RUN.sub(" ", text)))
    return spaced + sum(-(-len(run) // SEA_CHARS_PER_WORD) for run in runs)

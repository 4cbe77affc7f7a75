"""How many words a page's text holds: one count for every kind of document (HTML, PDF, text, Reddit).

Chinese and Japanese are written without spaces between words, so splitting on whitespace would call
a whole paragraph one word (a Japanese article of 700 characters counted 18 "words", and was then
taken for an empty JavaScript shell). Each ideograph or kana character counts as a word there, as word
processors count them; every other script counts whitespace-separated tokens that hold a letter or
digit (Markdown marks such as `#`, `|` and `-` are not words, nor are link targets).
"""

from __future__ import annotations

import re

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs (extension A, unified, compatibility)
    "\uff66-\uff9f"  # half-width katakana
    "\U00020000-\U0003134f"  # CJK ideographs, extensions B to G
)
# one match per CJK character, else per token from its first letter or digit to the next space or
# CJK character ("iPhoneを" is two words)
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}][^\s{_CJK}]*")
# a Markdown link's target, `](...)`: its URL holds no words
LINK_TARGET = re.compile(r"\]\([^)]*\)")


def count_words(text: str) -> int:
    """Words of rendered text (Markdown or plain)."""
    return len(_WORD.findall(LINK_TARGET.sub("]", text)))

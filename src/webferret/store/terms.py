"""The words of a passage as the FTS5 index makes them, and the text it reads to make them.

Chinese and Japanese are written without spaces, and the tokenizer (`schema.FTS_TOKENIZER`) makes a
run of letters one term: a word inside a sentence would never be found. So the index reads each
passage with every Han, Hiragana or Katakana character set apart by spaces (`indexed_text`, kept in
the `terms` column of `chunks` where it differs from the text), one term each, and a query's word
holding such characters is a phrase of its pieces (`phrase_of`), which FTS5 matches as consecutive
terms. Other scripts (Hangul is written with spaces) are read as they are.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata

from webferret.extract.words import CJK_CHARS

_CJK = re.compile(f"[{CJK_CHARS}]")
TERMS_FLAG = "chunk_terms"
"""The `meta` key a store made before schema 7 has as '0' until `index_old_chunks` ran."""
_WORD = re.compile(r"[^\W_]+")
_BATCH = 1000


def indexed_text(text: str) -> str | None:
    """`text` as the index reads it: each Han or kana character, with the marks that follow it (a
    voicing mark, a variation selector), between spaces; None when that is `text` itself."""
    if not _CJK.search(text):
        return None
    out: list[str] = []
    apart = False  # the last character was a CJK one or one of its marks
    for char in text:
        if _CJK.match(char):
            out.append(" ")
            apart = True
        elif apart and unicodedata.category(char)[0] != "M":
            out.append(" ")
            apart = False
        out.append(char)
    return "".join(out)


def word_count(read: str) -> int:
    """The words of a passage (its length for BM25) in the text the index reads of it, each Han or
    kana character one."""
    return len(_WORD.findall(read))


def terms_of(text: str) -> list[str]:
    """The words of `text` as the FTS5 tokenizer (`schema.FTS_TOKENIZER`) makes them of its
    `indexed_text`: runs of letters, numbers and marks, each Han or kana character one, lower case, a
    Latin letter without its diacritics (a Thai vowel sign, a kana's voicing mark, Arabic vowel marks
    and a Greek accent stay, as the tokenizer keeps them)."""
    return words_of(indexed_text(text) or text, folded=True)


def phrase_of(word: str) -> str:
    """A query's `word` as the index has it: its Han and kana characters apart (`机器学习` is
    `机 器 学 习`, a phrase FTS5 matches as consecutive terms); any other word as it is."""
    return " ".join((indexed_text(word) or word).split())


def words_of(text: str, *, folded: bool) -> list[str]:
    """Runs of letters, numbers and marks of `text`; `folded`: lower case, a Latin letter without its
    diacritics (as the tokenizer makes them), else as written."""
    words, word = [], []
    for char in unicodedata.normalize("NFD", text.lower() if folded else text):
        category = unicodedata.category(char)
        if folded and category == "Mn" and word and _is_latin(word[-1]):
            continue  # a Latin letter's diacritic
        if category[0] in "LNM" or category == "Co":
            word.append(char)
        elif word:
            words.append(unicodedata.normalize("NFC", "".join(word)))
            word = []
    if word:
        words.append(unicodedata.normalize("NFC", "".join(word)))
    return words


def _is_latin(char: str) -> bool:
    return char.isascii() or unicodedata.name(char, "").startswith("LATIN")


def needs_old_chunks_indexed(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (TERMS_FLAG,)).fetchone()
    return bool(row and row[0] == "0")


def index_old_chunks(conn: sqlite3.Connection) -> None:
    """Give the passages a store kept before schema 7 their `terms` and word counts (in a write
    transaction, once: the flag is set in the same transaction)."""
    if not needs_old_chunks_indexed(conn):
        return
    last = 0
    while rows := conn.execute(
        "SELECT id, text FROM chunks WHERE id > ? ORDER BY id LIMIT ?", (last, _BATCH)
    ).fetchall():
        last = rows[-1][0]
        changed = [(terms, word_count(terms), id_) for id_, text in rows if (terms := indexed_text(text))]
        conn.executemany("UPDATE chunks SET terms = ?, words = ? WHERE id = ?", changed)
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (TERMS_FLAG,))

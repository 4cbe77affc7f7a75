"""Passages: documents cut into small chunks, indexed with FTS5 (BM25), with a plain-SQL fallback.

Only the newest version of each handle has chunks. With FTS5 the `chunks_fts` external-content index
is kept in step with `chunks` in the same transaction. Without FTS5 (or when forced off) a search
scans chunks with LIKE and ranks them with the same BM25 formula in Python, so both paths answer the
same shapes. Chunks written without FTS5 mark the index stale; the next FTS5 session rebuilds it.
An index SQLite finds damaged (`DamagedIndex`) is rebuilt from the chunks, which it only indexes.
The index reads a chunk as `terms.indexed_text` makes it (Chinese and Japanese characters one word
each), and a query's word of such characters is a phrase of them.
"""

from __future__ import annotations

import json
import math
import sqlite3
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from webferret.present.paging import paginate
from webferret.store.schema import FTS_ARGUMENTS, FTS_TABLE, read_text
from webferret.store.terms import (
    index_old_chunks,
    indexed_text,
    needs_old_chunks_indexed,
    phrase_of,
    terms_of,
    word_count,
    words_of,
)
from webferret.tokens import estimate_tokens

PASSAGE_TOKENS = 160
MAX_TERMS = 32
"""Most words of a query matched: with FTS5 the rarest of those the passages hold (a long question's
key word is often its last), else the first."""
LOOKED_UP = 500
"""Most distinct words of a query whose passages are counted, to choose the `MAX_TERMS` matched."""
SELECTIVE = 4000
SCORED_CAP = 10000
VOCAB_TABLE = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, chunks_fts, row)"
K1, B = 1.2, 0.75


@dataclass(frozen=True)
class Hit:
    """One ranked chunk, before it becomes a `Passage`."""

    chunk_id: int
    page_no: int
    text: str
    handle: str
    url: str
    title: str | None
    score: float


def chunks_for(content: str, page_tokens: int) -> list[tuple[int, str]]:
    """(page number, chunk text) for every passage of `content`, pages cut at `page_tokens`."""
    out: list[tuple[int, str]] = []
    for number, page in enumerate(paginate(content, page_tokens), start=1):
        for piece in paginate(page, PASSAGE_TOKENS):
            out.extend((number, part) for part in _lines_of(piece.strip()) if part)
    return out


def page_ends(content: str, page_tokens: int) -> list[int]:
    """Where each page of `content` (at `page_tokens`) ends, as an offset."""
    return list(accumulate(len(page) for page in paginate(content, page_tokens)))


def page_of(content: str, text: str, ends: Sequence[int]) -> int | None:
    """The page (of `page_ends`) on which passage `text` of `content` starts, or None if it is not
    found there as it is."""
    at = content.find(text)
    return None if at < 0 else bisect_right(ends, at) + 1


def _lines_of(piece: str) -> list[str]:
    """`piece`, or when it is far over a passage (a code block or a table, which pages never cut),
    its lines in runs of about a passage each: one passage of a 2,000-line listing would be a whole
    context's worth of a `find` answer."""
    if estimate_tokens(piece) <= 2 * PASSAGE_TOKENS:
        return [piece]
    runs, run, size = [], [], 0
    for line in piece.splitlines():
        cost = estimate_tokens(line) + 1
        if run and size + cost > PASSAGE_TOKENS:
            runs.append("\n".join(run).strip())
            run, size = [], 0
        run.append(line)
        size += cost
    runs.append("\n".join(run).strip())
    return runs


def query_terms(query: str) -> list[str]:
    """The words of a user query (`terms_of`), deduplicated; FTS5 syntax in it is just text. A word
    of Chinese or Japanese characters is a phrase of them (`phrase_of`): its terms one after another."""
    words = words_of(query, folded=True)
    return list(dict.fromkeys(phrase_of(word) for word in words))[:LOOKED_UP]


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 MATCH string with every term (or phrase) quoted as a string (any of them may match)."""
    return " OR ".join(_quoted(terms))


class DamagedIndex(Exception):
    """The FTS5 index cannot be read (`damaged_index`): `PassageIndex.rebuild` makes it again from
    the chunks, where the passages themselves are kept."""


def damaged_index(exc: sqlite3.DatabaseError) -> bool:
    """Did SQLite find the FTS5 index damaged (SQLITE_CORRUPT_VTAB: a virtual table's data is,
    not the tables of pages and chunks it indexes)? An error Python raised has no code (a column's
    text that is no UTF-8, a store's own `UnusableStore`)."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_CORRUPT_VTAB


class PassageIndex:
    """Chunk maintenance and passage search on one connection (the caller holds the transaction)."""

    def __init__(self, use_fts: bool) -> None:
        self.use_fts = use_fts

    @property
    def mode(self) -> str:
        return "fts5" if self.use_fts else "fallback"

    def ensure(self, conn: sqlite3.Connection) -> None:
        """Create the FTS table when FTS5 is in use and rebuild it when a fallback session wrote chunks."""
        index_old_chunks(conn)
        if not self.use_fts:
            return
        existed = _has_fts_table(conn)
        if existed and not _fts_current(conn):  # made by an older webferret: its words were cut at
            # marks, or a Chinese or Japanese sentence was one word
            conn.execute("DROP TABLE chunks_fts")
            existed = False
        conn.execute(FTS_TABLE)
        stale = conn.execute("SELECT value FROM meta WHERE key = 'fts_stale'").fetchone()
        has_chunks = conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None
        if (stale and stale[0] == "1") or (not existed and has_chunks):
            self.rebuild(conn)

    def needs_setup(self, conn: sqlite3.Connection) -> bool:
        """Must `ensure` run (FTS table missing, or stale)? Read-only, so opening stays cheap."""
        return needs_old_chunks_indexed(conn) or (
            self.use_fts and (not _fts_current(conn) or self.needs_rebuild(conn))
        )

    def rebuild(self, conn: sqlite3.Connection) -> None:
        """Index every chunk again (the FTS index was found damaged, or stale)."""
        conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_stale', '0')")

    def needs_rebuild(self, conn: sqlite3.Connection) -> bool:
        if not self.use_fts:
            return False
        stale = conn.execute("SELECT value FROM meta WHERE key = 'fts_stale'").fetchone()
        return bool(stale and stale[0] == "1")

    def add(self, conn: sqlite3.Connection, page_id: int, chunks: Sequence[tuple[int, str]]) -> None:
        for page_no, text in chunks:
            terms = indexed_text(text)
            cur = conn.execute(
                "INSERT INTO chunks (page_id, page_no, words, text, terms) VALUES (?, ?, ?, ?, ?)",
                (page_id, page_no, word_count(terms or text), text, terms),
            )
            if self.use_fts:
                conn.execute(
                    "INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)", (cur.lastrowid, terms or text)
                )
        self._mark_stale(conn)

    def remove(self, conn: sqlite3.Connection, where: str, params: Sequence[object]) -> None:
        """Delete the chunks of the pages selected by `SELECT id FROM pages WHERE <where>`."""
        chosen = f"page_id IN (SELECT id FROM pages WHERE {where})"
        if self.use_fts:
            conn.execute(
                "INSERT INTO chunks_fts (chunks_fts, rowid, text) "
                f"SELECT 'delete', id, coalesce(terms, text) FROM chunks WHERE {chosen}",
                params,
            )
        conn.execute(f"DELETE FROM chunks WHERE {chosen}", params)
        self._mark_stale(conn)

    def clear(self, conn: sqlite3.Connection) -> None:
        if self.use_fts:
            conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all')")
        conn.execute("DELETE FROM chunks")

    def optimize(self, conn: sqlite3.Connection) -> None:
        """Merge the FTS index into one segment: a removed chunk leaves a delete marker in it (its
        words stay on disk, and a prune made the index larger) until the segments holding it merge."""
        if self.use_fts and _has_fts_table(conn):
            conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')")

    def _mark_stale(self, conn: sqlite3.Connection) -> None:
        if not self.use_fts and _has_fts_table(conn):
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_stale', '1')")

    # -- search ---------------------------------------------------------------------------------
    def search(
        self, conn: sqlite3.Connection, query: str, handles: Sequence[str] | None, n: int
    ) -> list[Hit]:
        terms = query_terms(query)
        if not terms or n <= 0:
            return []
        if self.use_fts:
            try:
                return _fts_search(conn, terms, handles, n)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise
            except sqlite3.DatabaseError as exc:
                if damaged_index(exc):  # raised past the store's naming of failures: `PageStore` mends it
                    raise DamagedIndex(str(exc)) from exc
                raise
        return _scan_search(conn, terms[:MAX_TERMS], handles, n, query)


def _has_fts_table(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'chunks_fts'").fetchone()
    return row is not None


def _fts_current(conn: sqlite3.Connection) -> bool:
    """Is there an FTS table, made with this webferret's tokenizer, reading what it reads?"""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks_fts'").fetchone()
    return row is not None and FTS_ARGUMENTS in row[0]


def _handle_filter(handles: Sequence[str] | None) -> tuple[str, list[object]]:
    """A filter on the FTS5 rowid (the chunk id) keeping the chunks of the given handles. The `+`
    keeps it from FTS5, which would run the query once per chunk id (a minute for one site's 625
    pages in a store of 5,000): the query runs once and its matches are checked against the list."""
    if not handles:
        return "", []
    among, params = handles_in("p.handle", handles)
    chosen = f"SELECT c.id FROM chunks c JOIN pages p ON p.id = c.page_id WHERE {among}"
    return f" AND +rowid IN ({chosen})", params


LISTED_HANDLES = 500
"""Handles a statement names one parameter each (`handles_in`); more go as one JSON array."""


def handles_in(column: str, handles: Sequence[str]) -> tuple[str, list[object]]:
    """`column IN (...)` the `handles`, and its parameters: one each for a few; past `LISTED_HANDLES`
    (a site's pages, `find --site`) one JSON array read by `json_each`, as SQLite caps a statement's
    parameters (32,766 in many builds, 250,000 in others): a site with more stored pages was an
    error ("too many SQL variables")."""
    if len(handles) <= LISTED_HANDLES:
        return f"{column} IN ({', '.join('?' for _ in handles)})", list(handles)
    return f"{column} IN (SELECT value FROM json_each(?))", [json.dumps(list(handles))]


def _fts_search(
    conn: sqlite3.Connection, terms: Sequence[str], handles: Sequence[str] | None, n: int
) -> list[Hit]:
    """BM25 over FTS5. Terms in more than `SELECTIVE` passages weigh next to nothing in BM25 but cost
    a score for each passage they are in, so when rarer terms are present only those are matched;
    a query of common words alone asks for all of them, then any of them, scoring at most
    `SCORED_CAP` passages."""
    counts = _document_counts(conn, terms)
    rarest = set(sorted((term for term in terms if counts.get(term)), key=counts.__getitem__)[:MAX_TERMS])
    present = [term for term in terms if term in rarest]
    selective = [term for term in present if counts[term] <= SELECTIVE]
    if not present:
        return []
    if selective:
        return _fts_query(conn, " OR ".join(_quoted(selective)), handles, n)
    hits = _fts_query(conn, " AND ".join(_quoted(present)), handles, n)
    if len(hits) < n and len(present) > 1:
        seen = {hit.chunk_id for hit in hits}
        more = _fts_query(conn, " OR ".join(_quoted(present)), handles, n)
        hits += [hit for hit in more if hit.chunk_id not in seen][: n - len(hits)]
    return hits


def _quoted(terms: Sequence[str]) -> list[str]:
    return ['"' + term.replace('"', '""') + '"' for term in terms]


def _document_counts(conn: sqlite3.Connection, terms: Sequence[str]) -> dict[str, int]:
    """How many passages hold each term (from the FTS5 vocabulary, without reading passages), and
    each phrase (`_phrase_count`)."""
    conn.execute(VOCAB_TABLE)
    words = list(dict.fromkeys(word for term in terms for word in term.split(" ")))
    marks = ", ".join("?" for _ in words)
    rows = conn.execute(f"SELECT term, doc FROM temp.chunks_vocab WHERE term IN ({marks})", words)
    counts = dict(rows.fetchall())
    for phrase in (term for term in terms if " " in term):
        counts[phrase] = _phrase_count(conn, phrase, counts)
    return counts


def _phrase_count(conn: sqlite3.Connection, phrase: str, counts: dict[str, int]) -> int:
    """How many passages hold `phrase`, counted up to `SELECTIVE` (a phrase of common characters,
    `学习`, may be rare): past it, the count of its rarest word."""
    most = min(counts.get(word, 0) for word in phrase.split(" "))
    if not most:
        return 0
    found = conn.execute(
        "SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)",
        (match_expression([phrase]), SELECTIVE + 1),
    ).fetchone()[0]
    return found if found <= SELECTIVE else most


def _fts_query(conn: sqlite3.Connection, expression: str, handles: Sequence[str] | None, n: int) -> list[Hit]:
    where, params = _handle_filter(handles)
    rows = conn.execute(
        "SELECT c.id, c.page_no, CAST(c.text AS BLOB), p.handle, coalesce(p.final_url, p.url), "
        "CAST(p.title AS BLOB), m.rank FROM ("
        "  SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ?"
        f"{where} LIMIT {SCORED_CAP}"
        ") AS m JOIN chunks c ON c.id = m.id JOIN pages p ON p.id = c.page_id ORDER BY m.rank LIMIT ?",
        [expression, *params, n],
    ).fetchall()
    return [Hit(*row[:2], _text(row[2]), *row[3:5], read_text(row[5]), round(-row[6], 6)) for row in rows]


def _text(value: object) -> str:
    """A passage's text (`schema.read_text`: damaged bytes read as U+FFFD)."""
    return read_text(value) or ""


def _scan_search(
    conn: sqlite3.Connection, terms: Sequence[str], handles: Sequence[str] | None, n: int, asked: str = ""
) -> list[Hit]:
    """BM25 without FTS5: LIKE finds candidate chunks, Python counts terms and scores them."""
    where, params = "", []
    if handles:
        among, params = handles_in("p.handle", handles)
        where = f" AND {among}"
    patterns = _like_patterns(terms, asked)
    likes = " OR ".join("c.text LIKE ? ESCAPE '\\'" for _ in patterns)
    rows = conn.execute(
        "SELECT c.id, c.page_no, CAST(c.text AS BLOB), p.handle, coalesce(p.final_url, p.url), "
        "CAST(p.title AS BLOB), c.words "
        f"FROM chunks c JOIN pages p ON p.id = c.page_id WHERE ({likes}){where}",
        [*patterns, *params],
    ).fetchall()
    rows = [(*row[:2], _text(row[2]), *row[3:5], read_text(row[5]), row[6]) for row in rows]
    total, average = conn.execute("SELECT count(*), avg(words) FROM chunks").fetchone()
    counted = [(row, _counts(terms_of(row[2]), terms)) for row in rows]
    frequency = {term: sum(1 for _, counts in counted if counts[term]) for term in terms}
    hits = []
    for row, counts in counted:
        score = _bm25(terms, counts, row[6], frequency, total, average or 1.0)
        if score > 0:
            hits.append(Hit(row[0], row[1], row[2], row[3], row[4], row[5], round(score, 6)))
    hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
    return hits[:n]


def _like_patterns(terms: Sequence[str], asked: str = "") -> list[str]:
    """The LIKE patterns of the passages that may hold `terms`, by how they may spell them: SQLite's
    LIKE ignores the case of ASCII letters only, so a Cyrillic or Greek word is looked for in lower
    case, upper case and capitalized (a word that starts a sentence); `asked`, the query as written,
    adds its words' own spellings, diacritics kept (`canción` finds "canción": a term lost them). A
    phrase's words (`东 京 大 学`) may have anything between them, as for FTS5 (`东京 大学` holds
    it); the terms counted in each passage found tell which hold the phrase."""
    words = [*terms, *words_of(asked, folded=False)[:MAX_TERMS]]
    forms = dict.fromkeys(form for word in words for form in _cases(word))
    return ["%" + "%".join(map(_like_escape, form.split(" "))) + "%" for form in forms]


def _counts(words: Sequence[str], terms: Sequence[str]) -> Counter[str]:
    """How often a passage of `words` holds each word, and each phrase of `terms` (its words one
    after another, as FTS5 counts a phrase)."""
    counts = Counter(words)
    for phrase in (term for term in terms if " " in term):
        parts = phrase.split(" ")
        starts = (at for at, word in enumerate(words) if word == parts[0])
        counts[phrase] = sum(1 for at in starts if list(words[at : at + len(parts)]) == parts)
    return counts


def _cases(word: str) -> tuple[str, ...]:
    """The spellings of `word` LIKE must be given: one for ASCII, whose case LIKE ignores."""
    return (word.lower(),) if word.isascii() else (word.lower(), word.upper(), word.capitalize())


def _bm25(
    terms: Sequence[str],
    counts: Counter[str],
    length: int,
    frequency: dict[str, int],
    total: int,
    average: float,
) -> float:
    """Okapi BM25 as FTS5 computes it (k1 1.2, b 0.75, idf floored at 1e-6)."""
    score = 0.0
    for term in terms:
        tf = counts[term]
        if not tf:
            continue
        df = frequency[term]
        idf = max(math.log((total - df + 0.5) / (df + 0.5)), 1e-6)
        score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
    return score


def _like_escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")

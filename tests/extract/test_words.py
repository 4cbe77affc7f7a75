"""Word counts: whitespace tokens with a letter or digit; each Chinese or Japanese character a word."""

from __future__ import annotations

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions
from webferret.extract.words import count_words

JAPANESE = "報道によると、今回販売されたのは、いわゆる「脱獄」したiPhoneです。"


def test_tokens_with_a_letter_or_digit_are_words_and_markdown_marks_are_not() -> None:
    assert count_words("# Title\n\n- one | two - 3.5 kg") == 5
    assert count_words("see [the docs](https://example.org/a b/c) now") == 4


def test_each_chinese_or_japanese_character_is_a_word() -> None:
    assert count_words("先日") == 2
    assert count_words("iPhoneを販売") == 4  # the Latin run is one word, each kana or kanji another
    assert count_words("ｶﾀｶﾅ") == 4  # half-width katakana too
    assert count_words(JAPANESE) == len([c for c in JAPANESE if c not in "、「」。"]) - len("iPhone") + 1


def test_korean_is_spaced_and_counted_by_tokens() -> None:
    assert count_words("한국어 문장 입니다") == 3


def test_a_japanese_article_is_not_taken_for_an_empty_shell() -> None:
    body = "".join(f"<p>第{n}章。{JAPANESE}</p>" for n in range(8))  # distinct: trafilatura drops repeats
    scripts = "<script>var a = 1;</script>" * 3  # a shell is few words among scripts
    document = f"<html><head><title>記事</title></head><body><article>{body}</article>{scripts}</body></html>"
    page = extract_document(
        document.encode(), url="https://ex.jp/blog/1.html", content_type="text/html", options=ExtractOptions()
    )
    assert page.word_count > 200
    assert "quality_veto" not in page.extra
    assert page.quality is not None and page.quality > 0.5


def test_a_plain_text_file_counts_its_words_the_same_way() -> None:
    page = extract_document(
        JAPANESE.encode(), url="https://ex.jp/a.txt", content_type="text/plain", options=ExtractOptions()
    )
    assert page.word_count == count_words(JAPANESE)


THAI = "ประเทศไทยมีประชากรประมาณหกสิบหกล้านคน กรุงเทพมหานครเป็นเมืองหลวงและเมืองที่ใหญ่ที่สุดของประเทศ"


def test_thai_runs_count_a_word_per_four_characters() -> None:
    runs = THAI.split()
    assert count_words(THAI) == sum(-(-len(run) // 4) for run in runs)
    assert count_words("iPhone ราคา 500 บาท") == 4  # "ราคา", "บาท": one each
    assert count_words("ຂ້ອຍຮັກເຈົ້າ") == 3  # Lao the same way


def test_a_thai_article_is_read_as_one() -> None:
    body = "".join(f"<p>บทที่ {n} {THAI}</p>" for n in range(6))
    scripts = "<script>var a = 1;</script>" * 3
    document = f"<html><head><title>ข่าว</title></head><body><article>{body}</article>{scripts}</body></html>"
    page = extract_document(
        document.encode(), url="https://ex.th/news/1.html", content_type="text/html", options=ExtractOptions()
    )
    assert page.word_count > 150  # whitespace tokens were 24: an "empty shell" (read again in a browser)
    assert "quality_veto" not in page.extra

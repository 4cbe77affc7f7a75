"""A header-row table's cell that only shows an image reads as the image's short alt text."""

from __future__ import annotations

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

PROSE = (
    "<p>" + "Docker Engine runs on many platforms; the table lists where packages are built. " * 6 + "</p>"
)
CHECK = '<img src="/images/green-check.svg" alt="yes" class="inline">'


def extract(table: str, fmt: str = "markdown") -> str:
    document = (
        f"<html><head><title>Install</title></head><body><article>{PROSE}{table}</article></body></html>"
    )
    return extract_document(
        document.encode(),
        url="https://docs.ex.org/install/",
        content_type="text/html",
        options=ExtractOptions(format=fmt),
    ).content


def test_check_mark_images_in_a_support_matrix_read_as_their_alt_text() -> None:
    table = (
        "<table><thead><tr><th>Platform</th><th>x86_64</th><th>arm64</th></tr></thead><tbody>"
        f'<tr><td>Debian</td><td><a href="/debian/">{CHECK}</a></td><td>{CHECK}</td></tr>'
        f"<tr><td>RHEL</td><td> </td><td>{CHECK}</td></tr></tbody></table>"
    )
    markdown = extract(table)
    assert "| Debian | [yes](https://docs.ex.org/debian/) | yes |" in markdown
    assert "| RHEL |  | yes |" in markdown
    assert "yes" in extract(table, "text")


def test_a_photo_or_a_table_without_header_keeps_its_image_as_it_was() -> None:
    photo = '<img src="/shoe.jpg" alt="Red running shoe seen from the side">'
    with_header = (
        f"<table><tr><th>Shoe</th><th>Picture</th></tr><tr><td>Runner</td><td>{photo}</td></tr></table>"
    )
    assert "Red running shoe" not in extract(with_header, "text")
    layout = f"<table><tr><td>Debian</td><td>{CHECK}</td></tr><tr><td>RHEL</td><td>{CHECK}</td></tr></table>"
    assert "yes" not in extract(layout, "text")


def test_markup_in_capitals_is_read_the_same() -> None:
    row = '<TR><TD>Debian</TD><TD><IMG SRC="/c.svg" ALT="yes"></TD></TR>'
    table = f"<TABLE><TR><TH>Platform</TH><TH>arm64</TH></TR>{row}</TABLE>"
    assert "| Debian | yes |" in extract(table)

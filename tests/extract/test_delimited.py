"""CSV and TSV files read as tables (`extract.delimited`)."""

from __future__ import annotations

import gzip
import json

import pytest
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions

RIVERS = 'river,opens,,note\nTay,May,,"Perth, WA"\nSpey,"June\nlate",,a|b\n\nDee,April\n'


def read(
    body: str, content_type: str | None, url: str = "https://burrow.example/data/rivers", **options: object
) -> Extracted:
    return extract_document(
        body.encode(), url=url, content_type=content_type, options=ExtractOptions(**options)
    )


def test_a_csv_file_is_a_table() -> None:
    page = read(RIVERS, "text/csv; charset=utf-8")
    assert page.content == (
        "| river | opens | note |\n|---|---|---|\n| Tay | May | Perth, WA |\n"
        "| Spey | June late | a\\|b |\n| Dee | April |  |\n"
    )  # a quoted comma and line break kept in their cell, an empty column and row left out
    assert (page.title, page.page_type, page.extra["rows"], page.extra["columns"]) == (
        "rivers",
        "other",
        4,
        3,
    )
    assert read(RIVERS, "text/csv", format="text").content.splitlines()[1] == "Tay\tMay\tPerth, WA"


@pytest.mark.parametrize(
    ("body", "content_type", "url"),
    [
        ("river;opens\nTay;May\nSpey;June\n", "text/csv", "https://x.example/r"),  # a European export
        ("river\topens\nTay\tMay\nSpey\tJune\n", "text/plain", "https://x.example/r.tsv"),  # by its name
        ("river\topens\nTay\tMay\nSpey\tJune\n", "text/tab-separated-values", "https://x.example/r"),
    ],
)
def test_the_separator_is_the_one_the_file_uses(body: str, content_type: str, url: str) -> None:
    assert read(body, content_type, url).content.startswith("| river | opens |\n|---|---|\n| Tay | May |")


@pytest.mark.parametrize(
    "content_type",
    ["application/vnd.ms-excel", "text/comma-separated-values", "text/x-csv", "application/x-csv"],
)
def test_a_csv_export_under_another_name_for_csv_is_a_table(content_type: str) -> None:
    """A download script's CSV export sent as application/vnd.ms-excel (or CSV's older names), at an
    address without `.csv`, was shown as its comma-separated lines."""
    page = read("river,opens\nTay,May\nSpey,June\n", content_type, "https://x.example/export?id=7")
    assert page.content.startswith("| river | opens |\n|---|---|\n| Tay | May |")


def test_a_file_that_is_no_table_stays_text() -> None:
    assert read("just one column\nof words\n", "text/csv").content == "just one column\nof words\n"
    assert read("a,b\n1,2\n", "text/plain").content == "a,b\n1,2\n"  # neither its type nor its name says CSV


def test_fetch_reads_a_csv_file(simweb: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    url = simweb.add("/rivers.csv", RIVERS, headers={"Content-Type": "text/csv"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["content"].startswith("| river | opens | note |")


@pytest.mark.parametrize(
    ("sent_as", "disposition"),
    [
        ("application/octet-stream", 'attachment; filename="rivers.csv"'),
        ("application/octet-stream", "attachment; filename*=UTF-8''r%C3%ADos.csv"),
        ("Application/Octet-Stream download", 'attachment; filename="rivers.csv"'),  # its first word
        ("download", 'attachment; filename="rivers.csv"'),  # no type: as none
    ],
)
def test_fetch_reads_a_csv_download_by_the_name_it_is_sent_under(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str], sent_as: str, disposition: str
) -> None:
    """A download endpoint sends a file as application/octet-stream (or a type that is none), its
    name in Content-Disposition: the CSV file was read as text, its rows as lines."""
    headers = {"Content-Type": sent_as, "Content-Disposition": disposition}
    url = simweb.add("/export/7", RIVERS, headers=headers)
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["content_type"] == "text/csv" and page["content"].startswith("| river | opens | note |")
    # titled by the name it was sent under, not its address's last segment ("7")
    assert page["title"] == ("ríos.csv" if "UTF-8" in disposition else "rivers.csv")


def test_a_download_named_as_a_photo_that_answers_a_page_is_read_as_the_page(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """A download link that answers a sign-in page, still as application/octet-stream under the
    file's name (`photo.jpg`): the name's type (image/jpeg) was taken for the page's, and the page
    failed as unsupported_content, "cannot read content of type image/jpeg"."""
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Disposition": 'attachment; filename="photo.jpg"',
    }
    body = "<html><head><title>Sign in to download</title></head><body><h1>Sign in to download</h1>"
    body += "<p>This photo is shared with members only: sign in to download it.</p></body></html>"
    url = simweb.add("/download/7", body, headers=headers)
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and "shared with members only" in page["content"], page["error"]
    assert page["title"] == "Sign in to download"  # its own title, not the download's name


def test_one_line_far_wider_than_the_rest_does_not_widen_every_row(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line of 100,000 separators over 20,000 rows of two cells: padding each row to the widest
    first held two billion cells (a 200 KB file took tens of GB of memory)."""
    body = "river,fish\n" + "," * 100_000 + "end\n" + "Tay,412\n" * 20_000
    url = simweb.add("/wide.csv", body.encode(), headers={"Content-Type": "text/csv"})
    assert main(["fetch", url, "--json", "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["meta"]["extract"]["columns"] == 3 and page["meta"]["extract"]["rows"] == 20_002
    assert page["content"].startswith("| river | fish |  |\n|---|---|---|\n|  |  | end |\n| Tay | 412 |  |\n")


@pytest.mark.parametrize("name", ["rivers.csv.gz", "RIVERS.CSV.GZ", "rivers.csv.GZ"])
def test_a_gzipped_csv_file_served_as_gzip_is_a_table_by_its_name(name: str) -> None:
    """(A name in capitals, as Windows writes them, was read as plain text: its `.GZ` named no packing.)"""
    body = gzip.compress(RIVERS.encode())
    page = extract_document(
        body,
        url=f"https://burrow.example/data/{name}",
        content_type="application/gzip",
        options=ExtractOptions(),
    )
    assert page.content.startswith("| river | opens | note |\n")
    assert (page.extra["rows"], page.extra["columns"]) == (4, 3)

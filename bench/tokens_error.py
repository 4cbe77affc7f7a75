"""Benchmark: how far `estimate_tokens` is from real BPE tokenizers, on real pages' Markdown.

Extracts every captured page in ../shared/fixtures/pages with webferret's extractor, then compares
the estimate with the o200k_base and cl100k_base encodings (bpe-openai ships them; it is not a
dependency of webferret):

    uv run --with bpe-openai python bench/tokens_error.py

Prints, per encoding, the total ratio (estimate / real) and the mean and worst absolute error per page.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions
from webferret.tokens import estimate_tokens


def shared_dir() -> Path:
    """`shared/` beside the clone (CI) or beside the worktrees' folder (a developer's machine)."""
    repo = Path(__file__).resolve().parents[1]
    for base in (repo.parent, repo.parent.parent):
        if (base / "shared").is_dir():
            return base / "shared"
    raise SystemExit("no shared/ folder found beside the repository")


PAGES = shared_dir() / "fixtures" / "pages"


OPTIONS = ExtractOptions()


def documents() -> list[tuple[str, str]]:
    out = []
    for path in sorted(PAGES.rglob("*.html")):
        if path.name == "expected.html":
            continue
        try:
            extracted = extract_document(
                path.read_bytes(),
                url="https://example.org/",
                content_type="text/html",
                options=ExtractOptions(),
            )
        except Exception as exc:  # a page the extractor refuses is reported, not counted
            print(f"skip {path.relative_to(PAGES)}: {exc}")
            continue
        if extracted.content.strip():
            out.append((str(path.relative_to(PAGES)), extracted.content))
    return out


def main() -> None:
    import bpe_openai

    docs = documents()
    print(f"{len(docs)} pages, {sum(len(text) for _, text in docs):,} characters of Markdown")
    for name in ("o200k_base", "cl100k_base"):
        encoding = bpe_openai.get_encoding(name)
        real = [len(encoding.encode(text)) for _, text in docs]
        guess = [estimate_tokens(text) for _, text in docs]
        errors = [abs(g - r) / r for g, r in zip(guess, real, strict=True)]
        worst = max(range(len(docs)), key=lambda i: errors[i])
        print(
            f"{name}: total ratio {sum(guess) / sum(real):.3f}; per page mean |error| "
            f"{statistics.mean(errors):.1%}, median {statistics.median(errors):.1%}, "
            f"worst {errors[worst]:.1%} ({docs[worst][0]})"
        )


if __name__ == "__main__":
    main()

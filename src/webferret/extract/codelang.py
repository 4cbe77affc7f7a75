"""Which programming language a code block, a file name or a content type names."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from lxml import etree

# `language-x` and its kin; SyntaxHighlighter's `brush: x`; Pandoc's `sourceCode x` (with line
# numbers `sourceCode numberSource x numberLines`)
_CLASS_LANG = re.compile(
    r"(?:^|\s)(?:(?:language|lang|highlight-source|highlight|brush|sourceCode)[-:_]|brush:\s+"
    r"|sourceCode\s+(?:numberSource\s+)?)([A-Za-z0-9+#._-]+)",
    re.I,
)
# no language: Discourse's `lang-auto` leaves it to the highlighter's guess
_NOT_LANGS = frozenset(("none", "plaintext", "text", "nohighlight", "plain", "default", "source", "auto"))

EXTENSIONS = {
    "py": "python",
    "pyi": "python",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "ts": "typescript",
    "tsx": "tsx",
    "jsx": "jsx",
    "rs": "rust",
    "go": "go",
    "java": "java",
    "kt": "kotlin",
    "kts": "kotlin",
    "scala": "scala",
    "c": "c",
    "h": "c",
    "cc": "cpp",
    "cpp": "cpp",
    "cxx": "cpp",
    "hpp": "cpp",
    "hh": "cpp",
    "cs": "csharp",
    "rb": "ruby",
    "php": "php",
    "swift": "swift",
    "m": "objectivec",
    "sh": "bash",
    "bash": "bash",
    "zsh": "zsh",
    "fish": "fish",
    "ps1": "powershell",
    "pl": "perl",
    "lua": "lua",
    "r": "r",
    "jl": "julia",
    "hs": "haskell",
    "ml": "ocaml",
    "ex": "elixir",
    "exs": "elixir",
    "erl": "erlang",
    "clj": "clojure",
    "dart": "dart",
    "zig": "zig",
    "nim": "nim",
    "sql": "sql",
    "css": "css",
    "scss": "scss",
    "less": "less",
    "vue": "vue",
    "svelte": "svelte",
    "toml": "toml",
    "yaml": "yaml",
    "yml": "yaml",
    "ini": "ini",
    "cfg": "ini",
    "conf": "ini",
    "json": "json",
    "jsonl": "json",
    "xml": "xml",
    "svg": "xml",
    "html": "html",
    "htm": "html",
    "md": "markdown",
    "rst": "rst",
    "tex": "latex",
    "dockerfile": "dockerfile",
    "mk": "makefile",
    "cmake": "cmake",
    "gradle": "groovy",
    "groovy": "groovy",
    "proto": "protobuf",
    "graphql": "graphql",
    "tf": "hcl",
    "nix": "nix",
    "diff": "diff",
    "patch": "diff",
    "bat": "batch",
    "vim": "vim",
    "el": "elisp",
    "sol": "solidity",
}
FILENAMES = {
    "dockerfile": "dockerfile",
    "makefile": "makefile",
    "gnumakefile": "makefile",
    "cmakelists.txt": "cmake",
    "rakefile": "ruby",
    "gemfile": "ruby",
    "justfile": "just",
    "vagrantfile": "ruby",
}
MIME_LANGS = {
    "application/javascript": "javascript", "text/javascript": "javascript", "application/x-python": "python",
    "text/x-python": "python", "text/x-script.python": "python", "application/x-sh": "bash",
    "text/x-shellscript": "bash", "text/x-c": "c", "text/x-csrc": "c", "text/x-c++src": "cpp",
    "text/x-java-source": "java", "text/x-java": "java", "text/x-rust": "rust", "text/x-go": "go",
    "text/css": "css", "application/toml": "toml", "application/yaml": "yaml", "text/yaml": "yaml",
    "application/x-yaml": "yaml", "text/x-yaml": "yaml", "text/markdown": "markdown",
    "application/sql": "sql", "text/x-ruby": "ruby", "application/x-httpd-php": "php", "text/x-php": "php",
    "application/typescript": "typescript",
}  # fmt: skip


def _from_attributes(node: etree._Element) -> str | None:
    for name in ("data-lang", "data-language", "lang-name"):
        value = (node.get(name) or "").strip().lower()
        if value and value not in _NOT_LANGS:
            return value
    match = _CLASS_LANG.search(node.get("class") or "")
    if match and match.group(1).lower() not in _NOT_LANGS:
        return match.group(1).lower()
    return None


def code_language(node: etree._Element) -> str | None:
    """The language a `<pre>`/`<code>` names on itself, its first `<code>` child or its wrapper."""
    candidates = [node, *node.iterchildren("code")]
    parent = node.getparent()
    if parent is not None:
        candidates.append(parent)
        if parent.getparent() is not None:
            candidates.append(parent.getparent())  # GitHub: div.highlight-source-x > pre
    for candidate in candidates:
        if isinstance(candidate.tag, str):
            lang = _from_attributes(candidate)
            if lang:
                return lang
    return None


def language_for(url: str | None, mime: str | None = None) -> str | None:
    """The language of a source file, from its URL's file name, else from its content type."""
    if url:
        name = PurePosixPath(urlsplit(url).path).name.lower()
        if name in FILENAMES:
            return FILENAMES[name]
        suffix = name.rsplit(".", 1)[-1] if "." in name else ""
        if suffix in EXTENSIONS:
            return EXTENSIONS[suffix]
    return MIME_LANGS.get((mime or "").lower())

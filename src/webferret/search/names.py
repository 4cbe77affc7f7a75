"""The search engines' names, known without importing them: for `search --help` and the `engines`
setting's check at start (`engines.registry()` gives the engines themselves, by these names)."""

ENGINE_NAMES = (
    "searxng",
    "duckduckgo",
    "brave",
    "mojeek",
    "bing",
    "yahoo",
    "google",
    "yandex",
    "wikipedia",
    "github",
    "reddit",
)

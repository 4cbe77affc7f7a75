"""A search region as DuckDuckGo spells it, read as ISO codes for the engines that speak those.

A region is a country and a language, each DuckDuckGo's own way (`us-en`, `at-de`, `wt-wt` for none):
mostly ISO 3166 and ISO 639 codes, but `uk` is the United Kingdom (ISO `GB`), `sl` Slovenia (`SI`),
`ct` Catalonia, `ue` the United States in Spanish, `xa` and `xl` Arabia and Latin America (no one
country); `jp` is Japanese (`ja`), `kr` Korean (`ko`; ISO's `kr` is Kanuri) and `tzh` traditional
Chinese (`zh`). The ddgs engines get the region as it is; the others read it through `locale`.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_REGION = "wt-wt"
COUNTRIES: dict[str, str | None] = {"uk": "GB", "sl": "SI", "ct": "ES", "ue": "US", "xa": None, "xl": None}
"""DuckDuckGo's countries that are not ISO 3166's, as ISO's (None: a region of several countries)."""
LANGUAGES = {"jp": "ja", "kr": "ko", "tzh": "zh"}
"""DuckDuckGo's languages that are not ISO 639-1's, as ISO's."""


@dataclass(frozen=True)
class Locale:
    """A region's language (ISO 639-1, lower case) and country (ISO 3166-1, upper case; None for a
    region of several countries)."""

    language: str
    country: str | None

    @property
    def tag(self) -> str:
        """As a language tag: `ja-JP`, `en-GB`, or the language alone (`ar` for Arabia)."""
        return f"{self.language}-{self.country}" if self.country else self.language


def locale(region: str | None) -> Locale | None:
    """`region` (`config.REGION`, lower case) as ISO codes; None for no region (None, `wt-wt`)."""
    if region is None or region == NO_REGION:
        return None
    country, language = region.split("-", 1)
    iso_country = COUNTRIES[country] if country in COUNTRIES else country.upper()
    return Locale(language=LANGUAGES.get(language, language), country=iso_country)

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
_KNOWN = """xa-ar xa-en ar-es au-en at-de be-fr be-nl br-pt bg-bg ca-en ca-fr ct-ca cl-es cn-zh co-es hr-hr
    cz-cs dk-da ee-et fi-fi fr-fr de-de gr-el hk-tzh hu-hu is-is in-en id-id id-en ie-en il-he il-en
    it-it jp-jp kr-kr lv-lv lt-lt xl-es my-ms my-en mx-es nl-nl nz-en no-no pk-en pe-es ph-en ph-tl
    pl-pl pt-pt ro-ro ru-ru sg-en sk-sk sl-sl za-en es-ca es-es se-sv ch-de ch-fr ch-it tw-tzh th-th
    th-en tr-tr ua-uk uk-en us-en us-es ue-es ve-es vn-vi vn-en wt-wt"""
KNOWN = frozenset(_KNOWN.split())
"""DuckDuckGo's regions (its `kl` values), as its region menu lists them."""


def written_the_other_way(region: str) -> str | None:
    """The DuckDuckGo region `region` (lower case) names when it is written language first, as a
    language tag is (`en-us`, `pt-br`, `zh-tw`, `en-gb`: `us-en`, `br-pt`, `tw-tzh`, `uk-en`); None
    for a region DuckDuckGo knows, or one no known region reads backwards."""
    if region in KNOWN:
        return None
    language, _, country = region.partition("-")
    countries = [country, *(ddg for ddg, iso in COUNTRIES.items() if iso and iso.lower() == country)]
    languages = [language, *(ddg for ddg, iso in LANGUAGES.items() if iso == language)]
    found = (f"{ddg_country}-{ddg}" for ddg_country in countries for ddg in languages)
    return next((meant for meant in found if meant in KNOWN), None)


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

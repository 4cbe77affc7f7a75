"""A superscript or subscript of digits and signs written with Unicode's raised and lowered digits:
`E = mc<sup>2</sup>`, `10<sup>-3</sup>` and `H<sub>2</sub>O` read `E = mc²`, `10⁻³` and `H₂O`, not
`mc2`, `10-3` and `H2O`, whose meaning Markdown (which has no superscript) lost. Letters stay as they
are (`1<sup>st</sup>`, `<sup>TM</sup>`), as do a footnote's `[1]` and anything with a link in it."""

from __future__ import annotations

_DIGITS_AND_SIGNS = "0123456789+-−=()"
_RAISED = str.maketrans(_DIGITS_AND_SIGNS, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾")
_LOWERED = str.maketrans(_DIGITS_AND_SIGNS, "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎")
_MOST = 12  # a longer run is no exponent or index (a page setting a sentence in <sup>)


def shifted(text: str, raised: bool) -> str:
    """`text` (the words of a `<sup>`, `raised`, or a `<sub>`) in raised or lowered characters when
    it is digits and signs alone with at least one digit; else `text` as it is."""
    bare = text.strip()
    if not bare or len(bare) > _MOST or not any(c.isdigit() for c in bare):
        return text
    if any(c not in _DIGITS_AND_SIGNS for c in bare):
        return text
    return bare.translate(_RAISED if raised else _LOWERED)

"""The language of a page's `<html>` tag kept when something comes before the tag.

A `<style>` or `<link>` written before `<html lang="en">` makes libxml2 open the root element itself,
and it then drops the page's own `<html>` tag with its attributes: the page had no language. A
browser adds each attribute of a later `<html>` tag that the root does not have yet (HTML's rules for
a second `<html>` start tag), so the page is in English there; `keep_root_language` does the same
for the language.
"""

from __future__ import annotations

import re
from html import unescape

from lxml import html

# an `<html>` start tag: its attributes end at the first `>` and hold no `<`, so each try stops at the
# next tag and a page of `<html ` written over and over is read in one pass
_HTML_TAG = re.compile(r"<html(\s[^<>]*)?>", re.I)
_HEAD = re.compile(r"<(?:head|body)[\s>]", re.I)
_LANGUAGE = re.compile(r"""(?:^|\s)(?:xml:)?lang\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", re.I)


def keep_root_language(tree: html.HtmlElement, text: str) -> None:
    """Give the root of `tree` (parsed from `text`) the `lang` of the page's own `<html>` tag when the
    parser left it without one: the last `<html>` tag before the `<head>` or `<body>` (the ones before
    it stand in comments, IE's `<!--[if IE 8]><html class="ie8">`), else the first. A tag later in
    the page (a code sample's, a script's string) is not the page's, nor is any when the page's own
    tag states no language."""
    root = tree.getroottree().getroot()
    if root.get("lang") is not None:
        return
    head = _HEAD.search(text)
    if head:
        tag = next(reversed(list(_HTML_TAG.finditer(text, 0, head.start()))), None)
    else:
        tag = _HTML_TAG.search(text)
    stated = _LANGUAGE.search(tag.group(1)) if tag and tag.group(1) else None
    if stated:
        root.set("lang", unescape(stated.group(1).strip("\"'")))

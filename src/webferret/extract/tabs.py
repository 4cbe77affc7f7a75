"""The name of each tab put at the head of its panel, where the panel holds code.

Documentation shows one command per platform or tool in tabs ("Bash", "PowerShell", "npm", "Yarn";
"Windows", "macOS", "Linux"). A reader that draws no tabs keeps the panels, one code block after
another, and drops the tab strip, so it cannot tell which command is for which shell. Each panel that
holds a code block gets its tab's name as a first paragraph, in bold, when the page is parsed, and a
tab strip whose every tab so names its panel is left out (a main-content choice that kept it wrote
the names twice, `- npm` `- Yarn` over `**npm**` and `**Yarn**`). A tab
is paired with its panel by `aria-labelledby` or `aria-controls` (WAI-ARIA tabs: Starlight,
Microsoft Learn...), else by order within one set of tabs (Docusaurus, Material for MkDocs).
Panels without code (a shop's "Description" and "Reviews") are left as they are.
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints
from webferret.extract.classes import classes, has_class

HINTS = (hints.word("tabpanel"), hints.word("tabbed-set"))
"""One of these in a page's HTML: it may have tabs (`label_code_tabs` is not run otherwise)."""

_LONGEST = 40
"""A tab name longer than this is not a name (characters)."""


def has_tabs(text: str) -> bool:
    """Whether the HTML text `text` may have tabs (a cheap look before `label_code_tabs`)."""
    return hints.holds_any(text, HINTS)


def label_code_tabs(tree: html.HtmlElement, text: str) -> None:
    """Every tab panel holding a `<pre>` given its tab's name as a first, bold paragraph, in place
    (`text`: the page's HTML; Material for MkDocs' sets are searched for only when it names them)."""
    roles = _Roles(tree)
    named = _by_reference(tree, roles)
    for tablist in roles.of("tablist"):
        _by_order(tablist, named)
    for tabbed in tree.xpath(f"//*[{has_class('tabbed-set')}]") if "tabbed-set" in text else ():
        labels = [label for label in tabbed.iter("label") if _set_of(label) is tabbed]
        blocks = tabbed.xpath(f".//*[{has_class('tabbed-block')}]")
        blocks = [block for block in blocks if _set_of(block) is tabbed]
        if len(labels) == len(blocks):
            for label, block in zip(labels, blocks, strict=True):
                named.setdefault(block, label)
    headed: set[html.HtmlElement] = set()  # the tabs whose names head their panels
    for panel, tab in named.items():
        name = _name(tab)
        if name and len(name) <= _LONGEST and panel.find(".//pre") is not None:
            paragraph = html.Element("p")
            strong = html.Element("strong")
            strong.text = name
            paragraph.append(strong)
            paragraph.tail = panel.text
            panel.text = None
            panel.insert(0, paragraph)
            headed.add(tab)
    for tablist in roles.of("tablist"):
        tabs = tablist.xpath('.//*[@role="tab"]')
        if tabs and headed.issuperset(tabs) and tablist.getparent() is not None:
            tablist.drop_tree()  # its names head their panels now: the strip would say them again


class _Roles:
    """The elements of a page that have a `role`, in document order, found in one search of the tree
    (where each role was a search of its own)."""

    def __init__(self, tree: html.HtmlElement) -> None:
        self.found = tree.xpath("//*[@role]")

    def of(self, role: str) -> list[html.HtmlElement]:
        return [element for element in self.found if element.get("role") == role]


def _by_reference(tree: html.HtmlElement, roles: _Roles) -> dict[html.HtmlElement, html.HtmlElement]:
    """Panels and the tabs that name them, tied by their ids."""
    tabs_of_page = roles.of("tab")
    tabs = {tab.get("id"): tab for tab in tabs_of_page if tab.get("id") is not None}
    named: dict[html.HtmlElement, html.HtmlElement] = {}
    for panel in roles.of("tabpanel"):
        tab = tabs.get(panel.get("aria-labelledby") or "")
        if tab is not None:
            named[panel] = tab
    controlling = [tab for tab in tabs_of_page if tab.get("aria-controls") is not None]
    if controlling:
        by_id = {element.get("id"): element for element in tree.xpath("//*[@id]")}
        for tab in controlling:
            panel = by_id.get(tab.get("aria-controls"))
            if panel is not None:
                named.setdefault(panel, tab)
    return named


def _by_order(tablist: html.HtmlElement, named: dict[html.HtmlElement, html.HtmlElement]) -> None:
    """The panels of one set of tabs, named in order: those in the nearest ancestor of the tab strip
    (at most three levels up) that holds as many panels as the strip has tabs."""
    tabs = tablist.xpath('.//*[@role="tab"]')
    container = tablist.getparent()
    for _ in range(3):
        if container is None:
            return
        panels = [p for p in container.xpath('.//*[@role="tabpanel"]') if not _inside_panel(p, container)]
        if panels:
            if len(panels) == len(tabs):
                for tab, panel in zip(tabs, panels, strict=True):
                    named.setdefault(panel, tab)
            return
        container = container.getparent()


def _inside_panel(panel: html.HtmlElement, container: html.HtmlElement) -> bool:
    """Whether `panel` sits in another panel below `container` (a set of tabs within a tab)."""
    for ancestor in panel.iterancestors():
        if ancestor is container:
            return False
        if ancestor.get("role") == "tabpanel":
            return True
    return False


def _set_of(node: html.HtmlElement) -> html.HtmlElement | None:
    """The nearest `tabbed-set` around `node` (Material for MkDocs nests sets within sets)."""
    for ancestor in node.iterancestors():
        if "tabbed-set" in classes(ancestor):
            return ancestor
    return None


def _name(tab: html.HtmlElement) -> str:
    return " ".join(tab.text_content().split())

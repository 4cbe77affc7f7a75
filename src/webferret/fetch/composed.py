"""The HTML a browser tab shows, shadow DOM included: what its readers see, not only its light DOM.

A page built of web components (Lit, Stencil, a custom element with `attachShadow`) draws its text
inside shadow roots, which `page.content()` leaves out: such a page read as empty. When the page
has an open shadow root, it is written out as the composed tree a reader sees: each host's shadow
content in place of its children, a `<slot>` filled with what is assigned to it.
"""

from __future__ import annotations

from typing import Any

COMPOSED = """() => {
  const hosts = [...document.querySelectorAll('*')].some((e) => e.shadowRoot);
  if (!hosts || !document.documentElement) return null;
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta',
    'source', 'track', 'wbr']);
  const RAW = new Set(['script', 'style', 'noscript', 'xmp', 'iframe', 'noembed', 'noframes']);
  const text = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const quote = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const out = [];
  const walk = (node) => {
    if (node.nodeType === 3) {
      const parent = node.parentNode;
      out.push(parent && RAW.has(parent.localName) ? node.data : text(node.data));
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.localName;
    const attributes = [...node.attributes].map((a) => ' ' + a.name + '="' + quote(a.value) + '"');
    out.push('<' + tag + attributes.join('') + '>');
    if (VOID.has(tag)) return;
    let children = node.childNodes;
    if (node.shadowRoot) children = node.shadowRoot.childNodes;
    else if (tag === 'slot' && node.assignedNodes().length) children = node.assignedNodes();
    else if (tag === 'template') children = node.content.childNodes;
    for (const child of children) walk(child);
    out.push('</' + tag + '>');
  };
  walk(document.documentElement);
  const doctype = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : '';
  return doctype + out.join('');
}"""


async def page_html(page: Any) -> str:
    """The page's HTML as it is shown: its composed tree when it has shadow roots, else
    `page.content()` (whose errors, a page navigating, are the caller's to handle)."""
    from playwright.async_api import Error

    try:
        composed = await page.evaluate(COMPOSED)
    except Error:  # navigating, or a page that replaced what the walk uses: read as Playwright reads it
        composed = None
    if isinstance(composed, str):
        return composed
    html: str = await page.content()
    return html

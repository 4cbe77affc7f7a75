"""page_type from JSON-LD, og:type, URL shape and DOM repetition; quality vetoes."""

from __future__ import annotations

import json

from child import passes

from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions

PROSE = (
    "<p>" + "Ferrets explore the long tunnels of the web and read every page with patience. " * 12 + "</p>"
)


def page(body: str, url: str = "https://ex.org/some/page", head: str = "") -> Extracted:
    document = f"<html><head><title>A page</title>{head}</head><body>{body}</body></html>"
    return extract_document(document.encode(), url=url, content_type="text/html", options=ExtractOptions())


def ld(kind: str) -> str:
    data = json.dumps({"@context": "https://schema.org", "@type": kind})
    return f'<script type="application/ld+json">{data}</script>'


def test_page_type_from_jsonld_before_anything_else() -> None:
    assert page(f"<article>{PROSE}</article>", head=ld("Product")).page_type == "product"
    assert page(f"<article>{PROSE}</article>", head=ld("QAPage")).page_type == "forum"
    graph = '<script type="application/ld+json">{"@graph": [{"@type": "NewsArticle"}]}</script>'
    assert page(f"<article>{PROSE}</article>", head=graph).page_type == "article"


def test_a_page_declaring_one_product_after_a_list_is_a_product() -> None:
    """Best Buy and Sephora write a carousel's `ItemList` before their product's node, Shopify shops
    their catalogue (`OfferCatalog`): the first type made each product page a listing."""
    head = ld("ItemList") + ld("BreadcrumbList") + ld("Product")
    assert page(f"<article>{PROSE}</article>", head=head).page_type == "product"
    assert page(f"<article>{PROSE}</article>", head=ld("OfferCatalog") + ld("ProductGroup")).page_type == (
        "product"
    )
    several = ld("ItemList") + ld("Product") + ld("Product")  # a category's products, each a node
    assert page(f"<article>{PROSE}</article>", head=several).page_type == "listing"
    assert page(f"<article>{PROSE}</article>", head=ld("NewsArticle") + ld("Product")).page_type == "article"


def test_a_home_page_reached_with_a_tracking_parameter_is_a_home_page() -> None:
    """Google adds `?srsltid=` to the shop pages it lists: a shop's home page read at that address was
    typed by its cards or words (a listing, an article) and lost the brand of its title."""
    shop = "https://liteaf.com/?srsltid=AfmBOoqGgduANbdLFsj1wTx6x5Wo4A0kepzx7h55XAcPr5geO4dG"
    found = page(PROSE, url=shop, head='<meta property="og:title" content="Why hike heavy? | Liteaf">')
    assert (found.page_type, found.title) == ("homepage", "Why hike heavy? | Liteaf")
    assert page(PROSE, url="https://ex.org/?utm_source=news&gclid=1").page_type == "homepage"
    assert page(PROSE, url="https://ex.org/?p=123").page_type != "homepage"


def test_a_home_page_read_at_its_index_document_is_a_home_page() -> None:
    """`/index.html` (`/index.php`, `/default.aspx`) is the document a server answers for `/`: the
    home page, with its brand kept in its title; a folder's index is not the site's."""
    head = '<meta property="og:title" content="Acme - Widgets since 1950">'
    head += '<meta property="og:site_name" content="Acme">'
    for address in ("https://ex.org/index.html", "https://ex.org/index.php", "https://ex.org/Default.aspx"):
        found = page(PROSE, url=address, head=head)
        assert (found.page_type, found.title) == ("homepage", "Acme - Widgets since 1950"), address
    assert page(PROSE, url="https://ex.org/blog/index.html").page_type != "homepage"


def test_page_type_from_og_type_and_url_shape() -> None:
    assert page(PROSE, head='<meta property="og:type" content="product">').page_type == "product"
    assert page(PROSE, url="https://ex.org/").page_type == "homepage"
    assert page(PROSE, url="https://ex.org/search?q=ferrets").page_type == "search"
    assert page(PROSE, url="https://docs.ex.org/docs/install").page_type == "docs"
    assert page(PROSE, url="https://ex.org/2024/05/ferrets-at-work").page_type == "article"


def test_a_page_with_no_url_is_no_home_page() -> None:
    """A page read from standard input has no address: it is typed by its content, as the same page at
    an address with a path is, not called a home page for an empty path."""
    body = f"<article>{PROSE}</article>"
    document = f"<html><head><title>A page</title></head><body>{body}</body></html>".encode()
    untyped = extract_document(document, url=None, content_type="text/html", options=ExtractOptions())
    assert untyped.page_type == page(body).page_type == "other"
    assert page(body, url="https://ex.org/").page_type == "homepage"


def test_documentation_is_known_by_host_path_or_generator_before_og_type() -> None:
    """Documentation sites often call every page an og:type article."""
    article = '<meta property="og:type" content="article">'
    assert (
        page(PROSE, url="https://www.postgresql.org/docs/18/sql-select.html", head=article).page_type
        == "docs"
    )
    assert page(PROSE, url="https://learn.example.com/en-us/azure/functions").page_type == "docs"
    assert page(PROSE, url="https://requests.readthedocs.io/en/latest/user/advanced/").page_type == "docs"
    sphinx = '<meta name="generator" content="Docutils 0.18.1: https://docutils.sourceforge.io/">'
    assert (
        page(PROSE, url="https://ex.org/playbook_guide/intro.html", head=sphinx + article).page_type == "docs"
    )
    assert page(PROSE, url="https://ex.org/playbook_guide/intro.html", head=article).page_type == "article"


def test_forums_are_known_by_host_address_or_software_before_og_type() -> None:
    article = '<meta property="og:type" content="article">'
    assert (
        page(PROSE, url="https://www.spigotmc.org/threads/best-hosts.691400/", head=article).page_type
        == "forum"
    )
    assert page(PROSE, url="https://forums.raspberrypi.com/viewtopic.php?t=361697").page_type == "forum"
    assert page(PROSE, url="https://community.nodebb.org/topic/18427/rc1", head=article).page_type == "forum"
    vbulletin = '<meta name="generator" content="vBulletin 3.8.11">'
    assert page(PROSE, url="https://ex.org/page.php?id=186269", head=vbulletin).page_type == "forum"
    assert page(PROSE, url="https://ex.org/page.php?id=186269", head=article).page_type == "article"


def test_a_shop_s_product_address_wins_over_an_seo_plugin_s_og_type() -> None:
    article = '<meta property="og:type" content="article">'
    url = "https://karminhairtools.com/product/karmin-g3-pro-hair-dryer"
    assert page(PROSE, url=url, head=article).page_type == "product"
    assert page(PROSE, url="https://ex.substack.com/p/on-ferrets", head=article).page_type == "article"


def test_repeated_link_cards_are_a_listing() -> None:
    cards = "".join(f'<li class="card"><a href="/item/{n}">Item {n}</a> short</li>' for n in range(30))
    assert page(f"<ul>{cards}</ul>", url="https://shop.ex.org/ferret-toys").page_type == "listing"


def test_a_blog_s_index_is_a_listing_and_its_posts_articles() -> None:
    posts = "".join(
        f'<li class="post"><a href="/blog/walk-{n}">Walk {n}</a> by the river</li>' for n in range(12)
    )
    assert page(f"<ul>{posts}</ul>", url="https://rivernotes.example/blog/").page_type == "listing"
    assert page(f"<ul>{posts}</ul>", url="https://rivernotes.example/blog/page/2").page_type == "listing"
    assert page(PROSE, url="https://rivernotes.example/blog/walk-3").page_type == "article"


def test_a_good_article_scores_high() -> None:
    paragraphs = "".join(
        f"<p>Part {n}: " + "ferrets read pages with care and patience. " * 15 + "</p>" for n in range(4)
    )
    good = page(f"<article><h1>Ferrets</h1>{paragraphs}</article>")
    assert good.quality is not None and good.quality > 0.8
    assert "quality_veto" not in good.extra


def test_soft_404_is_vetoed() -> None:
    missing = page("<h1>Page not found</h1><p>Sorry, we looked everywhere.</p>")
    assert missing.extra["quality_veto"] == "soft_404"
    assert missing.quality is not None and missing.quality < 0.1


def test_a_soft_404_in_other_words_is_vetoed() -> None:
    """A 200 page saying so without the words "not found": "we couldn't find that page", "could not be
    found", "this page isn't available"."""
    sayings = [
        "<h1>Hmm, we couldn’t find that page</h1><p>It may have moved. Go back home.</p>",
        "<h1>Page unavailable</h1><p>The page you requested could not be found. Check the address.</p>",
        "<h1>Sorry, this page isn't available</h1><p>The link you followed may be broken.</p>",
        # WordPress's starter theme (_s) and its Twenty themes, under a title that is the site's name
        "<h1>Oops! That page can’t be found.</h1><p>It looks like nothing was found at this location. "
        "Maybe try one of the links below or a search?</p>",
        "<h1>The page you were looking for couldn't be found</h1><p>Go back home.</p>",
    ]
    assert [page(body).extra.get("quality_veto") for body in sayings] == ["soft_404"] * 5


def test_login_wall_is_vetoed() -> None:
    wall = page('<form><p>Please sign in to continue reading.</p><input type="password" name="pw"></form>')
    assert wall.extra.get("quality_veto") == "login_wall"


def test_cookie_wall_is_vetoed() -> None:
    wall = page("<div><p>We use cookies to improve your experience. Accept all cookies to read on.</p></div>")
    assert wall.extra.get("quality_veto") == "cookie_wall"


def test_a_consent_screen_is_a_cookie_wall() -> None:
    wall = page(
        "<h1>Before you continue</h1><p>We value your privacy. We and our 842 partners use cookies and "
        'similar technologies to store and access information on your device. By clicking "Accept all" '
        "you consent.</p><button>Accept all</button><button>Reject all</button>"
    )
    assert wall.extra.get("quality_veto") == "cookie_wall"


def test_a_page_about_404s_walls_or_cookies_is_not_vetoed() -> None:
    """The words of a veto in a page's topic are not the page being one."""
    step = "Click Rotate next to the key you want to replace; the old key keeps working for a day. " * 4
    text = "Brown the butter until it smells of toasted nuts, then rest the dough overnight. " * 4
    essay = "The server answers 404 when no route matches the path the client asked for. " * 30
    fix = "Nginx answers 404 for a file that exists when root and alias are mixed up in one location. " * 3
    vetoes = [
        page(
            f"<article><h1>Rotating your API key</h1><p>Please log in to the dashboard. {step}</p></article>"
        ),
        page(
            f"<article><h1>Chewy cookies</h1><p>We use cookies sheets lined with paper. {text}</p></article>"
        ),
        titled("Understanding the HTTP 404 status code", f"<p>{essay}</p>"),
        titled(
            "How to fix a 404 Not Found error in Nginx", f"<article><p>{fix}</p></article>", ld("BlogPosting")
        ),
    ]
    assert [extracted.extra.get("quality_veto") for extracted in vetoes] == [None] * 4
    assert titled("404 Not Found", f"<article><p>{fix}</p></article>").extra["quality_veto"] == "soft_404"


def titled(title: str, body: str, head: str = "") -> Extracted:
    document = f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"
    return extract_document(
        document.encode(), url="https://ex.org/a", content_type="text/html", options=ExtractOptions()
    )


def test_empty_javascript_shell_is_vetoed() -> None:
    shell = page('<div id="root"></div><script src="/a.js"></script><noscript>Enable JavaScript</noscript>')
    assert shell.extra.get("quality_veto") == "empty_shell"
    assert shell.quality is not None and shell.quality < 0.1


def test_github_raw_file_is_fenced_with_its_language() -> None:
    url = "https://raw.githubusercontent.com/owner/repo/main/web/index.html"
    raw = extract_document(
        b"<html><body>hi</body></html>",
        url=url,
        content_type="text/plain; charset=utf-8",
        options=ExtractOptions(),
    )
    assert raw.content == "```html\n<html><body>hi</body></html>\n```\n"


def test_an_app_shell_has_no_content_of_its_own() -> None:
    # a script app's empty mount point and a few words around it: the page's text is what the app draws
    shell = page('<header><p>Shop - Search - Cart (0)</p></header><div id="root"></div><p>Loading...</p>')
    assert shell.extra.get("quality_veto") == "empty_shell"
    assert shell.content == "" and shell.word_count == 0


def test_a_scripted_page_that_shows_much_more_than_its_main_content_is_no_shell() -> None:
    """Best Buy's and eBay's item pages run dozens of scripts and show hundreds of words (menus,
    specifications, prices) around a main content read short: a thin page, not an empty shell."""
    scripts = "<script>var a = 1;</script>" * 3
    menu = (
        "<nav><ul>"
        + "".join(f"<li><a href='/c/{n}'>Department {n} deals</a></li>" for n in range(40))
        + "</ul></nav>"
    )
    item = (
        "<main><h1>Surface Laptop 13.8 inch</h1><p>Snapdragon X Plus, 16GB memory, 512GB storage.</p></main>"
    )
    thin = page(f"{menu}{item}{scripts}")
    assert thin.word_count < 30 and "quality_veto" not in thin.extra


def test_a_short_scripted_page_without_a_mount_point_keeps_its_words() -> None:
    scripts = "<script>var a = 1;</script>" * 3
    short = page(f"<p>Back soon: the shop reopens on Monday at nine.</p>{scripts}")
    assert short.extra.get("quality_veto") == "empty_shell"  # vetoed (quality near 0), not emptied
    assert "reopens on Monday" in short.content


def test_an_app_that_drew_a_short_page_keeps_it() -> None:
    rendered = page('<div id="root"><h1>Opening hours</h1><p>Monday to Friday, nine to five.</p></div>')
    assert "nine to five" in rendered.content


def test_a_sign_in_box_beside_content_is_no_login_wall() -> None:
    box = '<form class="account"><input type="text" name="user"><input type="password" name="pw"></form>'
    product = page(f"<header>{box}</header><main><h1>Rambler tumbler</h1>{PROSE[:400]}</p></main>")
    assert "quality_veto" not in product.extra
    assert product.quality is not None and product.quality > 0.3


def test_a_hidden_sign_in_form_is_no_login_wall() -> None:
    # Discourse's app shell, its scripts taken out: an empty main section and a sign-in form it hides
    form = '<input type="text" name="username"><input type="password" name="password">'
    hidden_form = f"<form id='hidden-login-form' style='display: none;'>{form}</form>"
    shell = page(f"<section id='main'></section>{hidden_form}")
    assert shell.extra.get("quality_veto") != "login_wall"
    shown = page(f"<section id='main'></section><form><div>{form}</div></form>")
    assert shown.extra.get("quality_veto") == "login_wall"
    inside = page(f"<section id='main'></section><div hidden><form>{form}</form></div>")
    assert inside.extra.get("quality_veto") != "login_wall"


def test_a_few_words_make_a_thin_page_whatever_their_title() -> None:
    thin = page("<p>esk8 calc donate now</p>")  # titled "A page", no link: all of it "prose"
    assert "quality_veto" not in thin.extra
    assert thin.quality is not None and thin.quality < 0.1
    fuller = page(f"<main>{PROSE[:700]}</p></main>")
    assert fuller.quality is not None and fuller.quality > thin.quality + 0.3


def test_a_short_page_about_a_not_found_error_is_no_soft_404() -> None:
    """A question or a fix whose topic is an error saying "not found" (a shell's, a server's) is a
    page, not a page missing; a page saying it is missing still is one."""
    question = (
        "<main><p>I installed node and opened a new terminal. Running npm gives the error below.</p>"
        "<pre><code>$ npm -v\nzsh: command not found: npm</code></pre>"
        "<p>I added /usr/local/bin to my PATH in .zshrc but nothing changed. Any ideas?</p></main>"
    )
    fix = (
        "<main><p>When nginx answers 404 Not Found for files that exist, check the root directive.</p></main>"
    )
    topics = [
        titled("zsh: command not found: npm after installing node", question),
        titled('Fix "404 Not Found" errors in nginx', fix),
    ]
    assert [extracted.extra.get("quality_veto") for extracted in topics] == [None, None]
    gone = [
        titled(
            "404 - File or directory not found.", "<p>The resource you are looking for has been removed.</p>"
        ),
        titled("Acme", "<h1>Error 404 (Not Found)!!1</h1><p>That’s all we know.</p>"),
        titled("Acme", "<p>The requested URL /x was not found on this server.</p>"),
    ]
    assert [extracted.extra.get("quality_veto") for extracted in gone] == ["soft_404"] * 3


def test_a_soft_404_in_another_language_is_vetoed() -> None:
    sayings = [
        ("Seite nicht gefunden", "<h1>Seite nicht gefunden</h1><p>Zur Startseite.</p>"),
        ("Acme", "<h1>Oups</h1><p>La page que vous cherchez est introuvable.</p>"),
        ("Página no encontrada | Acme", "<p>Vuelve al inicio.</p>"),
        ("Страница не найдена", "<p>Вернуться на главную.</p>"),
    ]
    assert [titled(title, body).extra.get("quality_veto") for title, body in sayings] == ["soft_404"] * 4
    topic = titled(
        "Befehl nicht gefunden: npm", "<main><p>Nach der Installation fehlt npm im PATH.</p></main>"
    )
    assert topic.extra.get("quality_veto") is None


def test_a_type_written_as_its_iri_is_that_type() -> None:
    """JSON-LD may write a type as its full IRI or with the `schema:` prefix: it is the same type."""
    for kind in ("http://schema.org/Product", "https://schema.org/Product", "schema:Product"):
        assert page(f"<article>{PROSE}</article>", head=ld(kind)).page_type == "product"


def test_a_cookie_wall_in_another_language_is_vetoed() -> None:
    walls = [
        "<h1>Bevor Sie zu Google weitergehen</h1><p>Wir verwenden Cookies und Daten.</p>"
        "<button>Alle akzeptieren</button><button>Alle ablehnen</button>",
        "<p>Nous utilisons des cookies pour mesurer l'audience.</p><button>Tout accepter</button>"
        "<button>Tout refuser</button>",
        "<p>Utilizamos cookies propias y de terceros.</p><button>Aceptar todo</button>",
    ]
    assert [page(body).extra.get("quality_veto") for body in walls] == ["cookie_wall"] * 3


def test_a_short_cookie_policy_is_no_cookie_wall() -> None:
    """A site's cookie policy says what a consent screen says ("we use cookies to..."): short, it was
    vetoed as a cookie wall, and a search dropped it as blocked_by_site."""
    policy = (
        "<article><h1>Cookie Policy</h1><p>We use cookies to remember your settings and to count visits. "
        "You can turn them off in your browser; the site keeps working without them.</p></article>"
    )
    assert titled("Cookie Policy | Ferret Club", policy).extra.get("quality_veto") is None
    assert (
        page(policy.replace("Cookie Policy", "Cookies"), url="https://ex.org/cookie-policy").extra.get(
            "quality_veto"
        )
        is None
    )
    french = "<p>Nous utilisons des cookies pour mesurer l'audience du site.</p>"
    assert titled("Politique de gestion des cookies", french).extra.get("quality_veto") is None
    settings = "<p>We use cookies to improve your experience.</p><button>Accept all cookies</button>"
    assert titled("Cookie settings", settings).extra.get("quality_veto") == "cookie_wall"


def test_a_hostile_title_of_underscores_is_read_once() -> None:
    """A consent screen titled `Politique a_a_a_...` (6,000 characters): the cookie policy's pattern
    tried every split of it into words at each `_` (minutes; 6 s at 1,600 characters). Run in a
    child, so a regression fails rather than hangs the suite. A policy's address in `_` words is one."""
    code = (
        "from webferret.extract.document import extract_document\n"
        "from webferret.extract.types import ExtractOptions\n"
        "wall = '<p>We use cookies to improve your visit.</p><button>Accept all cookies</button>'\n"
        "title = 'Politique ' + 'a_' * 3000\n"
        "body = f'<html><head><title>{title}</title></head><body>{wall}</body></html>'.encode()\n"
        "def veto(url):\n"
        "    page = extract_document(body, url=url, content_type='text/html', options=ExtractOptions())\n"
        "    return page.extra.get('quality_veto')\n"
        "assert veto('https://ex.org/p') == 'cookie_wall'\n"
        "assert veto('https://ex.org/' + title.replace(' ', '_')) == 'cookie_wall'\n"
        "assert veto('https://ex.org/politique_de_cookies') is None\n"
    )
    passes(code)


def test_a_login_wall_in_another_language_is_vetoed() -> None:
    walls = [
        "<h1>Nur für Abonnenten</h1><p>Melden Sie sich an, um weiterzulesen.</p>",
        "<h1>Réservé aux abonnés</h1><p>Connectez-vous pour lire la suite de cet article.</p>",
        "<h1>Contenido exclusivo</h1><p>Inicia sesión para continuar leyendo.</p>",
    ]
    assert [page(body).extra.get("quality_veto") for body in walls] == ["login_wall"] * 3


def test_a_soft_404_titled_by_its_site_and_saying_it_in_its_heading_is_vetoed() -> None:
    """An error page keeps the site's `<title>` and says "404" in its `<h1>`, below a menu of links
    the main content keeps: its text's first lines are the menu's, its heading says what it is."""
    menu = "<nav><ul>" + "".join(f'<li><a href="/c/{i}">Category number {i}</a></li>' for i in range(40))
    menu += "</ul></nav>"
    footer = f"<footer>{PROSE[:300]}</p><p>© 2026 Acme Corp</p></footer>"
    said = (
        "<p>Sorry, the page you requested does not exist.</p><p>Go back to the <a href='/'>home page</a>.</p>"
    )
    body = f"{menu}<main><h1>404</h1>{said}</main>{footer}"
    assert titled("Acme Corp", body).extra.get("quality_veto") == "soft_404"
    gone = f"{menu}<main><h1>Hmm, we can’t find that page</h1><p>Try the menu.</p></main>{footer}"
    assert titled("Error | Acme", gone).extra.get("quality_veto") == "soft_404"
    topic = "<main><h1>Fix 404 Not Found errors in nginx</h1><p>Check the root directive.</p></main>"
    assert titled("Acme", topic).extra.get("quality_veto") is None
    error_view = '<div id="error-view" style="display: none"><h1>Page not found</h1></div>'
    shown = f"{error_view}<main><h1>Opening hours</h1><p>Monday to Friday, nine to five.</p></main>"
    assert titled("Acme", shown).extra.get("quality_veto") is None

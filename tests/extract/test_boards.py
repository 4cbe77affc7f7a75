"""phpBB and Invision threads read post by post, each post under its author and date (`extract.boards`)."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

QUESTION = (
    "I just got a new board and want every LED off at night. The lines that worked on the old one "
    "do nothing here. Do you know why they are not working?"
)
CODE = "dtparam=act_led_trigger=none\ndtparam=pwr_led_activelow=off"
URL = "https://forums.example.org/viewtopic.php?t=361697"


def _post(number: int, line: str, text: str, profile: str = "") -> str:
    """One post of prosilver's template: a profile box, then the body's subject, author line, text."""
    return (
        f'<div id="p{number}" class="post has-profile bg{number % 2 + 1}"><div class="inner">'
        f'<dl class="postprofile"><dt>{profile}</dt><dd class="profile-posts">Posts: 4182</dd>'
        '<dd class="profile-joined">Joined: Tue Mar 18, 2014</dd></dl>'
        f'<div class="postbody"><div id="post_content{number}"><h3><a href="#p{number}">Re: LEDs off</a></h3>'
        '<ul class="post-buttons"><li><a href="./posting.php?mode=quote" title="Reply with quote">Quote</a>'
        f'</li></ul><p class="author">{line}</p><div class="content">{text}</div>'
        '<div class="signature">My other board is a toaster.</div></div></div>'
        '<div class="back2top"><a href="#top" class="top">Top</a></div></div></div>'
    )


def _name(name: str) -> str:
    return f'<a href="./memberlist.php?un={name}" class="username">{name}</a>'


def _page(posts: str, body: str = ' id="phpbb" class="nojs notouch section-viewtopic"') -> str:
    chrome = "".join(f'<li><a href="./viewforum.php?f={n}">Board {n}</a></li>' for n in range(10))
    return (
        "<html><head><title>LEDs off - Example Forums</title></head>"
        f'<body{body}><div id="wrap"><div class="navbar"><ul>{chrome}</ul></div>'
        '<h2 class="topic-title">LEDs off</h2>'
        '<div class="action-bar">Post Reply · 4 posts · Page 1 of 1</div>'
        f"{posts}"
        '<div class="copyright">Powered by phpBB® Forum Software © phpBB Limited</div></div></body></html>'
    )


POSTS = (
    _post(
        1,
        'Beitrag von <a href="./memberlist.php?u=1" class="username">b.scherer</a> » '  # a German board
        '<time datetime="2023-12-17T11:23:00+00:00">Sun Dec 17, 2023 11:23 am</time>',
        f"{QUESTION}<br>"
        '<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this)">Select all</a></p>'
        f"<pre><code>{CODE}</code></pre></div>",
    )
    + _post(
        2,
        "by <strong>Old Timer</strong> » Wed Dec 27, 2023 10:00 am",
        '<blockquote><cite><a href="./memberlist.php?u=9" class="username">quoted</a> wrote:</cite>'
        "Lines that worked before.</blockquote>Try the firmware update first.",
    )
    + _post(
        3,
        '<a href="#p3">#3</a> <time datetime="2023-12-28T18:40:00+00:00">Dec 28, 2023 6:40 pm</time>',
        "Black tape works too.",
        profile='<a href="./memberlist.php?u=3" class="username-coloured">ovecka</a>',
    )
    + _post(4, "Dec 29, 2023 9:02 am", "A bandana over it does the same.", profile=_name("lin"))
    + _post(5, "by ghost » Dec 30, 2023 1:00 am", " ", profile=_name("ghost"))
    + _post(6, "Guest post", "Thanks, all off now.", profile=_name("kim"))
)
THREAD = _page(POSTS)


def test_a_phpbb_thread_reads_each_post_under_its_author_and_date() -> None:
    extracted = extract_html(THREAD, URL, ExtractOptions())
    content = extracted.content
    assert extracted.extra["selector"] == "forum" and extracted.page_type == "forum"
    lines = [
        "**b.scherer** · Sun Dec 17, 2023 11:23 am",
        QUESTION,
        "**Old Timer** · Wed Dec 27, 2023 10:00 am",
        "Try the firmware update first.",
        "**ovecka** · Dec 28, 2023 6:40 pm",
        "Black tape works too.",
        "**lin** · Dec 29, 2023 9:02 am",
        "A bandana over it does the same.",
        "**kim**\n",
        "Thanks, all off now.",
    ]
    places = [content.index(line) for line in lines]
    assert places == sorted(places)
    assert f"```\n{CODE}\n```" in content and "Select all" not in content
    assert "quoted" in content and "**quoted**" not in content and "ghost" not in content
    for chrome in ("Board 3", "Posts: 4182", "Reply with quote", "toaster", "Powered by", "Re: LEDs off"):
        assert chrome not in content


def test_a_page_without_phpbbs_mark_or_without_posts_is_read_as_any_page() -> None:
    other = extract_html(_page(POSTS, body=""), URL, ExtractOptions())
    assert other.extra["selector"] != "forum"
    board = _page("<ul class='topiclist'>" + "".join(f"<li>Topic {n}</li>" for n in range(20)) + "</ul>")
    assert extract_html(board, URL, ExtractOptions()).extra["selector"] != "forum"


def _invision(number: int, name: str, stamp: str, shown: str, text: str, version: int = 4) -> str:
    """One post of Invision Community's template: version 4's author pane, or version 5's."""
    pane = (
        f'<aside class="ipsComment_author cAuthorPane"><h3 class="cAuthorPane_author"><strong>'
        f'<a href="/profile/{number}-{name}/">{name}</a></strong></h3><ul class="cAuthorPane_info">'
        "<li>Members</li><li>2.8k posts</li></ul></aside>"
        if version == 4
        else '<aside class="ipsEntry__author-column"><h3 class="ipsEntry__username">'
        f'<a href="/profile/{number}">{name}</a></h3><div class="ipsEntry__group">Members</div>'
        "<ul><li>563 posts</li></ul></aside>"
    )
    return (
        f'<article id="elComment_{number}" class="cPost ipsComment ipsEntry">{pane}'
        f'<div class="ipsComment_meta">Posted <time datetime="{stamp}">{shown}</time></div>'
        f'<div data-role="commentContent" class="ipsType_richText"><p>{text}</p></div>'
        '<ul class="ipsComment_controls"><li>Quote</li><li>Like 2</li></ul></article>'
    )


def _topic(posts: str) -> str:
    menu = "".join(f'<li><a href="/forums/{n}">Forum {n}</a></li>' for n in range(10))
    return (
        "<html><head><title>LEDs off - Example Community</title></head>"
        f'<body class="ipsApp ipsApp_front"><nav><ul>{menu}</ul></nav><h1>LEDs off</h1>'
        f'<article class="ipsTopic">{posts}</article><footer>Powered by Invision Community</footer>'
        "</body></html>"
    )


def test_an_invision_thread_reads_each_post_under_its_author_and_date() -> None:
    page = _topic(
        _invision(1, "ColdJ", "2024-06-14T08:00:00Z", "June 14, 2024", QUESTION)
        + _invision(2, "Lisias", "2024-06-15T09:00:00Z", "June 15, 2024", "Try the firmware update first.", 5)
        + _invision(3, "Jacke", "2024-06-16T10:00:00Z", "", "Black tape works too.")
    )
    extracted = extract_html(page, "https://community.example.org/topic/225132-leds-off/", ExtractOptions())
    content = extracted.content
    assert extracted.extra["selector"] == "forum"
    lines = [
        "**ColdJ** · June 14, 2024",
        QUESTION,
        "**Lisias** · June 15, 2024",
        "Try the firmware update first.",
        "**Jacke** · 2024-06-16T10:00:00Z",
        "Black tape works too.",
    ]
    places = [content.index(line) for line in lines]
    assert places == sorted(places) and content.count("ColdJ") == 1  # the topic's box is not a post
    for chrome in ("Forum 3", "2.8k posts", "563 posts", "Like 2", "Powered by"):
        assert chrome not in content


def test_a_flarum_thread_is_read_from_what_it_writes_for_readers_without_scripts() -> None:
    posts = "<hr>".join(
        f'<article><div class="PostUser"><h3 class="PostUser-name">{name}</h3></div>'
        f'<div class="Post-body"><p>{text}</p></div></article>'
        for name, text in (("antonjw", QUESTION), ("Toby", "Try the firmware update first."))
    )
    page = (
        "<html><head><title>LEDs off - Flarum Community</title></head><body>"
        '<div id="app" class="App"><div id="flarum-loading" style="display: none">Loading...</div>'
        f'<noscript id="flarum-content"><div class="container"><h1>LEDs off</h1><div>{posts}</div>'
        '<a href="/d/2068?page=2">Next Page &gt;</a></div></noscript></div>'
        '<script src="/assets/forum.js"></script></body></html>'
    )
    extracted = extract_html(page, "https://discuss.example.org/d/2068-leds-off", ExtractOptions())
    content = extracted.content
    assert extracted.extra["selector"] == "forum"
    lines = ["**antonjw**\n", QUESTION, "**Toby**\n", "Try the firmware update first."]
    places = [content.index(line) for line in lines]
    assert places == sorted(places) and "Next Page" not in content and "Loading" not in content


def test_a_fluxbb_thread_reads_each_post_under_its_author_and_date() -> None:
    posts = "".join(
        f'<div id="p{n}" class="blockpost rowodd"><h2><span><span class="conr">#{n}</span> '
        f'<a href="viewtopic.php?pid={n}#p{n}">2024-08-0{n} 10:59:47</a></span></h2><div class="box">'
        f'<div class="postbody"><div class="postleft"><dl><dt><strong>{name}</strong></dt>'
        '<dd class="usertitle"><strong>Member</strong></dd><dd><span>Posts: 98</span></dd></dl></div>'
        f'<div class="postright"><h3>Re: LEDs off</h3><div class="postmsg"><p>{text}</p></div></div>'
        '</div></div><div class="postfootright"><ul><li class="postquote">Quote</li></ul></div></div>'
        for n, name, text in ((1, "archuser", QUESTION), (2, "seth", "Try the firmware update first."))
    )
    page = (
        '<html><head><title>LEDs off / Forums</title></head><body><div id="punviewtopic" class="pun">'
        '<div id="brdmenu"><ul><li>Index</li><li>Rules</li><li>Search</li></ul></div>'
        f"{posts}</div></body></html>"
    )
    extracted = extract_html(page, "https://bbs.example.org/viewtopic.php?id=298271", ExtractOptions())
    content = extracted.content
    assert extracted.extra["selector"] == "forum"
    lines = ["**archuser** · 2024-08-01 10:59:47", QUESTION, "**seth** · 2024-08-02 10:59:47"]
    places = [content.index(line) for line in lines]
    assert places == sorted(places) and "Posts: 98" not in content and "#2" not in content


def _vb3(n: int, name: str, shown: str, text: str) -> str:
    """One post of vBulletin 3's template: a header row (date, post number), the profile, the text."""
    return (
        f'<div id="edit{n}"><table id="post{n}" class="tborder"><tr><td class="thead">{shown}</td>'
        f'<td class="thead">#<a href="showpost.php?p={n}"><strong>{n}</strong></a></td></tr>'
        f'<tr><td class="alt2"><div id="postmenu_{n}"><a class="bigusername" href="member.php?u={n}">{name}'
        '</a></div><div class="smallfont">Registered User</div><div>Join Date: Mar 2016</div></td>'
        f'<td class="alt1"><div class="smallfont"><strong>LEDs off</strong></div><div id="post_message_{n}">'
        f"{text}</div></td></tr></table></div>"
    )


def test_a_vbulletin_thread_reads_each_post_under_its_author_and_date() -> None:
    three = _vb3(1, "microfast", "30th March 2025, 16:26", QUESTION) + _vb3(
        2, "GeoffreyA", "2nd April 2025, 13:59", "Try the firmware update first."
    )
    four = (
        '<li class="postbit postcontainer" id="post_3"><div class="posthead"><span class="postdate">'
        '<span class="date">11-29-2024, <span class="time">09:03 AM</span></span></span></div>'
        '<div class="username_container"><a class="username" href="member.php?u=3"><strong>HOSTLAR</strong>'
        '</a><span class="usertitle">Disabled</span></div><div class="postbody"><div class="content">'
        '<div id="post_message_3"><blockquote class="postcontent">Black tape works too.</blockquote></div>'
        "</div></div></li>"
    )
    menu = "".join(f'<li><a href="forumdisplay.php?f={n}">Forum {n}</a></li>' for n in range(10))
    url = "https://forum.example.org/showthread.php?t=186269"
    for posts, lines in (
        (
            three,
            ["**microfast** · 30th March 2025, 16:26", QUESTION, "**GeoffreyA** · 2nd April 2025, 13:59"],
        ),
        (four, ["**HOSTLAR** · 11-29-2024, 09:03 AM", "Black tape works too."]),
    ):
        page = (
            "<html><head><title>LEDs off - Example Forum</title></head><body>"
            f'<ul class="menu">{menu}</ul><div id="posts">{posts}</div></body></html>'
        )
        extracted = extract_html(page, url, ExtractOptions())
        content = extracted.content
        assert extracted.extra["selector"] == "forum"
        places = [content.index(line) for line in lines]
        assert places == sorted(places)
        assert "Join Date" not in content and "Forum 3" not in content and "Disabled" not in content


def test_a_posts_number_after_its_date_is_left_out() -> None:
    page = _page(_post(7, "Feb 14, 2026 | 9:05 pm #7", "Thanks, all off now.", profile=_name("kim")))
    assert "**kim** · Feb 14, 2026 | 9:05 pm\n" in extract_html(page, URL, ExtractOptions()).content


def test_smf_and_mybb_threads_read_each_post_under_its_author_and_date() -> None:
    smf = "".join(
        f'<div class="windowbg" id="msg{n}"><div class="post_wrapper"><div class="poster"><h4>'
        f'<a href="index.php?action=profile;u={n}">{name}</a></h4><ul class="user_info">'
        '<li class="postgroup">SMF Hero</li><li class="postcount">Posts: 3,760</li></ul></div>'
        '<div class="postarea"><div class="keyinfo"><div class="postinfo">'
        f'<a href="index.php?msg={n}" class="smalltext">{shown}</a></div></div>'
        f'<div class="post"><div class="inner" id="msg_{n}">{text}</div></div></div></div></div>'
        for n, name, shown, text in (
            (1, "Biology Forums", "June 04, 2024, 11:23:55 AM", QUESTION),
            (2, "Kindred", "June 05, 2024, 08:01:02 AM", "Try the firmware update first."),
        )
    )
    mybb = "".join(
        f'<div class="post classic" id="post_{n}"><div class="post_author"><div class="author_information">'
        f'<strong><span class="largetext"><a href="user-{n}.html">{name}</a></span></strong><br>'
        '<span class="smalltext">Junior Member</span></div><div class="author_statistics">Posts: 12'
        f'</div></div><div class="post_content"><div class="post_head"><span class="post_date">{shown}</span>'
        f'</div><div class="post_body scaleimages" id="pid_{n}">{text}</div></div></div>'
        for n, name, shown, text in (
            (
                1,
                "StarredSkies",
                "2019-02-23, 09:14 PM <span class='post_edit'>(This post was last modified: 2024-01-05,"
                " 03:27 AM by StarredSkies. Edited 1 time in total.)</span>",
                QUESTION,
            ),
            (2, "Omar G.", "2019-02-24, 10:00 AM", "Try the firmware update first."),
        )
    )
    url = "https://forum.example.org/index.php?topic=589"
    for posts, lines in (
        (
            smf,
            [
                "**Biology Forums** · June 04, 2024, 11:23:55 AM",
                QUESTION,
                "**Kindred** · June 05, 2024, 08:01:02 AM",
            ],
        ),
        (mybb, ["**StarredSkies**\n", QUESTION, "**Omar G.** · 2019-02-24, 10:00 AM"]),
    ):
        page = f"<html><head><title>LEDs off</title></head><body><div id='forum'>{posts}</div></body></html>"
        extracted = extract_html(page, url, ExtractOptions())
        content = extracted.content
        assert extracted.extra["selector"] == "forum"
        places = [content.index(line) for line in lines]
        assert places == sorted(places) and "Try the firmware update first." in content
        assert "Posts:" not in content and "Hero" not in content and "Junior" not in content

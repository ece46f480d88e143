"""A thread written out in each forum's format, as the formats are documented (the adapters'
docstrings), from the posts of a pasted thread: what the tests' local HTTP server serves.

Discuz! X mobile API: ``{"Version", "Charset", "Variables": {"thread": {tid, subject, replies},
"postlist": [{pid, number, author, authorid, dateline, dbdateline, message}], "ppp"}}``, the
message HTML with a quote as ``<div class="quote"><blockquote>``. A saved Discuz! page: each
post a ``<div id="post_PID">``. NGA: ``{"data": {"__U", "__R": [{lou, authorid, postdate,
postdatetimestamp, content, alterinfo}], "__ROWS", "__T"}}`` with ``[quote]`` BBCode."""

from __future__ import annotations

import datetime as dt
import html
import json

CST = dt.timezone(dt.timedelta(hours=8))


def stamp(time: str) -> int:
    return int(dt.datetime.strptime(time, "%Y-%m-%d %H:%M:%S").replace(tzinfo=CST).timestamp())


def short(time: str) -> str:
    t = dt.datetime.strptime(time, "%Y-%m-%d %H:%M:%S")
    return f"{t.year}-{t.month}-{t.day} {t:%H:%M}"


def long(time: str) -> str:
    t = dt.datetime.strptime(time, "%Y-%m-%d %H:%M:%S")
    return f"{t.year}-{t.month}-{t.day} {t:%H:%M:%S}"


def uid(name: str) -> int:
    return 1000 + sum(ord(c) for c in name) % 9000


def _br(lines) -> str:
    return "<br />\r\n".join(html.escape(x) for x in lines)


def discuz_message(post, edited: dict[int, str]) -> str:
    parts = []
    if post.floor in edited:
        parts.append(f'<i class="pstatus"> 本帖最后由 {html.escape(post.author)} 于 {short(edited[post.floor])} 编辑 </i><br />\r\n')
    if post.quote is not None:
        q = post.quote
        parts.append('<div class="quote"><blockquote><font size="2"><font color="#999999">'
                     f'{html.escape(q.author)} 发表于 {short(q.time)}</font></font><br />\r\n{_br(q.lines)}</blockquote></div><br />\r\n')
    if post.reply_to is not None and post.quote is None:
        parts.append(f'<strong>回复 <a href="forum.php?mod=redirect&amp;goto=findpost&amp;pid={90000 + post.reply_to}&amp;ptid=4242"'
                     f' target="_blank">{post.reply_to}#</a> <i>{html.escape(post.author)}</i></strong><br />\r\n')
    parts.append(_br(post.lines))
    return "".join(parts)


def discuz_api_pages(posts, title: str, ppp: int = 5, charset: str = "UTF-8", edited=None) -> list[bytes]:
    edited = edited or {}
    pages = []
    for start in range(0, len(posts), ppp):
        chunk = posts[start:start + ppp]
        var = {"cookiepre": "x_", "formhash": "abcd1234", "member_uid": "0", "ppp": str(ppp),
               "thread": {"tid": "4242", "fid": "2", "author": posts[0].author, "subject": title,
                          "replies": str(len(posts) - 1), "views": "1024"},
               "postlist": [{"pid": str(90000 + p.floor), "tid": "4242", "first": "1" if p.floor == 1 else "0",
                             "author": p.author, "authorid": str(uid(p.author)), "dateline": short(p.time),
                             "dbdateline": str(stamp(p.time)), "message": discuz_message(p, edited),
                             "number": str(p.floor), "anonymous": "0", "status": "0"} for p in chunk]}
        doc = {"Version": "4", "Charset": charset, "Variables": var}
        enc = "gb18030" if charset.upper() == "GBK" else "utf-8"
        pages.append(json.dumps(doc, ensure_ascii=False).encode(enc))
    pages.append(json.dumps({"Version": "4", "Charset": charset, "Variables": {
        "thread": {"tid": "4242", "replies": str(len(posts) - 1)}, "postlist": []}}).encode())  # past the end
    return pages


def discuz_html_pages(posts, title: str, per_page: int = 5, charset: str = "gbk", edited=None) -> list[bytes]:
    edited = edited or {}
    pages = []
    names = {1: "楼主", 2: "沙发", 3: "板凳", 4: "地板"}
    n_pages = (len(posts) + per_page - 1) // per_page
    for start in range(0, len(posts), per_page):
        out = [f'<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset={charset}" />',
               f"<title>{html.escape(title)} - 版杀 - Powered by Discuz!</title></head><body>",
               f'<span id="thread_subject">{html.escape(title)}</span>',
               f'<div class="pg"><label><span title="共 {n_pages} 页"> / {n_pages} 页</span></label></div>']
        for p in posts[start:start + per_page]:
            pid = 90000 + p.floor
            floor = names.get(p.floor) or f"<em>{p.floor}</em><sup>#</sup>"
            out.append(f'''<div id="post_{pid}" ><table id="pid{pid}" class="plhin" summary="pid{pid}"><tr>
<td class="pls" rowspan="2"><div class="pi"><div class="authi"><a href="space-uid-{uid(p.author)}.html" target="_blank" class="xw1">{html.escape(p.author)}</a></div></div></td>
<td class="plc"><div class="pi"><strong><a href="forum.php?mod=redirect&amp;goto=findpost&amp;ptid=4242&amp;pid={pid}" id="postnum{pid}">{floor}</a></strong>
<div class="pti"><div class="authi"><em id="authorposton{pid}">发表于 <span title="{long(p.time)}">{short(p.time)}</span></em><span class="pipe">|</span><a href="#" rel="nofollow">只看该作者</a></div></div></div>
<div class="pct"><div class="pcb"><div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_{pid}">
{discuz_message(p, edited)}
</td></tr></table></div></div></div></td></tr></table></div>''')
        out.append("</body></html>")
        pages.append("\n".join(out).encode("gb18030" if charset.lower() == "gbk" else "utf-8"))
    return pages


def nga_pages(posts, title: str, per_page: int = 20, edited=None) -> list[bytes]:
    edited = edited or {}
    pages = []
    for start in range(0, len(posts), per_page):
        rows = []
        for p in posts[start:start + per_page]:
            # a literal "[b]" typed in the post (NGA shows what is typed as entities, not markup)
            content = "<br/>".join(html.escape(x, quote=False).replace("[", "&#91;").replace("]", "&#93;") for x in p.lines)
            if p.quote is not None:
                q = p.quote
                content = (f"[quote][pid={80000 + (q.floor or 0)},4242,1]Reply[/pid] [b]Post by [uid={uid(q.author)}]{q.author}[/uid]"
                           f" ({q.time[:16]}):[/b]<br/>" + "<br/>".join(q.lines) + "[/quote]<br/>" + content)
            if p.reply_to is not None and p.quote is None:
                content = (f"[b]Reply to [pid={80000 + p.reply_to},4242,1]Reply[/pid] Post by [uid={uid(p.author)}]"
                           f"{p.author}[/uid] ({p.time[:16]})[/b]<br/>" + content)
            rows.append({"content": content, "tid": 4242, "pid": 80000 + p.floor, "authorid": uid(p.author),
                         "lou": p.floor - 1, "postdate": p.time[:16], "postdatetimestamp": stamp(p.time),
                         "alterinfo": f"[E{stamp(edited[p.floor])} 0 0]" if p.floor in edited else ""})
        users = {str(uid(p.author)): {"uid": uid(p.author), "username": p.author} for p in posts}
        doc = {"code": 0, "data": {"__U": users, "__R": rows, "__ROWS": len(posts), "__R__ROWS_PAGE": per_page,
                                   "__T": {"subject": title, "replies": len(posts) - 1}, "__PAGE": start // per_page + 1}}
        pages.append(json.dumps(doc, ensure_ascii=False).encode("utf-8"))
    return pages

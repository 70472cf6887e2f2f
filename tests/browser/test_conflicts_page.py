"""tesmod conflicts --html, in a real browser (headless Chromium): what the page shows is what
`conflicts --json` says (rows, counts, filters, fields), in xEdit's colours, lazily, and nothing
taken from a plugin is ever read as markup."""
import io
import re
import time
from html.parser import HTMLParser

import pytest
from conftest import PAYLOAD_EDID, PAYLOAD_FULL, PAYLOAD_PLUGIN, PAYLOAD_PLUGIN_LEGAL, Order, make_order

import devtools

CHUNK = 250  # rows the page renders at a time
CATEGORIES = ["no_conflict", "override", "conflict"]
# xEdit's colours (README "Conflicts page"): backgrounds by category, text by version state.
BACKGROUND = {"no_conflict": (0xD9, 0xFF, 0xD9), "override": (0xFF, 0xFF, 0xD9), "conflict": (0xFF, 0xD9, 0xD9)}
TEXT = {"master": (0x80, 0x00, 0x80), "identical": (0x80, 0x80, 0x80), "override": (0x00, 0x80, 0x00),
        "itm_wins": (0x80, 0x80, 0x00), "wins": (0xFF, 0x80, 0x40), "loses": (0xFF, 0x00, 0x00)}


def text_colour(state, category, winner):
    """A version's text colour as xEdit's legend gives it."""
    if state == "master":
        return TEXT["master"]
    if state == "identical_to_master":
        return TEXT["itm_wins"] if category == "conflict" and winner else TEXT["identical"]
    if state == "wins":
        return TEXT["override"] if category == "override" else TEXT["wins"]
    return TEXT["loses"]


def rgb(css):
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def expected(js, cats=CATEGORIES, type=None, plugin=None, q=None):
    """The records the page shows for these filters, in its order (by type, then load order)."""
    out = []
    for i, r in enumerate(js["records"]):
        if r["category"] not in cats or (type and r["type"] != type) or (plugin and plugin not in r["versions"]):
            continue
        if q and not ((r["editor_id"] or "").lower().find(q.lower()) >= 0 or q.lower() in r["form_id"].lower()):
            continue
        out.append((r["type"], i))
    return [js["records"][i] for _, i in sorted(out)]


class Rows(HTMLParser):
    """The FormIDs of the rendered record rows, and the body's attributes, from --dump-dom."""

    def __init__(self):
        super().__init__()
        self.body, self.form_ids, self.counts, self.tags = {}, [], {}, []
        self._cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "body":
            self.body = a
        elif tag == "td" and "fid" in (a.get("class") or "").split():
            self._cell = "fid"
        elif tag == "span" and (a.get("id") or "").startswith("count-"):
            self._cell = a["id"]

    def handle_data(self, data):
        if self._cell == "fid":
            self.form_ids.append(data)
        elif self._cell:
            self.counts[self._cell[len("count-"):]] = int(data)
        self._cell = None


def dom_rows(chromium, url):
    parser = Rows()
    dom = devtools.dump_dom(chromium, url)
    parser.feed(dom)
    return parser, dom


def wait_for(browser, expression, timeout=10):
    """Polls until the expression is true (the search box filters after a pause)."""
    deadline = time.monotonic() + timeout
    while not browser.eval(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        time.sleep(0.05)


def test_page_is_self_contained_and_small(order):
    page = order.page.read_text(encoding="utf-8")
    assert len(page.encode()) <= 3 * order.json_size, (len(page.encode()), order.json_size)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page, re.I), "the page loads nothing from elsewhere"
    assert "<link" not in page and not re.search(r"<script[^>]*\bsrc=", page)
    assert "default-src 'none'" in page


def test_dump_dom_rows_and_counts_match_the_json(order, chromium):
    js = order.json
    rows, _ = dom_rows(chromium, order.url())
    assert "data-error" not in rows.body, rows.body.get("data-error")
    assert rows.body.get("data-ready") == "true"
    assert int(rows.body["data-shown"]) == len(js["records"]) > CHUNK
    assert int(rows.body["data-rendered"]) == CHUNK  # lazily: one chunk until the reader scrolls
    for c in CATEGORIES:
        assert rows.counts[c] == sum(r["category"] == c for r in js["records"]), c
    assert rows.form_ids == [r["form_id"] for r in expected(js)[:CHUNK]]


@pytest.mark.parametrize("query", ["cat=conflict", "cat=override&type=STAT", "plugin=Mod_03.esp",
                                   "cat=no_conflict,conflict&plugin=Patch.esp", "q=edid"])
def test_query_string_filters(order, chromium, query):
    js = order.json
    params = dict(p.split("=", 1) for p in query.split("&"))
    if params.get("q") == "edid":  # a few letters of an EditorID that no FormID holds
        edid = next(r["editor_id"] for r in js["records"] if r["editor_id"] and len(r["editor_id"]) > 8)
        params["q"] = next(edid[k:k + 5] for k in range(len(edid) - 4) if re.search("[g-zG-Z]", edid[k:k + 5]))
        query = "q=" + params["q"]
    want = expected(js, cats=params.get("cat", ",".join(CATEGORIES)).split(","), type=params.get("type"),
                    plugin=params.get("plugin"), q=params.get("q"))
    assert want, f"{query} selects nothing: a test that could not fail"
    rows, _ = dom_rows(chromium, order.url("?" + query))
    assert int(rows.body["data-shown"]) == len(want)
    assert rows.form_ids == [r["form_id"] for r in want[:CHUNK]]


ROWS_JS = """JSON.stringify([...document.querySelectorAll('#rows tr.rec')].map(tr => [
  tr.cells[0].textContent, tr.cells[1].textContent, getComputedStyle(tr).backgroundColor,
  [...tr.querySelectorAll('td.v')].map(td => [td.textContent, getComputedStyle(td).color,
                                              getComputedStyle(td).fontStyle === 'italic'])]))"""


def rendered(browser):
    import json
    return json.loads(browser.eval(ROWS_JS))


def test_rows_are_coloured_as_xedit_colours_them(order, browser):
    browser.load(order.url())
    got = rendered(browser)
    want = expected(order.json)[:CHUNK]
    assert len(got) == len(want)
    states_seen = set()
    for (fid, edid, bg, versions), r in zip(got, want):
        assert fid == r["form_id"] and edid == (r["editor_id"] or "")
        assert rgb(bg) == BACKGROUND[r["category"]], (fid, bg, r["category"])
        assert [v[0] for v in versions] == r["versions"]
        for k, (name, colour, italic) in enumerate(versions):
            winner = k == len(versions) - 1
            assert rgb(colour) == text_colour(r["states"][k], r["category"], winner), (fid, name, colour, r["states"])
            states_seen.add(r["states"][k])
        assert [v[2] for v in versions] == [name in r["itpo"] for name in r["versions"]]
    assert {"master", "wins", "identical_to_master"} <= states_seen


def test_expanded_record_shows_the_differing_fields(order, browser):
    r = next(r for r in order.json["records"] if r["category"] == "conflict" and r["fields"]) if any(
        r["category"] == "conflict" and r["fields"] for r in order.json["records"]) else next(
        r for r in order.json["records"] if r["fields"])
    browser.load(order.url(f"?q={r['form_id']}&open={r['form_id']}"))
    import json
    table = json.loads(browser.eval("""JSON.stringify([...document.querySelectorAll('tr.detail table.fields tr')].map(
        tr => [...tr.cells].map(c => c.textContent)))"""))
    assert table[0] == ["field", *r["versions"]]
    assert table[1:] == [[f["field"], *[v if v is not None else "(none)" for v in f["values"]]] for f in r["fields"]]


def test_keyboard_opens_a_row(order, browser):
    browser.load(order.url())
    browser.eval("const tr = document.querySelector('tr.rec'); tr.focus();"
                 "tr.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}))")
    assert browser.eval("document.activeElement.matches('tr.rec.open') && "
                        "document.activeElement.nextElementSibling.matches('tr.detail')")


def test_a_tall_window_fills_itself(order, browser):
    """When the end of the rows is still in sight after a chunk, the next chunk follows."""
    browser.call("Emulation.setDeviceMetricsOverride", session=True, width=1280, height=12000, deviceScaleFactor=1,
                 mobile=False)
    try:
        browser.load(order.url())
        wait_for(browser, f"Number(document.body.dataset.rendered) > {CHUNK}")
        wait_for(browser, "document.getElementById('more').getBoundingClientRect().top > innerHeight + 600 ||"
                          "!document.getElementById('more-button')")
    finally:
        browser.call("Emulation.setDeviceMetricsOverride", session=True, width=1280, height=900, deviceScaleFactor=1,
                     mobile=False)


def test_filter_clicks(order, browser):
    js = order.json
    browser.load(order.url())
    browser.eval("document.getElementById('cat-no_conflict').click()")
    want = expected(js, cats=["override", "conflict"])
    assert int(browser.eval("document.body.dataset.shown")) == len(want)
    assert [g[0] for g in rendered(browser)] == [r["form_id"] for r in want[:CHUNK]]
    assert "cat=override%2Cconflict" in browser.eval("location.search") or "cat=override,conflict" in browser.eval(
        "decodeURIComponent(location.search)")
    browser.eval("const s = document.getElementById('type-filter'); s.value = 'STAT'; s.dispatchEvent(new Event('change'))")
    want = expected(js, cats=["override", "conflict"], type="STAT")
    assert want and int(browser.eval("document.body.dataset.shown")) == len(want)
    assert [g[0] for g in rendered(browser)] == [r["form_id"] for r in want[:CHUNK]]
    # Back to everything, then "show more" until every row is there.
    browser.eval("document.getElementById('cat-no_conflict').click(); const t = document.getElementById('type-filter');"
                 "t.value = ''; t.dispatchEvent(new Event('change'))")
    total = len(js["records"])
    assert int(browser.eval("document.body.dataset.shown")) == total
    while browser.eval("!!document.getElementById('more-button')"):
        browser.eval("document.getElementById('more-button').click()")
    assert int(browser.eval("document.body.dataset.rendered")) == total
    assert [g[0] for g in rendered(browser)] == [r["form_id"] for r in expected(js)]
    # Typing in the search box filters after a pause.
    browser.eval("const q = document.getElementById('search'); q.value = 'STAT'; q.dispatchEvent(new Event('input'))")
    wait_for(browser, f"document.body.dataset.shown === '{len(expected(js, q='STAT'))}'")


def test_form_id_in_a_field_links_to_its_row(order, browser):
    js = order.json
    keys = {(r["file"].lower(), int(r["form_id"], 16) & 0xFFFFFF): r for r in js["records"]}
    source = target = None
    for r in js["records"]:
        for f in r["fields"]:
            for v in f["values"]:
                for m in re.finditer(r"([^\s:\"'=,;()\[\]{}]+\.es[mpl]):([0-9A-Fa-f]{8})\b", v or ""):
                    hit = keys.get((m.group(1).lower(), int(m.group(2), 16) & 0xFFFFFF))
                    if hit and hit is not r:
                        source, target = r, hit
                        break
    assert source, "no field names another record that has a row"
    browser.load(order.url(f"?q={source['form_id']}&open={source['form_id']}"))
    link = f"tr.detail a.fl[href='#{target['form_id']}']"
    assert browser.eval(f"!!document.querySelector(\"{link}\")")
    browser.eval(f"document.querySelector(\"{link}\").click()")
    assert browser.eval("document.getElementById('search').value") == target["form_id"]
    assert browser.eval("document.querySelector('tr.rec.open').cells[0].textContent") == target["form_id"]
    assert browser.eval("!!document.querySelector('tr.rec.open + tr.detail')")


def test_screenshot_shows_the_legend_colours(order, browser):
    from PIL import Image
    browser.load(order.url())
    browser.eval("document.getElementById('legend-details').open = true; window.scrollTo(0, 0)")
    shot = Image.open(io.BytesIO(browser.screenshot())).convert("RGB")
    colours = set(shot.getdata())
    for name, c in {**BACKGROUND, **TEXT}.items():
        assert c in colours, f"{name} #{c[0]:02X}{c[1]:02X}{c[2]:02X} not in the screenshot"
    # Rows of each category present in the order, painted in its colour.
    for cat in CATEGORIES:
        if any(r["category"] == cat for r in order.json["records"]):
            browser.load(order.url(f"?cat={cat}"))
            browser.eval("document.getElementById('rows').scrollIntoView()")
            shot = Image.open(io.BytesIO(browser.screenshot())).convert("RGB")
            assert BACKGROUND[cat] in set(shot.getdata()), cat


def test_strings_from_plugins_are_text_never_markup(hostile, chromium, browser):
    order, form_id = hostile
    page = order.page.read_text(encoding="utf-8")
    assert "<script>document" not in page and "<img src=x" not in page
    rows, dom = dom_rows(chromium, order.url(f"?q={form_id}&open={form_id}"))
    assert "data-pwned" not in dom
    assert [t for t, a in rows.tags if t == "img"] == []
    assert int(rows.body["data-shown"]) >= 1
    assert "&lt;script&gt;document.body.dataset.pwned='edid'&lt;/script&gt;" in dom
    browser.load(order.url(f"?q={form_id}&open={form_id}"))
    assert browser.eval("document.body.dataset.pwned === undefined")
    assert browser.eval("document.querySelectorAll('img').length") == 0
    assert browser.eval("document.querySelector('tr.rec').cells[1].textContent") == PAYLOAD_EDID
    cells = browser.eval("[...document.querySelectorAll('tr.detail td.val')].map(c => c.textContent)")
    # Field values as `tesmod export` writes them: strings quoted, `"` escaped.
    assert '"' + PAYLOAD_EDID + '"' in cells and '"' + PAYLOAD_FULL.replace('"', '\\"') + '"' in cells
    assert browser.eval("document.title") == "Conflicts: " + str(order.data.resolve())
    names = browser.eval("[...document.querySelectorAll('#order-rows td:nth-child(2)')].map(c => c.textContent)")
    assert PAYLOAD_PLUGIN in names and PAYLOAD_PLUGIN_LEGAL in names
    problems = browser.eval("[...document.querySelectorAll('#problem-list li')].map(c => c.textContent)")
    assert any(PAYLOAD_PLUGIN in p for p in problems)  # left out of the order, and said so
    assert PAYLOAD_PLUGIN_LEGAL in browser.eval("[...document.querySelectorAll('#plugin-filter option')].map(o => o.value)")
    browser.eval("document.getElementById('search').value = ''; document.getElementById('search')"
                 ".dispatchEvent(new Event('input'))")
    wait_for(browser, f"document.body.dataset.shown === '{len(order.json['records'])}'")
    assert PAYLOAD_PLUGIN_LEGAL in browser.eval("[...document.querySelectorAll('td.v')].map(c => c.textContent)")


def test_a_hundred_plugins_stay_usable(tesmod, work, browser):
    data = make_order(work, "order100", "sse", 33, 6000, 11, 100)
    order = Order(tesmod, data)
    records = len(order.json["records"])
    assert records > 4 * CHUNK
    assert order.page.stat().st_size <= 3 * order.json_size
    start = time.monotonic()
    browser.load(order.url())
    ready = time.monotonic() - start
    assert ready < 10, f"the page took {ready:.1f} s to show its first rows"
    assert int(browser.eval("document.body.dataset.rendered")) == CHUNK
    assert int(browser.eval("document.body.dataset.shown")) == records
    # Scrolling to the end brings the next rows.
    browser.eval("window.scrollTo(0, document.body.scrollHeight)")
    deadline = time.monotonic() + 10
    while int(browser.eval("document.body.dataset.rendered")) == CHUNK and time.monotonic() < deadline:
        time.sleep(0.1)
    assert int(browser.eval("document.body.dataset.rendered")) == 2 * CHUNK

#!/usr/bin/env python3
"""How usable the conflicts page is in a browser: headless Chromium through the DevTools protocol
(tests/browser/devtools.py), RUNS loads of PAGE, medians of
  load      navigation to the page's first rows shown (data-ready: data parsed, rows rendered);
  filter    a category box clicked to rows shown again (every record filtered, rows rebuilt);
  search    a text typed to rows shown (includes the page's 150 ms pause after typing);
  more      the next rows after scrolling to the end.
    page_bench.py PAGE RUNS
Prints one JSON object."""
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
import devtools  # noqa: E402

page, runs = Path(sys.argv[1]).resolve(), int(sys.argv[2])
times = {"load": [], "filter": [], "search": [], "more": []}


def until(b, expression):
    while not b.eval(expression):
        time.sleep(0.002)


with devtools.Browser(devtools.find_chromium()) as b:
    for _ in range(runs):
        t = time.perf_counter()
        b.load(page.as_uri())  # until the page says it is ready
        times["load"].append(time.perf_counter() - t)
        shown = b.eval("document.body.dataset.shown")
        t = time.perf_counter()
        b.eval("document.getElementById('cat-no_conflict').click()")
        until(b, f"document.body.dataset.shown !== '{shown}'")
        times["filter"].append(time.perf_counter() - t)
        t = time.perf_counter()
        b.eval("const q = document.getElementById('search'); q.value = 'Ref'; q.dispatchEvent(new Event('input'))")
        until(b, "location.search.includes('q=Ref')")
        times["search"].append(time.perf_counter() - t)
        b.eval("document.getElementById('search').value = ''; document.getElementById('search').dispatchEvent(new Event('input'))")
        until(b, "!location.search.includes('q=')")
        rendered = b.eval("document.body.dataset.rendered")
        t = time.perf_counter()
        b.eval("window.scrollTo(0, document.body.scrollHeight)")
        until(b, f"document.body.dataset.rendered !== '{rendered}'")
        times["more"].append(time.perf_counter() - t)
print(json.dumps({k: statistics.median(v) * 1000 for k, v in times.items()} | {"runs": runs}))

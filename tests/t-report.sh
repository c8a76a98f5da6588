#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/t-report.sh: `rtvirt report` on a real store of `make demo`
# (tests/data/report/, virt=tcg, untrusted), rendered in headless Chromium:
# every plot of the page is there, is an SVG with drawn
# paths and has no script; the page has no broken link and nothing from the
# network; it says virt=tcg and untrusted; the screenshot is a PNG; every
# number of its tables equals `rtvirt compare --json` (data-v attributes,
# and the rounded text); store text that is markup or gnuplot syntax is
# escaped, never run; a raw path out of the store is not followed.
# Needs gnuplot and chromium (make deps); skips without them.
set -u
rtvirt=${RV_BUILD:?}/rtvirt
top=${RV_TOP:?}
. "${RV_TOP:?}/tests/tap.sh"

need_cmds gnuplot chromium jq python3
store=$(ls -d "$top"/tests/data/report/*-demo | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..15"

"$rtvirt" report "$store" -o "$tmp/r" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "rtvirt report exits 0 and names the page ($(head -c 300 "$tmp/err"))" \
    eval '[ $rc -eq 0 ] && grep -qx "Report: $tmp/r/index.html" "$tmp/out" && [ -s "$tmp/r/index.html" ]'

# headless Chromium: its own profile and cache under $tmp, no network use
chrome() {
    HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --no-first-run --user-data-dir="$tmp/chrome" --window-size=1200,3400 "$@" 2>>"$tmp/chrome.log"
}
chrome --dump-dom "file://$tmp/r/index.html" >"$tmp/dom.html"
chrome --screenshot="$tmp/shot.png" "file://$tmp/r/index.html" >/dev/null
check "Chromium renders the page (DOM dumped: $(wc -c <"$tmp/dom.html") bytes)" \
    grep -q '<h1>' "$tmp/dom.html"
check "the screenshot is a PNG of the page ($(stat -c %s "$tmp/shot.png" 2>/dev/null) bytes)" \
    eval '[ "$(head -c 8 "$tmp/shot.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ] &&
          [ "$(stat -c %s "$tmp/shot.png")" -gt 20000 ]'

python3 - "$tmp/dom.html" "$tmp/r" >"$tmp/py" 2>&1 <<'PY'
import sys, os, re
from html.parser import HTMLParser
dom, root = sys.argv[1], sys.argv[2]
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.imgs = []; s.links = []; s.scripts = 0; s.text = []
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "img": s.imgs.append(a.get("src", ""))
        if tag == "a" and "href" in a: s.links.append(a["href"])
        if tag == "script": s.scripts += 1
        for k in ("src", "href"):
            if k in a and re.match(r"^(https?:|//)", a[k]): s.text.append("NETWORK " + a[k])
    def handle_data(s, d): s.text.append(d)
p = P(); p.feed(open(dom).read())
def say(ok, what): print(("ok " if ok else "FAIL ") + what)
kinds = sorted(set(re.sub(r"^g\d+-", "", i) for i in p.imgs))
say(all(k in kinds for k in ("hist.svg", "pct.svg", "spread.svg")),
    "the page has the histogram, percentile and spread plots: %s" % p.imgs)
bad = []
for i in p.imgs:
    f = os.path.join(root, i)
    t = open(f).read() if os.path.isfile(f) and not os.path.isabs(i) else ""
    if not (t.startswith("<?xml") and "<svg" in t and re.search(r'<path[^>]* d=[\'"][^\'"]+', t)
            and "<script" not in t):
        bad.append(i)
say(p.imgs and not bad, "every plot is an SVG file beside the page with drawn paths and no script %s"
    % (bad or len(p.imgs)))
broken = [l for l in p.links if not l.startswith("#") and
          (os.path.isabs(l) or ".." in l.split("/") or not os.path.isfile(os.path.join(root, l)))]
say(p.links and not broken, "no broken link (%d links, broken: %s)" % (len(p.links), broken[:3]))
raw = [l for l in p.links if "/raw/" in l]
say(len(raw) >= 4, "links to the raw outputs (%d)" % len(raw))
text = " ".join(p.text)
say(p.scripts == 0 and "NETWORK" not in text, "no script and nothing from the network")
say("virt=tcg" in text and "UNTRUSTED" in text and "NO, untrusted" in text,
    "the page says virt=tcg and untrusted")
PY
while read -r word rest; do check "$rest" [ "$word" = ok ]; done <"$tmp/py"

# the numbers of the page are compare's (parse both)
"$rtvirt" compare --json "$store" >"$tmp/cmp.json"
python3 - "$tmp/dom.html" "$tmp/cmp.json" >"$tmp/py2" 2>&1 <<'PY'
import sys, json, math
from html.parser import HTMLParser
dom, cj = sys.argv[1], json.load(open(sys.argv[2]))
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.table = None; s.cur = None; s.cell = None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "table": s.table = (a.get("class"), a.get("data-group"))
        if tag == "tr" and s.table: s.cur = {"t": s.table, "a": a, "v": []}
        if tag == "td" and s.cur is not None: s.cell = [a.get("data-v"), ""]
    def handle_data(s, d):
        if s.cell is not None: s.cell[1] += d
    def handle_endtag(s, tag):
        if tag == "td" and s.cell is not None: s.cur["v"].append(s.cell); s.cell = None
        if tag == "tr" and s.cur is not None:
            if s.cur["v"]: s.rows.append(s.cur)
            s.cur = None
p = P(); p.feed(open(dom).read())
def say(ok, what): print(("ok " if ok else "FAIL ") + what)
def same(v, j):
    return (v is None and j is None) or (v is not None and j is not None and float(v) == float(j))
def shown(text, j):
    if j is None: return text == "-"
    t = text.replace("<=", "")
    return abs(float(t) - j) <= (0.5 if abs(j) >= 100 or j == int(j) else 0.005) + 1e-9
groups = {(g["workload"] + " " + g["target"]): g for g in cj["groups"]}
cols = ["n", "failed", "mean", "stddev", "sem", "min", "max", "change_pct", "p"]
checked, bad = 0, []
for r in p.rows:
    cls, grp = r["t"]
    g = groups.get(grp)
    if cls == "metrics":
        m = next(m for m in g["metrics"] if m["name"] == r["a"]["data-metric"])
        j = next(x for x in m["rows"] if x["scenario"] == r["a"]["data-scenario"])
        cells = r["v"][3:]
        for c, (v, text) in zip(cols, cells):
            checked += 1
            if not same(v, j[c]) or not shown(text.strip(), j[c]): bad.append((grp, m["name"], c, v, text, j[c]))
    elif cls == "lat":
        j = next(x for x in g["latency"] if x["scenario"] == r["a"]["data-scenario"])
        for c, (v, text) in zip(["repetitions", "samples", "overflows", "p50", "p99", "p99_9", "p99_99", "max"], r["v"][1:]):
            checked += 1
            beyond = j.get(c + "_beyond_range", False)
            if not same(v, j[c]) or not shown(text.strip(), j[c]) or (text.startswith("<=") != bool(beyond)):
                bad.append((grp, "latency", c, v, text, j[c]))
n_rows = sum(1 for g in cj["groups"] for m in g["metrics"] for x in m["rows"] if x["n"] or x["failed"])
say(checked > 50 and not bad, "%d numbers of the page equal compare --json %s" % (checked, bad[:3]))
say(sum(1 for r in p.rows if r["t"][0] == "metrics") == n_rows,
    "every compare row with repetitions is in the page (%d)" % n_rows)
PY
while read -r word rest; do check "$rest" [ "$word" = ok ]; done <"$tmp/py2"

# a budget on this TCG store is never a PASS: "not judged", exit 1, as compare
"$rtvirt" report "$store" -o "$tmp/rb" --budget 'max_us<=50' >/dev/null 2>"$tmp/err"; rc=$?
"$rtvirt" compare --json --budget 'max_us<=50' "$store" >"$tmp/cb.json" 2>/dev/null
nj=$(jq '[.budgets[] | select(.verdict == "NOT JUDGED")] | length' "$tmp/cb.json")
check "report --budget 'max_us<=50' on the TCG store: exit 1 ($rc), $nj NOT JUDGED verdicts as compare's" \
    eval '[ $rc -eq 1 ] && [ "$nj" -ge 1 ] &&
          [ "$(grep -c "<strong>NOT JUDGED</strong>" "$tmp/rb/index.html")" = "$nj" ] &&
          ! grep -q "<strong>PASS</strong>" "$tmp/rb/index.html"'

# hostile store text: markup and gnuplot syntax in a scenario name, a raw
# path out of the store
evil='<b>x</b>"`touch '"$tmp"'/pwned`'"'"'@x'
mkdir -p "$tmp/evil" && cp -a "$store/." "$tmp/evil/"
jq --arg e "$evil" '(.scenarios[] | select(.name == "pinned") | .name) = $e |
    (.records[] | select(.scenario == "pinned") | .scenario) = $e |
    .records[0].raw += ["raw/../../../../etc/passwd"]' "$store/run.json" >"$tmp/evil/run.json"
"$rtvirt" report "$tmp/evil" -o "$tmp/re" >/dev/null 2>"$tmp/err"; rc=$?
check "a scenario named with markup and backquotes: report exits 0 ($(head -c 200 "$tmp/err")), gnuplot ran nothing" \
    eval '[ $rc -eq 0 ] && [ ! -e "$tmp/pwned" ]'
check "the name is escaped in the page, its raw path out of the store is not linked" \
    eval 'grep -qF "&lt;b&gt;x&lt;/b&gt;" "$tmp/re/index.html" && ! grep -qF "<b>x" "$tmp/re/index.html" &&
          ! grep -q "href=\"[^\"]*passwd" "$tmp/re/index.html" && [ ! -e "$tmp/re/etc" ] &&
          ! find "$tmp/re" -name passwd | grep -q .'

# every latency beyond the histogram (doc/examples/coresched-vs-nosmt-lab:
# guests nested under TCG, cyclictest's 200-us histogram all overflow): the
# page is written without that plot; before, gnuplot failed on a data file
# with no valid point and report exited 2
lab=$(ls -d "$top"/doc/examples/coresched-vs-nosmt-lab/*-coresched-vs-nosmt-lab | head -n 1)
"$rtvirt" report "$lab" -o "$tmp/lab" >"$tmp/lab.out" 2>"$tmp/lab.err"; rc=$?
check "report of a store whose every latency overflows its histogram (exit $rc: $(head -c 200 "$tmp/lab.err"))" \
    eval '[ $rc -eq 0 ] && [ -s "$tmp/lab/index.html" ] && [ ! -e "$tmp/lab/g1-hist.svg" ] && [ -s "$tmp/lab/g1-pct.svg" ]'

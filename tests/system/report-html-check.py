#!/usr/bin/env python3
# Checks of the HTML report for tests/system/report-html.sh, with
# python3-minimal alone (zlib and struct; no PIL):
#   tables CMP.json OUT.html  every variant and every cell's mean, as the
#       table formats it (recomputed here from raidlab compare --json's
#       figures), in its test's table; every answer in words (its
#       samples' reasons apart)
#   png SHOT.png MIN_HEIGHT MIN_PIXELS  the screenshot is not blank, the
#       first two chart colours cover MIN_PIXELS pixels each, and charts
#       were drawn below MIN_HEIGHT (the page was captured beyond its
#       first screen)
#   fleet CMP.json DOM.html  the fleet section (as a browser's --dump-dom
#       gives the page back): every combined answer of compare --json's
#       "fleet" in the list; per test and variant a row group with each
#       host's change, interval and verdict word, and the combined row
#       with its change, interval, verdict and how the hosts agree, the
#       figures formatted here from the JSON's
#   colours SHOT.png MIN HEX,...  each colour covers MIN pixels at least
#   points OUT.html KIND MAX  every line of every chart of KIND ("series",
#       "members") has at most MAX vertices, and at least one has some
# Exits 1 with the reasons on failure.
import html
import json
import re
import struct
import sys
import zlib


def fail(msg):
    print("report-html-check: " + msg, file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- tables

def fmt_value(v, unit):
    """compare_format_value(): two decimals under 100 and for seconds,
    one under 10000, none above; no figure is "-"."""
    if v is None:
        return "-"
    if unit == "seconds" or abs(v) < 100:
        return "%.2f" % v
    if abs(v) < 10000:
        return "%.1f" % v
    return "%.0f" % v


def section(page, k):
    m = re.search(r'<section id="t-%d">(.*?)</section>' % k, page, re.S)
    if m is None:
        fail("no section for test %d" % k)
    return m.group(1)


def check_tables(cmp_path, html_path):
    cmp = json.load(open(cmp_path))
    page = open(html_path, encoding="utf-8").read()
    problems = []
    for k, t in enumerate(cmp["tests"]):
        sec = section(page, k)
        for r in t["rows"]:
            name = html.escape(r["variant"], quote=False)
            row = re.search(r'<tr><th scope="row">[^<]*<span[^>]*>[^<]*'
                            r'</span>%s</th>(.*?)</tr>' % re.escape(name),
                            sec, re.S)
            if row is None:
                problems.append("test %s: no row for %s" % (t["key"], name))
                continue
            want = fmt_value(r["mean"], t["unit"])
            cells = re.findall(r'<td[^>]*>(?:\u2605 )?([^<]*)</td>',
                               row.group(1))
            if want not in cells:
                problems.append("test %s, %s: mean %s not in %s" %
                                (t["key"], name, want, cells))
            # the page says a sample's reasons once, in its own line,
            # not again in each answer resting on it
            answer = (r.get("answer") or "").split(
                "; the verdict rests on an unstable sample: ")[0]
            if answer and answer not in html.unescape(sec):
                problems.append("test %s, %s: answer %r missing" %
                                (t["key"], name, answer))
    if problems:
        fail("; ".join(problems))
    print("tables: %d tests checked" % len(cmp["tests"]))


# ---------------------------------------------------------------- fleet

def fmt_pct(v):
    """compare_format_pct()."""
    if v is None:
        return ""
    if abs(v) >= 99.95:
        return "%+.0f%%" % v
    return "%+.1f%%" % v


def fmt_change(pct, lo, hi):
    if pct is not None and lo is not None and hi is not None:
        return "%s (%s \u2013 %s)" % (fmt_pct(pct), fmt_pct(lo), fmt_pct(hi))
    return fmt_pct(pct)


WORDS = {"better": "faster", "worse": "slower", "same": "the same",
         "unsure": "can't tell"}


def cells(row):
    return [html.unescape(re.sub(r"<[^>]*>", "", c)).strip() for c in
            re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]


def check_fleet(cmp_path, dom_path):
    fleet = json.load(open(cmp_path))["fleet"]
    page = open(dom_path, encoding="utf-8").read()
    m = re.search(r'<section class="fleet">(.*?)</section>', page, re.S)
    if m is None:
        fail("no fleet section in the page")
    sec = m.group(1)
    problems = []
    answers = [html.unescape(re.sub(r"<[^>]*>", "", li)) for li in
               re.findall(r"<li>(.*?)</li>", sec, re.S)]
    groups = re.findall(r"<tbody>(.*?)</tbody>", sec, re.S)
    if len(groups) != len(fleet["tests"]):
        fail("%d row groups for %d tests and variants" %
             (len(groups), len(fleet["tests"])))
    for t, g in zip(fleet["tests"], groups):
        what = "%s %s" % (t["key"], t["variant"])
        if not any(a.endswith(": " + t["combined"]["text"]) for a in answers):
            problems.append("%s: answer %r missing" %
                            (what, t["combined"]["text"]))
        rows = [cells(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", g, re.S)]
        if len(rows) != len(t["hosts"]) + 1:
            problems.append("%s: %d rows for %d hosts" %
                            (what, len(rows), len(t["hosts"])))
            continue
        if rows[0][1] != t["variant"]:
            problems.append("%s: variant cell %r" % (what, rows[0][1]))
        for h, r in zip(t["hosts"], rows):
            r = r[2:] if r is rows[0] else r
            want = [h["host"], "%d / %d" % (h["n"], h["n_base"]),
                    fmt_change(h["change"], h["pct_lo"], h["pct_hi"])]
            if r[:3] != want:
                problems.append("%s: host row %r, want %r" % (what, r, want))
            if h["verdict"] in WORDS and r[3] != WORDS[h["verdict"]]:
                problems.append("%s, %s: verdict %r, want %r" %
                                (what, h["host"], r[3], WORDS[h["verdict"]]))
        c, r = t["combined"], rows[-1]
        want = ["all %d hosts" % len(t["hosts"]), "%d" % c["hosts"],
                fmt_change(c["change"], c["pct_lo"], c["pct_hi"])]
        if r[:3] != want:
            problems.append("%s: combined row %r, want %r" % (what, r, want))
        if c["verdict"] in WORDS and r[3] != WORDS[c["verdict"]]:
            problems.append("%s: combined verdict %r" % (what, r[3]))
        # the answer's tail: how many hosts agree, how much they differ
        if c["verdict"] != "none" and (not r[4] or
                                       not c["text"].endswith(r[4])):
            problems.append("%s: agreement %r not the answer's tail" %
                            (what, r[4]))
    if problems:
        fail("; ".join(problems))
    print("fleet: %d tests and variants checked" % len(fleet["tests"]))


# ---------------------------------------------------------------- png

def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_rows(path):
    """The rows of an 8-bit RGB or RGBA PNG as bytes, unfiltered."""
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat = 8, b""
    while pos < len(d):
        n, kind = struct.unpack(">I4s", d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            interlace = body[12]
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("unexpected PNG format %d/%d/%d" % (depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((a + prev[x]) >> 1)) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                c = prev[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + paeth(a, prev[x], c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def check_png(path, min_height, min_pixels):
    w, h, bpp, rows = png_rows(path)
    white = b"\xff" * (w * bpp)
    alpha = b"\xff" if bpp == 4 else b""
    colours = {(0x00, 0x72, 0xb2): 0, (0xd5, 0x5e, 0x00): 0}
    inked = last_ink = lowest_chart = 0
    for y, r in enumerate(rows):
        if r == white:
            continue
        last_ink = y
        # bytes off white, in pixels: a fair measure of ink
        inked += (len(r) - r.count(b"\xff")) / 3
        for c in colours:
            n = r.count(bytes(c) + alpha)
            colours[c] += n
            if n:
                lowest_chart = y
    area = w * (last_ink + 1)
    share = inked / area if area else 0
    print("png: %dx%d, content to row %d, %.1f%% inked, first colour %d px, "
          "second %d px, charts down to row %d" %
          (w, h, last_ink, share * 100, colours[(0x00, 0x72, 0xb2)],
           colours[(0xd5, 0x5e, 0x00)], lowest_chart))
    if share < 0.03:
        fail("the page looks blank: %.2f%% of its pixels inked" %
             (share * 100))
    for c, n in colours.items():
        if n < min_pixels:
            fail("chart colour #%02x%02x%02x in %d pixels only" % (c + (n,)))
    if lowest_chart < min_height:
        fail("no chart below row %d: the page was not captured whole" %
             min_height)


def check_colours(path, args):
    """Each colour (hex, comma-separated) covers at least MIN pixels."""
    most = int(args[0])
    w, h, bpp, rows = png_rows(path)
    alpha = b"\xff" if bpp == 4 else b""
    counts = {}
    for c in args[1].split(","):
        px = bytes.fromhex(c) + alpha
        # a pixel starts at a multiple of bpp
        counts[c] = sum(sum(1 for i in range(0, len(r), bpp)
                            if r[i:i + bpp] == px) if px in r else 0
                        for r in rows)
    print("colours: " + ", ".join("#%s %d px" % kv for kv in counts.items()))
    for c, n in counts.items():
        if n < most:
            fail("colour #%s in %d pixels only" % (c, n))


def check_points(html_path, kind, most):
    page = open(html_path, encoding="utf-8").read()
    charts = re.findall(r'<svg class="chart %s".*?</svg>' % re.escape(kind),
                        page, re.S)
    counts = []
    for c in charts:
        for d in re.findall(r'<path fill="none"[^>]* d="([^"]*)"', c):
            counts.append(d.count("M") + d.count("L"))
    print("points: %d %s charts, %d lines, at most %d vertices" %
          (len(charts), kind, len(counts), max(counts or [0])))
    if not counts or max(counts) == 0:
        fail("no %s line drawn" % kind)
    if max(counts) > most:
        fail("a %s line has %d vertices, over %d" % (kind, max(counts), most))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "tables":
        check_tables(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "png":
        check_png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == "fleet":
        check_fleet(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "colours":
        check_colours(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 5 and sys.argv[1] == "points":
        check_points(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        fail("usage: tables CMP.json OUT.html | fleet CMP.json DOM.html | "
             "colours SHOT.png MIN_PIXELS HEX,HEX... | "
             "png SHOT.png MIN_HEIGHT MIN_PIXELS | points OUT.html KIND MAX")

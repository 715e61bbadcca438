#!/bin/sh
# Escape sequences from outside never reach the terminal (issue 19 item
# 6). A record whose lab name, description, host, CPU, variant names and
# texts, workload name, notes, disk model and vendor and mount options
# carry OSC 0 (ESC ]0;pwned BEL, which retitles a terminal), ESC [2J
# (clear screen), the C1 CSI (U+009B), DEL and HTML: `raidlab show`,
# `compare` (table and CSV), `report` (the mail: ASCII) and `report
# --markdown` print no byte a terminal obeys (C0 but newline and tab,
# DEL, 0x80..0x9f), while each name stays readable as \x1b]0;pwned\x07.
# The Markdown has no raw <script> or <img>, its table rows have exactly
# their columns ("|" escaped) and the backtick in a path stays inside its
# code span. An fio job name imported the same way, and the import's own
# line, too; check's refusal of a lab name with an escape; a run's error
# quoting a tarball path, its table of a directory variant and where it
# saved the record. As root, an ext4 on a loop device labelled with ESC [2J:
# `raidlab disks` shows the label as \x1b[2J, and so does the guard's
# refusal (a lab on it, no confirmation).
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd jq python3

data=${top_srcdir:-.}/tests/data
check=$TEST_TMP/check.py
cat >"$check" <<'PYEOF'
import re, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

path, kind = sys.argv[1], sys.argv[2]
raw = open(path, 'rb').read()
for i, b in enumerate(raw):
    if (b < 0x20 and b not in (0x0a, 0x09)) or b == 0x7f:
        fail("%s: control byte %#04x at %d: %r" % (path, b, i, raw[max(0, i - 20):i + 20]))
text = raw.decode('utf-8', errors='strict')  # no invalid UTF-8 either
for i, ch in enumerate(text):
    if 0x80 <= ord(ch) <= 0x9f:
        fail("%s: C1 control U+%04X at %d" % (path, ord(ch), i))
if kind == 'ascii' and any(b >= 0x80 for b in raw):
    fail("%s: non-ASCII byte in the mail" % path)
for want in sys.argv[3:]:
    if want not in text:
        fail("%s: %r is not shown" % (path, want))
if kind == 'md':
    # HTML outside code (fences and spans show it as it is) is HTML.
    prose, fence = [], None
    for line in text.split('\n'):
        m = re.match(r'^(`{3,})', line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and line.strip() == fence:
            fence = None
        elif fence is None:
            prose.append(re.sub(r'(?<![`\\])(`+)(?!`).*?(?<!`)\1(?!`)', '', line))
    if fence is not None:
        fail("%s: a fence left open" % path)
    for bad in ('<script', '<img', '</script'):
        if bad in '\n'.join(prose):
            fail("%s: raw %s in the Markdown" % (path, bad))
    if '&lt;script&gt;' not in text:
        fail("%s: <script> is not shown as &lt;script&gt;" % path)
    # A table row has as many unescaped | as its table's header.
    cols = None
    for line in text.split('\n'):
        if not line.startswith('|'):
            cols = None
            continue
        n = len(re.findall(r'(?<!\\)\|', line))
        if cols is None:
            cols = n
        elif n != cols:
            fail("%s: a row with %d cells in a table of %d: %s" % (path, n - 1, cols - 1, line))
PYEOF

# --- a record with hostile text everywhere a record holds text
jq '
def evil($s): "\u001b]0;pwned\u0007" + $s + "\u001b[2J\u009b\u007f<script>x</script>|<img src=x onerror=alert(1)>`";
.host.hostname |= evil(.) | .host.cpu_model |= evil(.) | .lab.name |= evil(.) |
.lab.text |= sub("repeats"; "description = \"\\x1b]0;pwned\\x07question\\x1b[2J <script>q</script> | a`b\";\nrepeats") |
.runs |= map(.variant.name |= evil(.) | .variant.text |= evil(.) |
  .workload.name |= evil(.) |
  (if .notes then .notes |= map(evil(.)) else . end) |
  (if .target then .target.devices |= map(.model = evil("model") |
     .vendor = evil("vendor")) | .target.mount_options |= evil(.) else . end))
' "$data/records/fixture-v1.json" >"$TEST_TMP/evil.json" || fail "jq"

outs() {
	"$RAIDLAB" "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
		fail "raidlab $*: $(cat "$TEST_TMP/err")"
}
E='\x1b]0;pwned\x07'
outs show "$TEST_TMP/evil.json"
python3 "$check" "$TEST_TMP/out" utf8 "${E}tmpdir" "${E}vm" "${E}AMD EPYC" \
	"${E}model" "${E}small" '\x1b[2J\xc2\x9b\x7f<script>' || fail "show"
outs compare "$TEST_TMP/evil.json"
python3 "$check" "$TEST_TMP/out" utf8 "${E}tmpdir" "${E}small" "${E}mirror" ||
	fail "compare"
# Two records, one under a name with a newline: its source line shows
# the newline as \x0a, not as a line of its own a record could fake.
nl_rec="$TEST_TMP/$(printf 'two\nFAKE line')"
cp "$TEST_TMP/evil.json" "$nl_rec"
outs compare "$TEST_TMP/evil.json" "$nl_rec"
grep -q '^FAKE line' "$TEST_TMP/out" &&
	fail "compare: a record's name made a line: $(cat "$TEST_TMP/out")"
grep -q 'two\\x0aFAKE line' "$TEST_TMP/out" ||
	fail "compare: the record's name not shown: $(cat "$TEST_TMP/out")"
outs compare --csv "$TEST_TMP/evil.json"
python3 "$check" "$TEST_TMP/out" utf8 "${E}tmpdir" || fail "compare --csv"
outs report "$TEST_TMP/evil.json"
python3 "$check" "$TEST_TMP/out" ascii "${E}question" "${E}tmpdir" \
	"${E}vm" || fail "report (text)"
outs report -o "$TEST_TMP/mail.txt" "$TEST_TMP/evil.json"
python3 "$check" "$TEST_TMP/mail.txt" ascii "${E}question" "${E}tmpdir" ||
	fail "report -o (text)"
outs report --markdown "$TEST_TMP/evil.json"
python3 "$check" "$TEST_TMP/out" md "${E}question" "${E}tmpdir" "${E}model" ||
	fail "report --markdown"

# --- an fio job name, imported
# (in a file whose name has an escape: the import's line names it)
fio=$TEST_TMP/$(printf 'fio\033[2J').json
jq '.jobs[0].jobname = "\u001b]0;pwned\u0007job\u001b[2J\u009b"' \
	"$data/fio-two-jobs.json" >"$fio" || fail "jq fio"
outs import -o "$TEST_TMP/imp.json" "$fio"
python3 "$check" "$TEST_TMP/out" utf8 'fio\x1b[2J.json' || fail "import"
outs show "$TEST_TMP/imp.json"
python3 "$check" "$TEST_TMP/out" utf8 "${E}job" || fail "show (import)"
outs compare "$TEST_TMP/imp.json"
python3 "$check" "$TEST_TMP/out" utf8 "${E}job" || fail "compare (import)"

# --- a lab's own strings: check's refusal quotes a bad name; a run
# prints a workload's error naming its tarball and the table of a
# directory variant, paths with an escape in them
cat >"$TEST_TMP/bad.cfg" <<'CFG'
name = "esc";
variants = ( { name = "v\x1b[2Jx"; directory = "/tmp"; } );
workloads = ( { name = "s"; type = "smallfiles"; counts = [10]; } );
CFG
"$RAIDLAB" check "$TEST_TMP/bad.cfg" >"$TEST_TMP/out" 2>&1 &&
	fail "check took a name with an escape"
python3 "$check" "$TEST_TMP/out" utf8 "'v\x1b[2Jx' is not a valid name" ||
	fail "check"
mkdir "$TEST_TMP/d$(printf '\033[2J')" || fail "mkdir"
cat >"$TEST_TMP/run.cfg" <<CFG
name = "escrun";
results = "$TEST_TMP/res\\x1b[2J";
variants = ( { name = "v"; directory = "$TEST_TMP/d\\x1b[2J"; } );
workloads = ( { name = "s"; type = "untar";
  tarball = "$TEST_TMP/no\\x1b[2J.tar"; } );
CFG
"$RAIDLAB" run "$TEST_TMP/run.cfg" >"$TEST_TMP/out" 2>&1 </dev/null
python3 "$check" "$TEST_TMP/out" utf8 "tarball $TEST_TMP/no\x1b[2J.tar" \
	"Target $TEST_TMP/d\x1b[2J" "record saved to $TEST_TMP/res\x1b[2J/" ||
	fail "run"

# --- a filesystem label: raidlab disks and the guard
[ "$(id -u)" = 0 ] || skip "the label part needs root (loop devices)"
need_cmd mkfs.ext4 losetup
RAIDLAB_STATE_DIR=$TEST_TMP/state
export RAIDLAB_STATE_DIR
new_loop DEV 32M
mkfs.ext4 -q -F -L "$(printf 'a\033[2Jb\007')" "$DEV" ||
	fail "mkfs.ext4 $DEV"
outs disks "$DEV"
python3 "$check" "$TEST_TMP/out" utf8 'a\x1b[2Jb\x07' || fail "disks"
cat >"$TEST_TMP/lab.cfg" <<CFG
name = "esc";
variants = ( { name = "esc";
  array = { engine = "single"; devices = [ "$DEV" ]; };
  fs = { type = "ext4"; }; } );
workloads = ( { name = "small"; type = "smallfiles"; counts = [10]; } );
CFG
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --results "$TEST_TMP/res" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" </dev/null &&
	fail "run on a labelled ext4 without confirmation was not refused"
grep -q 'has data' "$TEST_TMP/err" || fail "no refusal: $(cat "$TEST_TMP/err")"
python3 "$check" "$TEST_TMP/err" utf8 'a\x1b[2Jb\x07' || fail "guard refusal"
exit 0

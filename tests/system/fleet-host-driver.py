#!/usr/bin/env python3
# The fleet controller's side of `raidlab run --fleet-host` for
# tests/system/fleet-host.sh, on plain pipes: runs the command given and
# answers each "wait N" with "go N" (mode "barrier"), or answers the
# first and at the first live line after it closes raidlab's stdin (mode
# "close") or kills the command, an ssh client (mode "kill": a lost
# connection). Before each "go N" it waits a second, reading on, and notes
# what happened meanwhile: a broken gate would run on. Prints a
# transcript, one event a line: "ready HOST", "wait N", "live V W K" (a
# run of equal ones as one), "done RAN FAILED", "go N" (sent),
# "closed", "killed", "msg TEXT" (raidlab's other lines), "before-go N: DIR
# present|absent", "before-go N: lines K" (lines raidlab wrote while
# round N waited), "rc N". raidlab's stdout goes to OUT.
#   fleet-host-driver.py MODE DIR OUT RAIDLAB ARGS...
import os
import select
import subprocess
import sys
import time

mode, watch, out = sys.argv[1:4]
cmd = sys.argv[4:]
fp = open(out, "wb")
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=fp,
                     stderr=subprocess.PIPE)
fd = p.stderr.fileno()
buf = b""
eof = False
last = None


def lines(timeout):
    """Lines raidlab writes within timeout (None: until the next one)."""
    global buf, eof
    end = None if timeout is None else time.monotonic() + timeout
    got = []
    while not eof:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            got.append(line.decode())
            if timeout is None:
                return got
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            break
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            eof = True
        buf += chunk
    return got


def show(line):
    """Print one line of raidlab's as an event; its words."""
    global last
    if not line.startswith("@fleet 1 "):
        print("msg", line)
        last = None
        return []
    w = line.split()[2:]
    ev = " ".join(w[:4]) if w[0] == "live" else " ".join(w)
    if w[0] == "ready":
        ev = "ready " + w[1]
    if ev != last:
        print(ev)
    last = ev if w[0] == "live" else None
    return w


went = False
while not eof:
    for line in lines(None):
        w = show(line)
        if not w:
            continue
        if w[0] == "live" and mode == "close" and went and not p.stdin.closed:
            p.stdin.close()
            print("closed")
        if w[0] == "live" and mode == "kill" and went and p.returncode is None:
            p.kill()
            p.wait()
            print("killed")
        if w[0] == "wait" and not p.stdin.closed and p.returncode is None \
                and (mode == "barrier" or not went):
            n = w[1]
            meanwhile = lines(1.0)
            state = "present" if os.path.exists(watch) else "absent"
            print("before-go %s: %s %s" % (n, os.path.basename(watch), state))
            print("before-go %s: lines %d" % (n, len(meanwhile)))
            for m in meanwhile:
                show(m)
            p.stdin.write(("go %s\n" % n).encode())
            p.stdin.flush()
            print("go", n)
            went = True
print("rc", p.wait())

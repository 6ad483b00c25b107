#!/usr/bin/env python3
"""A run stopped by a signal leaves nothing in the temporary folder (issue 38).

`emberlint check` keeps its shared precompiled prefixes in `$TMPDIR/emberlint-prefix-XXXXXX` (20 MB each for
the standard library). Stopped by SIGTERM, SIGINT or SIGHUP once a prefix is saved, it removes that folder and
dies of the signal; killed outright (SIGKILL), it cannot, and the next run removes the folder because no
process holds its lock any more, while a folder whose lock a live process holds is left alone.

usage: signal_cleanup_test.py EMBERLINT
"""
import fcntl
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from small_tmpdir_test import Expectations, make_project  # noqa: E402  (the same four-unit project)


def start(emberlint, root, tmpdir):
    return subprocess.Popen([emberlint, "check", "-p", "build", "--no-cache", "-j", "1", "frontend"], cwd=root,
                            env=dict(os.environ, TMPDIR=tmpdir), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def wait_for_prefix(process, tmpdir, other=None):
    """Polls until the run has saved a prefix (in a folder but `other`); None when the run ended first (no
    wall-clock limit: a loaded machine is slower, not wrong)."""
    while process.poll() is None:
        found = [f for f in glob.glob(os.path.join(tmpdir, "emberlint-prefix-*", "0.pch"))
                 if os.path.dirname(f) != other]
        if found:
            return found[0]
        time.sleep(0.02)
    return None


def main(emberlint):
    expect = Expectations()
    work = tempfile.mkdtemp(prefix="emberlint-signal-")
    try:
        root = os.path.join(work, "project")
        make_project(root)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            tmpdir = os.path.join(work, "tmp-" + sig.name)
            os.makedirs(tmpdir)
            p = start(emberlint, root, tmpdir)
            pch = wait_for_prefix(p, tmpdir)
            expect(pch is not None, "%s: the run saved a prefix before it ended" % sig.name)
            p.send_signal(sig)
            status = p.wait()
            expect(status == -sig, "%s: the run dies of the signal: %d %s" % (sig.name, status,
                                                                              p.stderr.read().decode()[-300:]))
            expect(os.listdir(tmpdir) == [], "%s: the temporary folder is left empty: %s" % (sig.name,
                                                                                          os.listdir(tmpdir)))

        tmpdir = os.path.join(work, "tmp-kill")
        os.makedirs(tmpdir)
        # A live run's folder: its lock held by this process.
        live = os.path.join(tmpdir, "emberlint-prefix-live00")
        os.makedirs(live)
        with open(os.path.join(live, "0.pch"), "w") as f:
            f.write("a live run's prefix")
        lock = open(os.path.join(live, "lock"), "w")
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Another user's files and names of other tools are never touched.
        other = os.path.join(tmpdir, "emberlint-driver-abc123")
        open(other, "w").close()
        p = start(emberlint, root, tmpdir)
        pch = wait_for_prefix(p, tmpdir, live)
        expect(pch is not None, "SIGKILL: the run saved a prefix before it ended")
        p.kill()
        p.wait()
        killed = os.path.dirname(pch) if pch else None
        expect(killed is not None and os.path.isdir(killed), "SIGKILL: the killed run's folder stays behind")
        r = subprocess.run([emberlint, "check", "-p", "build", "--no-cache", "frontend"], cwd=root,
                           env=dict(os.environ, TMPDIR=tmpdir), capture_output=True, text=True)
        expect(r.returncode == 1, "the next run finishes: %d %s" % (r.returncode, r.stderr[-300:]))
        expect(killed is not None and not os.path.exists(killed), "the next run removes the killed run's folder")
        expect(os.path.exists(os.path.join(live, "0.pch")), "a folder whose lock is held stays")
        expect(os.path.exists(other), "other files stay")
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return expect.status()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(os.path.abspath(sys.argv[1])))

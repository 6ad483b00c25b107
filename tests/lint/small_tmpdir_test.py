#!/usr/bin/env python3
"""emberlint with a small, full or missing temporary folder (issue 38).

libclang aborts the whole process ("LIBCLANG FATAL ERROR: IO failure on output stream: No space left on
device", exit 134) when a precompiled file it writes meets a full disk. emberlint must never let it: with
TMPDIR on a 1 MB file system, on a full one and on none at all, `check` (with shared prefixes, without them,
with --fix) and `lsp` finish with their documented exit codes and the same findings as with room to spare.

The small file systems are real: a 1 MB tmpfs mounted in a mount namespace of the test's own (`unshare
--mount`), so nothing of the machine's is touched and nothing stays mounted. That needs root (CI runs as root
on Debian 12); elsewhere the test is skipped (exit 77).

usage: small_tmpdir_test.py EMBERLINT
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
HEADERS = ["vector", "string", "map", "sstream"]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_project(root):
    """Four frontend units of one command that share the standard headers (a shared prefix's group), one of
    them with a BLAS call (EL100, EL101, EL102)."""
    write(os.path.join(root, ".emberlint.json"), json.dumps({
        "layers": {"frontend": ["frontend/**"], "backends": {"blas": ["backends/blas/**"]}},
        "libraries": {"BLAS": {"backend": "blas", "headers": ["cblas.h"], "symbols": ["cblas_*"]}},
    }))
    write(os.path.join(root, "backends", "blas", "scale.cpp"), "#include <cblas.h>\n")
    write(os.path.join(root, "vendor", "cblas.h"), "void cblas_sscal(int n, float a, float* x, int incx);\n")
    includes = "".join("#include <%s>\n" % h for h in HEADERS)
    write(os.path.join(root, "frontend", "scale.cpp"), includes + "#include <cblas.h>\n\n"
          "void scale(std::vector<float>& v) { cblas_sscal(static_cast<int>(v.size()), 2.0f, v.data(), 1); }\n")
    for name in ["names", "table", "sort"]:
        write(os.path.join(root, "frontend", name + ".cpp"), includes +
              "\nstd::string %s_of(const std::map<int, std::string>& m) {\n"
              "  std::ostringstream s;\n"
              "  for (const auto& [k, v] : m) s << k << v;\n"
              "  return s.str();\n"
              "}\n" % name)
    entries = [{"directory": root, "file": os.path.join(root, "frontend", f),
                "arguments": ["clang++", "-std=c++20", "-isystem", "vendor", "-c", "frontend/" + f]}
               for f in ["names.cpp", "scale.cpp", "sort.cpp", "table.cpp"]]
    write(os.path.join(root, "build", "compile_commands.json"), json.dumps(entries))


class Expectations:
    """expect(condition, what) prints ok or FAIL and what; status() is the test's exit status."""

    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        print(("ok   " if condition else "FAIL ") + what, flush=True)
        if not condition:
            self.failures.append(what)

    def status(self):
        if self.failures:
            print("%d failed" % len(self.failures))
        return 1 if self.failures else 0


def check(emberlint, root, tmpdir, *extra):
    env = dict(os.environ, TMPDIR=tmpdir)
    r = subprocess.run([emberlint, "check", "-p", "build", "--no-cache", "--format", "json", "frontend", *extra],
                       cwd=root, env=env, capture_output=True, text=True)
    return r


def findings(result):
    report = json.loads(result.stdout)
    return sorted((d["file"], d["line"], d["code"]) for d in report["diagnostics"]), report["failures"]


class Lsp:
    """The smallest client of `emberlint lsp`: initialize, open a file, read its diagnostics, shut down."""

    def __init__(self, emberlint, root, tmpdir):
        env = dict(os.environ, TMPDIR=tmpdir)
        self.p = subprocess.Popen([emberlint, "lsp", "--no-cache", "-p", "build", "--debounce-ms", "10"],
                                  cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.next_id = 1

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output; stderr: " + self.p.stderr.read().decode())
            line = line.strip()
            if not line:
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            m = self.receive()
            if m.get("id") == self.next_id and "method" not in m:
                return m

    def diagnostics(self, uri, text):
        self.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1, "text": text}}})
        while True:
            m = self.receive()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return sorted(d.get("code", "") for d in m["params"]["diagnostics"])

    def finish(self):
        self.request("shutdown", None)
        self.send({"method": "exit"})
        self.p.stdin.close()
        return self.p.wait(), self.p.stderr.read().decode()


def lsp_codes(emberlint, root, tmpdir):
    client = Lsp(emberlint, root, tmpdir)
    client.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {}})
    client.send({"method": "initialized", "params": {}})
    path = os.path.join(root, "frontend", "scale.cpp")
    with open(path) as f:
        codes = client.diagnostics("file://" + path, f.read())
    status, stderr = client.finish()
    return codes, status, stderr


def main(emberlint):
    expect = Expectations()
    work = tempfile.mkdtemp(prefix="emberlint-small-tmpdir-")
    try:
        root = os.path.join(work, "project")
        make_project(root)
        roomy = os.path.join(work, "roomy")
        os.makedirs(roomy)
        statistics = subprocess.run([emberlint, "check", "-p", "build", "--no-cache", "--statistics", "frontend"],
                                    cwd=root, env=dict(os.environ, TMPDIR=roomy), capture_output=True, text=True)
        expect("4 units (4 with 1 shared prefix)" in statistics.stdout,
               "with room: the units share a prefix: " + statistics.stdout[-300:])
        baseline = check(emberlint, root, roomy)
        expect(baseline.returncode == 1, "with room: exit 1 (findings): %d %s" % (baseline.returncode,
                                                                                 baseline.stderr))
        expected = findings(baseline)
        expect(len(expected[0]) >= 2 and not expected[1], "with room: findings and no failure: %s" % (expected,))
        expect(os.listdir(roomy) == [], "with room: the temporary folder is left empty: %s" % os.listdir(roomy))
        expected_lsp = lsp_codes(emberlint, root, roomy)[0]
        expect("EL100" in expected_lsp, "with room: lsp reports EL100: %s" % expected_lsp)

        small = os.path.join(work, "small")
        full = os.path.join(work, "full")
        for folder in (small, full):
            os.makedirs(folder)
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", folder], check=True)
        # Full: a file takes every block there is.
        with open(os.path.join(full, "filler"), "wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        expect(shutil.disk_usage(full).free < 65536, "the full folder is full: %d" % shutil.disk_usage(full).free)
        missing = os.path.join(work, "missing")

        for name, tmpdir in [("1 MB", small), ("full", full), ("missing", missing)]:
            for extra in [[], ["--no-shared-prefix"], ["--fix"]]:
                what = "%s TMPDIR, check %s" % (name, " ".join(extra))
                r = check(emberlint, root, tmpdir, *extra)
                expect(r.returncode == 1, "%s: exit 1 (findings), not an abort: %d %s" % (what, r.returncode,
                                                                                         r.stderr[-400:]))
                if r.returncode == 1:
                    expect(findings(r) == expected, "%s: the findings of a run with room" % what)
                if not extra:
                    expect("the temporary folder" in r.stderr or "cannot make a folder" in r.stderr,
                           "%s: a note says why the prefixes were left out: %s" % (what, r.stderr))
            codes, status, stderr = lsp_codes(emberlint, root, tmpdir)
            expect(codes == expected_lsp and status == 0,
                   "%s TMPDIR, lsp: the same diagnostics and exit 0: %s %d %s" % (name, codes, status,
                                                                                  stderr[-400:]))
        expect(os.listdir(small) == [], "the small folder is left empty: %s" % os.listdir(small))
    finally:
        for folder in ("small", "full"):
            subprocess.run(["umount", os.path.join(work, folder)], stderr=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)
    return expect.status()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--in-namespace":
        sys.exit(main(os.path.abspath(sys.argv[2])))
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    if os.geteuid() != 0 or not shutil.which("unshare"):
        print("skipped: mounting a small tmpfs needs root and unshare")
        sys.exit(SKIP)
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"], capture_output=True)
    if probe.returncode != 0:
        print("skipped: no mount namespace here: " + probe.stderr.decode().strip())
        sys.exit(SKIP)
    sys.exit(subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable,
                             os.path.abspath(__file__), "--in-namespace", sys.argv[1]]).returncode)

#!/usr/bin/env python3
"""The VS Code extension packages as docs/editors.md says, without a license or an address nobody chose.

The repository has no license file and names no repository address: choosing them is the owners' decision. So
editors/vscode/package.json must claim no license ("license": "UNLICENSED", "private": true) and no address,
and the packaging command that docs/editors.md gives must pass vsce the flags that let it package without them
(--skip-license while there is no LICENSE file, --allow-missing-repository while there is no "repository"):
without them vsce stops at a "Do you want to continue? [y/N]" prompt in a terminal. When a license file or an
address is added, the manifest and the command must follow (the flags go, the manifest names them).

Given --vsce PATH (a vsce executable; its package needs the extension's node_modules, so npm is run first),
a copy of the extension is packaged with the documented flags, stdin closed: it must make the .vsix with no
warning about a repository or a license.

usage: vscode_package.py SOURCE_DIR [--vsce PATH]
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

LICENSE_FILES = ("LICENSE", "LICENSE.md", "LICENSE.txt")


def documented_command(root):
    """The vsce arguments after `package` in docs/editors.md's VS Code section, or None."""
    with open(os.path.join(root, "docs", "editors.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## VS Code", 1)[-1].split("\n## ", 1)[0]
    for line in section.splitlines():
        m = re.search(r"npx @vscode/vsce package([^&|;`]*)", line)
        if m:
            return shlex.split(m.group(1))
    return None


def static_problems(root):
    problems = []
    ext = os.path.join(root, "editors", "vscode")
    with open(os.path.join(ext, "package.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    args = documented_command(root)
    if args is None:
        return ["docs/editors.md: the VS Code section gives no `npx @vscode/vsce package` command"]
    has_license = any(os.path.exists(os.path.join(d, n)) for d in (ext, root) for n in LICENSE_FILES)
    if has_license:
        if "--skip-license" in args:
            problems.append("docs/editors.md: --skip-license, but there is a license file now")
        if manifest.get("license") == "UNLICENSED":
            problems.append("package.json: \"UNLICENSED\", but there is a license file now: name it")
    else:
        if manifest.get("license") != "UNLICENSED":
            problems.append("package.json: \"license\": %s claims a license that no license file grants: "
                            "\"UNLICENSED\" until the owners choose one" % json.dumps(manifest.get("license")))
        if manifest.get("private") is not True:
            problems.append("package.json: an unlicensed package must be \"private\": true (npm must not "
                            "publish it)")
        if "--skip-license" not in args:
            problems.append("docs/editors.md: with no license file, the vsce command needs --skip-license")
    if "repository" in manifest and "--allow-missing-repository" in args:
        problems.append("docs/editors.md: --allow-missing-repository, but the manifest names a repository")
    if "repository" not in manifest and "--allow-missing-repository" not in args:
        problems.append("docs/editors.md: with no \"repository\" in the manifest, the vsce command needs "
                        "--allow-missing-repository")
    return problems


def package_problems(root, vsce):
    work = tempfile.mkdtemp(prefix="emberlint-vsce-")
    try:
        ext = os.path.join(work, "vscode")
        shutil.copytree(os.path.join(root, "editors", "vscode"), ext,
                        ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
        npm = subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=ext, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True)
        if npm.returncode != 0:
            return ["npm install failed: " + npm.stderr[-400:]]
        r = subprocess.run([vsce, "package"] + documented_command(root), cwd=ext, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        problems = []
        if r.returncode != 0:
            problems.append("vsce package exited %d: %s" % (r.returncode, out[-600:]))
        if not any(n.endswith(".vsix") for n in os.listdir(ext)):
            problems.append("vsce package made no .vsix")
        for warning in ("'repository' field is missing", "LICENSE, LICENSE.md, or LICENSE.txt not found"):
            if warning in out:
                problems.append("vsce still warns: " + warning)
        return problems
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--vsce"):
        print(__doc__)
        return 2
    root = argv[1]
    problems = static_problems(root)
    if len(argv) == 4 and not problems:
        problems += package_problems(root, os.path.abspath(argv[3]))
    for p in problems:
        print(p, file=sys.stderr)
    print("vscode_package: %d problems%s" % (len(problems), "" if len(argv) == 4 else " (not packaged: no --vsce)"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

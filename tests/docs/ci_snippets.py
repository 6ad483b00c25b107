#!/usr/bin/env python3
"""Fails when a command the user documentation gives would fail or skip as written.

- Every `github/codeql-action/upload-sarif` step of a YAML example runs `if: success() || failure()`:
  `check --exit-zero` still exits 3 when a unit does not parse, which would skip the upload of the report it
  wrote.
- Every emberlint output option of a shell example (`-o FILE`, `--export-fixes FILE`, `--write-baseline FILE`)
  that writes into a relative folder has that folder made by an earlier line of the example (`mkdir -p DIR`)
  or in the repository: emberlint refuses an output file in a folder that does not exist (exit 2). `-o DIR/`
  (one report per format) makes its folder and is not checked.

usage: ci_snippets.py SOURCE_DIR
"""
import os
import re
import sys

OUTPUT = re.compile(r"(?:^|\s)(?:-o|--export-fixes|--write-baseline)\s+([^\s'\"]+)")
MKDIR = re.compile(r"\bmkdir\s+(?:-p\s+)?([^\s;&|]+)")


def blocks(text):
    """(language, first line number, lines) of each fenced code block."""
    out, lang, start, body = [], None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^\s*```(\w*)", line)
        if fence and lang is None:
            lang, start, body = fence.group(1) or "text", number + 1, []
        elif fence:
            out.append((lang, start, body))
            lang = None
        elif lang is not None:
            body.append(line)
    return out


def check(path, root):
    problems = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for lang, start, body in blocks(text):
        if lang in ("yaml", "yml"):
            for i, line in enumerate(body):
                if "upload-sarif" not in line.split("#", 1)[0]:
                    continue
                step = []
                indent = len(line) - len(line.lstrip(" -"))
                for later in body[i + 1:]:
                    if later.strip().startswith("- ") and len(later) - len(later.lstrip(" ")) < indent:
                        break
                    step.append(later.strip())
                if "if: success() || failure()" not in " ".join(step):
                    problems.append(f"{path}:{start + i}: the upload-sarif step needs `if: success() || "
                                    "failure()` (check exits 3 when a unit does not parse)")
        if lang in ("sh", "bash", "console", "shell", "yaml", "yml"):
            made = set()
            for i, line in enumerate(body):
                code = line.split("#", 1)[0]
                for folder in MKDIR.findall(code):
                    made.add(os.path.normpath(folder))
                if "emberlint" not in code:
                    continue
                for target in OUTPUT.findall(code):
                    folder = os.path.dirname(target)
                    if not folder or target.endswith("/") or os.path.isabs(target) or "$" in target:
                        continue
                    folder = os.path.normpath(folder)
                    if folder in made or os.path.isdir(os.path.join(root, folder)):
                        continue
                    problems.append(f"{path}:{start + i}: `{target}` is written into {folder}/, which no "
                                    f"earlier line makes (`mkdir -p {folder}`): emberlint refuses it")
    return problems


def main():
    root = sys.argv[1]
    docs = [os.path.join(root, "README.md")]
    for base, _, files in os.walk(os.path.join(root, "docs")):
        docs += [os.path.join(base, f) for f in sorted(files) if f.endswith(".md")]
    problems = []
    for path in docs:
        problems += check(path, root)
    for p in problems:
        print(p, file=sys.stderr)
    print(f"ci_snippets: {len(docs)} documents, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

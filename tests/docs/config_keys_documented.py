#!/usr/bin/env python3
"""Fails when a key that .emberlint.json accepts is not documented in docs/config.md.

The keys come from emberlint itself, not from a copy kept here: each section of the config is given an
unknown key, and the loader's error lists the keys that section accepts ("expected one of: ..."): the top
level, `layers`, a backend object, a library, every rule's options (`emberlint rules` lists the rules), and
`ops_interface` with its `migration` (read by `emberlint analyze`), and the values `ops_interface.roles` accepts
(from its "unknown role ...; expected one of ..." error; each must appear as `"stubs"`). A key is documented when docs/config.md
names its whole path in backticks, with `<name>` for a backend or library name and `<code>` in
`rules.<code>.severity`: `layers.backends.<name>.paths`, `rules.EL301.allowed_files`, `ops_interface.enum`.
The inventory models' names must appear too.

So that a section added later is not left out, the number of places that check keys in the loaders' sources
(`keys(` calls in lint/project/config.cpp and analyze/ops_config.cpp) must match the sections probed here.

usage: config_keys_documented.py EMBERLINT SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

PROBE = "zz_undocumented_probe"
BACKEND = {"b": ["src/**"]}
# (command, config with the probe key in one section, how that section's keys are written in the docs)
SECTIONS = [
    ("check", {PROBE: 0}, "{}"),
    ("check", {"layers": {PROBE: 0}}, "layers.{}"),
    ("check", {"layers": {"backends": {"b": {"paths": ["src/**"], PROBE: 0}}}}, "layers.backends.<name>.{}"),
    ("check", {"libraries": {"L": {PROBE: 0}}}, "libraries.<name>.{}"),
    ("check", {"configurations": {"c": {PROBE: 0}}}, "configurations.<name>.{}"),
    # rules.<code>: one probe per rule, added below
    ("analyze", {"layers": {"backends": BACKEND}, "ops_interface": {"model": "functions", PROBE: 0}},
     "ops_interface.{}"),
    ("analyze", {"layers": {"backends": BACKEND},
                 "ops_interface": {"model": "functions", "namespace": "::", "headers": ["include/x.h"],
                                   "migration": {PROBE: 0}}}, "ops_interface.migration.{}"),
    # not a key but a value: the roles ops_interface.roles accepts, each written `"stubs"` in the docs
    ("analyze", {"layers": {"backends": BACKEND},
                 "ops_interface": {"model": "functions", "namespace": "::", "headers": ["include/x.h"],
                                   "roles": {"b": PROBE}}}, '"{}"'),
]
# The loaders' `keys(` call sites, one per section above (the rules' call serves every rule).
LOADER_SOURCES = {"lint/project/config.cpp": 6, "analyze/ops_config.cpp": 4}


def run(emberlint, folder, command, config):
    with open(os.path.join(folder, ".emberlint.json"), "w") as f:
        json.dump(config, f)
    args = [emberlint, command, "--no-cache"] + (["src"] if command == "check" else [])
    p = subprocess.run(args, cwd=folder, capture_output=True, text=True)
    return p.stdout + p.stderr


def accepted(output, what):
    m = re.search(r"expected one of:? (.*)$", output, re.MULTILINE)
    if not m:
        sys.exit(f"docs_config_keys_documented: could not read the keys of {what} from emberlint's error:\n"
                 f"{output}\n(the test reads the loader's 'unknown key ...; expected one of: ...' message)")
    return [k.strip().strip('"') for k in m.group(1).split(",") if k.strip()]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    emberlint, source = os.path.abspath(sys.argv[1]), sys.argv[2]
    doc_path = os.path.join(source, "docs", "config.md")
    with open(doc_path) as f:
        doc = f.read()

    problems = []
    for rel, expected in LOADER_SOURCES.items():
        with open(os.path.join(source, rel)) as f:
            text = f.read()
        calls = len(re.findall(r"\br\.keys\(", text))
        if calls != expected:
            problems.append(f"{rel} checks keys in {calls} places, the test probes {expected} sections: "
                            f"add the new section to SECTIONS in tests/docs/config_keys_documented.py")

    rules = subprocess.run([emberlint, "rules"], capture_output=True, text=True, check=True).stdout
    codes = re.findall(r"^(EL\d+)\s", rules, re.MULTILINE)
    sections = list(SECTIONS)
    for code in codes:
        sections.append(("check", {"rules": {code: {PROBE: 0}}}, "rules." + code + ".{}"))

    paths = []
    with tempfile.TemporaryDirectory() as folder:
        os.makedirs(os.path.join(folder, "src"))
        os.makedirs(os.path.join(folder, "include"))
        with open(os.path.join(folder, "src", "a.cpp"), "w") as f:
            f.write("int a() { return 0; }\n")
        for command, config, form in sections:
            for key in accepted(run(emberlint, folder, command, config), form.format("")):
                shared = key == "severity" and form.startswith("rules.")  # every rule takes it
                paths.append(("rules.<code>.{}" if shared else form).format(key))
        models = accepted(run(emberlint, folder, "analyze",
                              {"layers": {"backends": BACKEND}, "ops_interface": {"model": PROBE}}),
                          "ops_interface.model")

    missing = sorted({p for p in paths if f"`{p}`" not in doc})
    missing += sorted({f"model {m}" for m in models if f"`{m}`" not in doc})
    for p in missing:
        problems.append(f"docs/config.md does not document `{p.removeprefix('model ')}`"
                        + (" (an inventory model)" if p.startswith("model ") else ""))
    if problems:
        print("\n".join(problems))
        print(f"{len(missing)} config key(s) undocumented: describe each in docs/config.md, its whole path in "
              "backticks (`layers.backends.<name>.paths`, `rules.EL301.allowed_files`).")
        return 1
    print(f"docs/config.md documents all {len(set(paths))} config keys and {len(models)} inventory models")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""emberlint's SARIF logs through Microsoft's SARIF validator (the SARIF Multitool's `validate`: the OASIS
SARIF 2.1.0 schema, then the SARIF and GitHub rules that code scanning applies on upload). Logs of `check` with
findings of every purity, operator and scalar rule (the rule fixtures), of `check` with a unit that fails to
parse (tool execution notifications), of `check --baseline` over those findings (a log without results) and
of `analyze` (the inventory rules) must draw no error and no warning. The one warning left aside is SARIF2005: the tool has no
`informationUri`, since emberlint has no public home page to name. A log broken on purpose must draw errors,
so a validator that checks nothing fails this test.

    tests/lint/sarif_validator_test.py EMBERLINT SOURCE_DIR VALIDATOR

VALIDATOR is build/tools/sarif-multitool/Sarif.Multitool, which scripts/fetch-sarif-validator.sh fetches
(`scripts/setup.sh test` runs it). Standard library only; a ctest (emberlint_sarif_validator) runs it.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

IGNORED = {"SARIF2005"}  # no informationUri: emberlint has no public home page

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def emberlint(exe, args, cwd, ok_codes):
    p = subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True)
    if p.returncode not in ok_codes:
        fail(f"emberlint {' '.join(args)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    return p


def validate(validator, log, work):
    """The validator's results for one log: (rule id, level, message), SARIF2005 left out."""
    out = os.path.join(work, os.path.basename(log) + ".validation.sarif")
    env = dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1", DOTNET_CLI_TELEMETRY_OPTOUT="1")
    p = subprocess.run([validator, "validate", log, "--rule-kind", "Gh;Sarif", "--level", "Error;Warning",
                        "-o", out, "--log", "ForceOverwrite"], capture_output=True, text=True, env=env)
    if p.returncode != 0 or not os.path.exists(out):
        fail(f"the validator failed on {log} (exit {p.returncode}):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
        return None
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    results = []
    for run in doc.get("runs", []):
        for invocation in run.get("invocations", []):
            if not invocation.get("executionSuccessful", False):
                fail(f"the validator did not complete on {log}")
        for r in run.get("results", []):
            if r.get("ruleId") in IGNORED:
                continue
            results.append((r.get("ruleId"), r.get("level"), r.get("message", {}).get("text", "")))
    return results


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    exe, source, validator = sys.argv[1:]
    if not os.access(validator, os.X_OK):
        print(f"FAIL: no SARIF validator at {validator}: run `bash scripts/fetch-sarif-validator.sh` "
              "(scripts/setup.sh test does)")
        return 1
    work = tempfile.mkdtemp(prefix="emberlint-sarif-")
    cache = os.path.join(work, "cache")  # the fixtures are parsed once
    try:
        logs = []
        # Every rule of the fixtures, with fixes and explanations (the SARIF `fixes` and related locations).
        project = os.path.join(work, "project")
        shutil.copytree(os.path.join(source, "tests/lint/fixtures/project"), project)
        check = os.path.join(work, "check.sarif")
        emberlint(exe, ["check", "--cache-dir", cache, "--explain", "-o", check], project, {1})
        logs.append(check)
        # A baseline of those findings: the log of the next run has no result.
        baseline = os.path.join(work, "baseline.json")
        emberlint(exe, ["check", "--cache-dir", cache, "--write-baseline", baseline], project, {0, 1})
        suppressed = os.path.join(work, "baselined.sarif")
        emberlint(exe, ["check", "--cache-dir", cache, "--baseline", baseline, "-o", suppressed], project, {0, 1})
        logs.append(suppressed)
        # A unit that does not parse: a failure, reported as a tool execution notification.
        broken = os.path.join(work, "broken")
        os.makedirs(os.path.join(broken, "src"))
        with open(os.path.join(broken, ".emberlint.json"), "w") as f:
            json.dump({"layers": {"frontend": ["src/**"], "backends": {"cpu": ["cpu/**"]}},
                       "compile_flags": ["-std=c++20"]}, f)
        with open(os.path.join(broken, "src", "broken.cpp"), "w") as f:
            f.write("int broken( { return 1; }\n#include \"missing_generated.h\"\n")
        failed = os.path.join(work, "failed.sarif")
        emberlint(exe, ["check", "--cache-dir", cache, "-o", failed], broken, {3})
        logs.append(failed)
        # The inventory of a project in the enum-dispatch shape: the EL4xx rules.
        shape = os.path.join(work, "enum_dispatch")
        shutil.copytree(os.path.join(source, "tests/analyze/shapes/enum_dispatch"), shape)
        inventory = os.path.join(work, "inventory.sarif")
        emberlint(exe, ["analyze", "--cache-dir", cache, "-o", inventory], shape, {0, 1})
        logs.append(inventory)

        for log in logs:
            if not os.path.exists(log):
                fail(f"emberlint wrote no {log}")
                continue
            with open(log, encoding="utf-8") as f:
                doc = json.load(f)
            count = sum(len(run.get("results", [])) for run in doc.get("runs", []))
            results = validate(validator, log, work)
            if results is None:
                continue
            for rule, level, message in results:
                fail(f"{os.path.basename(log)}: {level} {rule}: {message}")
            print(f"{os.path.basename(log)}: {count} results, {len(results)} validator findings")
        # The logs must hold what they are meant to show, or the validation above proves little.
        with open(check, encoding="utf-8") as f:
            codes = {r["ruleId"].split(".")[0] for r in json.load(f)["runs"][0]["results"]}
        for code in ("EL100", "EL101", "EL200", "EL300"):
            if code not in codes:
                fail(f"check.sarif has no {code} result")
        with open(failed, encoding="utf-8") as f:
            run = json.load(f)["runs"][0]
        if not any(inv.get("toolExecutionNotifications") for inv in run.get("invocations", [])):
            fail("failed.sarif has no tool execution notification for the unit that did not parse")

        # A broken log: a result at line 0 and a tool without a name. The validator must say so.
        with open(check, encoding="utf-8") as f:
            doc = json.load(f)
        doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
        del doc["runs"][0]["tool"]["driver"]["name"]
        bad = os.path.join(work, "broken-on-purpose.sarif")
        with open(bad, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        results = validate(validator, bad, work) or []
        found = {rule for rule, _, _ in results}
        if not {"JSON1008", "JSON1002"} <= found:
            fail(f"the validator missed the errors of a log broken on purpose (it found {sorted(found)})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("every SARIF log is valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())

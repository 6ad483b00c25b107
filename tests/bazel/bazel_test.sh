#!/bin/bash
# emberlint's Bazel aspect (bazel/emberlint.bzl) on the small workspace beside this script, with Debian's
# bazel-bootstrap, offline (ctest emberlint_bazel):
#   1. the aspect's per-unit reports and the merged report (emberlint_report, JSON and SARIF): exactly the
#      planted EL100 and EL101 in front/api.cpp, the three units named, none failed; the target's copts reach
#      emberlint (front/api.cpp has an #error without them);
#   2. after `bazel clean`, a rebuild with --disk_cache runs no emberlint action: every one is a cache hit;
#   3. editing the header fast/kernel.hpp reruns exactly the checks of its two includers, not tool/main.cpp;
#      editing .emberlint.json reruns all three.
# Which actions ran and which were cache hits comes from Bazel's execution log. Exit 77 (skipped) without
# bazel.
#
# usage: bazel_test.sh EMBERLINT SOURCE_DIR
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 EMBERLINT SOURCE_DIR" >&2
  exit 2
fi
emberlint=$(realpath "$1")
source_dir=$(realpath "$2")
if ! command -v bazel >/dev/null; then
  echo "bazel_test: no bazel (Debian's bazel-bootstrap): skipped"
  exit 77
fi
python=/usr/bin/python3

work=$(mktemp -d "${TMPDIR:-/tmp}/emberlint-bazel.XXXXXX")
ws=$work/ws
in_ws() { (cd "$ws" && bazel --output_user_root="$work/root" --max_idle_secs=300 "$@"); }
cleanup() {
  in_ws shutdown >/dev/null 2>&1 || true
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "bazel_test: $*" >&2
  exit 1
}

cp -r "$source_dir/tests/bazel/workspace" "$ws"
cat >"$ws/WORKSPACE" <<EOF
local_repository(name = "emberlint", path = "$source_dir/bazel")

# Debian's bazel-bootstrap would download these for its own tools; offline, our forwarding stand-ins.
local_repository(name = "rules_cc", path = "$source_dir/tests/bazel/offline/rules_cc")
local_repository(name = "rules_java", path = "$source_dir/tests/bazel/offline/rules_java")

load("@emberlint//:repositories.bzl", "emberlint_tool")

emberlint_tool(name = "emberlint_tool", path = "$emberlint")
EOF

aspect=(--aspects=@emberlint//:emberlint.bzl%emberlint_aspect --output_groups=emberlint_reports,emberlint_sarif)
# build LOG TARGETS...: builds with the disk cache, the execution log written to $work/LOG.json.
build() {
  local log=$1
  shift
  in_ws build --disk_cache="$work/cache" --execution_log_json_file="$work/$log.json" "$@" >"$work/$log.out" 2>&1 ||
    fail "bazel build $* failed:
$(tail -n 40 "$work/$log.out")"
}
# spawns LOG: one line per emberlint check in the execution log: "<source> hit" or "<source> ran".
spawns() {
  "$python" - "$work/$1.json" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
decoder, at, lines = json.JSONDecoder(), 0, []
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        break
    spawn, at = decoder.raw_decode(text, at)
    if spawn.get("mnemonic") != "Emberlint":
        continue
    args = spawn.get("commandArgs", [])
    source = args[args.index("--") - 1]
    lines.append(f"{source} {'hit' if spawn.get('remoteCacheHit') else 'ran'}")
print("\n".join(sorted(lines)))
EOF
}
expect_spawns() {
  local log=$1 expected=$2 got
  got=$(spawns "$log")
  [ "$got" = "$expected" ] || fail "$log: the emberlint actions were
$got
expected
$expected"
}

# 1. the reports
build first //... "${aspect[@]}"
build first_report //:report //:report_sarif
expect_spawns first "fast/kernel.cpp ran
front/api.cpp ran
tool/main.cpp ran"
bin=$(in_ws info bazel-bin 2>/dev/null)
"$python" - "$bin" <<'EOF' || fail "the reports are not the planted findings"
import json, os, sys
bin = sys.argv[1]
problems = []
def findings(doc):
    return sorted((d["code"], d["file"]) for d in doc["diagnostics"])
planted = [("EL100", "front/api.cpp"), ("EL101", "front/api.cpp")]
api = json.load(open(os.path.join(bin, "front/api.emberlint/front/api.cpp.json")))
if findings(api) != planted or api.get("unit") != "front/api.cpp":
    problems.append(f"front/api.cpp's own report: {findings(api)}, unit {api.get('unit')}")
tool = json.load(open(os.path.join(bin, "tool/tool.emberlint/tool/main.cpp.json")))
if tool["diagnostics"] or tool["failures"] or tool["files_analyzed"] != 1:
    problems.append(f"tool/main.cpp's report is not clean: {tool}")
merged = json.load(open(os.path.join(bin, "report.json")))
if findings(merged) != planted:
    problems.append(f"the merged report's findings: {findings(merged)}")
if merged.get("units") != ["fast/kernel.cpp", "front/api.cpp", "tool/main.cpp"] or merged["failures"]:
    problems.append(f"the merged report's units {merged.get('units')}, failures {merged['failures']}")
sarif = json.load(open(os.path.join(bin, "report_sarif.sarif")))
results = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                 for r in sarif["runs"][0]["results"])
if results != planted or len(sarif["runs"][0]["properties"]["units"]) != 3:
    problems.append(f"the merged SARIF log's results: {results}")
print("\n".join(problems), file=sys.stderr)
sys.exit(1 if problems else 0)
EOF

# 2. bazel clean, then everything from the disk cache
in_ws clean >/dev/null 2>&1
build cached //... "${aspect[@]}"
expect_spawns cached "fast/kernel.cpp hit
front/api.cpp hit
tool/main.cpp hit"

# 3. a header edit reruns its includers' checks; a config edit reruns every check
echo "// edited" >>"$ws/fast/kernel.hpp"
build header //... "${aspect[@]}"
expect_spawns header "fast/kernel.cpp ran
front/api.cpp ran"
sed -i 's|"layers"|"rules": {"EL101": "off"},\n  "layers"|' "$ws/.emberlint.json"
build config //... "${aspect[@]}"
expect_spawns config "fast/kernel.cpp ran
front/api.cpp ran
tool/main.cpp ran"
"$python" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
codes = sorted(d["code"] for d in doc["diagnostics"])
sys.exit(0 if codes == ["EL100"] else f"after turning EL101 off, front/api.cpp has {codes}")
' "$bin/front/api.emberlint/front/api.cpp.json"

echo "bazel_test: the planted EL100 and EL101 found; after bazel clean all 3 checks were disk-cache hits; a header" \
  "edit reran its 2 includers' checks, a config edit all 3"

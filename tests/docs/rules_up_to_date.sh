#!/usr/bin/env bash
# The test docs_rules_up_to_date: docs/rules.md must be what scripts/gen-docs-rules.sh prints for this build.
#   bash tests/docs/rules_up_to_date.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build_dir=$2
fresh=$(mktemp "${TMPDIR:-/tmp}/emberlint-rules.XXXXXX.md")
trap 'rm -f "$fresh"' EXIT
bash "$source_dir/scripts/gen-docs-rules.sh" "$build_dir" >"$fresh"
if ! diff -u "$source_dir/docs/rules.md" "$fresh"; then
  echo "docs/rules.md is out of date with \`emberlint rule\`: run" >&2
  echo "  bash scripts/gen-docs-rules.sh $build_dir > docs/rules.md" >&2
  echo "from the repository root and commit the result." >&2
  exit 1
fi
echo "docs/rules.md matches \`emberlint rules\` and \`emberlint rule CODE\`"

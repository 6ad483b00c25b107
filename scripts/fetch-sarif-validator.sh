#!/usr/bin/env bash
# Microsoft's SARIF validator, the SARIF Multitool (npm package @microsoft/sarif-multitool-linux, a
# self-contained Linux executable), pinned by version and by the registry's sha512, unpacked into
# build/tools/sarif-multitool/. tests/lint/sarif_validator_test.py validates emberlint's SARIF logs with it (the
# OASIS schema and the SARIF and GitHub rules); `scripts/setup.sh test` runs this first. A test tool, not a
# build dependency: nothing of it is linked or installed. Needs curl; does nothing when that version is there.
set -euo pipefail

version=5.7.0
integrity=NxUbpq6ISCWoTQ/NfOYEwEDKq1Heka/rMoJ5R5LMydcAZQX/X7g5mWHcgxDub+0M07LC96tZ5LZHvF1Qy3gjTA==
url=https://registry.npmjs.org/@microsoft/sarif-multitool-linux/-/sarif-multitool-linux-$version.tgz

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$root/build/tools/sarif-multitool
if [ -x "$dest/Sarif.Multitool" ] && [ "$(cat "$dest/.version" 2>/dev/null)" = "$version" ]; then
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sarif-validator.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "fetch-sarif-validator: downloading SARIF Multitool $version from the npm registry"
curl -fsSL --retry 3 -o "$work/package.tgz" "$url"
want=$(printf '%s' "$integrity" | base64 -d | od -An -tx1 -v | tr -d ' \n')
got=$(sha512sum "$work/package.tgz" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
  echo "fetch-sarif-validator: $url does not have the pinned sha512 (got $got)" >&2
  exit 1
fi
tar -xzf "$work/package.tgz" -C "$work"
chmod u+x "$work/package/Sarif.Multitool"
echo "$version" >"$work/package/.version"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$work/package" "$dest"
echo "fetch-sarif-validator: $dest/Sarif.Multitool"

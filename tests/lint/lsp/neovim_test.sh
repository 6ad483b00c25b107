#!/usr/bin/env bash
# Debian's Neovim, headless, as a real client of `emberlint lsp` on a copy of the fixture project: the
# diagnostics it receives, the code actions it is offered, the re-check after it applied the fix, and the
# reload after it saved .emberlint.json (docs/editors.md's Neovim 0.7 snippet attaches the config's buffer).
#   bash tests/lint/lsp/neovim_test.sh NVIM EMBERLINT FIXTURES
set -euo pipefail
nvim=$1 emberlint=$2 fixtures=$3
if ! command -v "$nvim" >/dev/null 2>&1; then
  echo "neovim_test: '$nvim' not found: install Debian's neovim (bash scripts/setup.sh install)" >&2
  exit 1
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project"
cp -r "$fixtures/project/." "$work/project/"
cat > "$work/project/frontend/demo.cpp" <<'CPP'
#include <ember/tensor.hpp>

ember::Tensor twice(const ember::Tensor& a, const ember::Tensor& b) {
  ember::Tensor c = a + b;
  return c;
}
CPP
status=0
XDG_CACHE_HOME=$work/cache XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data \
  EMBERLINT_EXE=$emberlint EMBERLINT_PROJECT=$work/project EMBERLINT_RESULT=$work/result.txt \
  "$nvim" --headless -u NONE -i NONE -n -c "luafile $here/neovim_client.lua" </dev/null || status=$?
expected="diagnostic 3:22 EL200 operator '+' applied to tensor type 'ember::Tensor': use ember::ops::add()
action Fix EL200: replace with \`ember::ops::add(a, b)\`
action Suppress EL200 on this line (with a reason)
line   ember::Tensor c = ember::ops::add(a, b);
after the fix: 0 diagnostics
after the config save: 0 diagnostics"
got=$(cat "$work/result.txt" 2>/dev/null || echo "(Neovim wrote no result; exit status $status)")
if [ "$got" != "$expected" ] || [ "$status" -ne 0 ]; then
  echo "neovim_test: Neovim (exit status $status) saw:" >&2
  printf '%s\n' "$got" >&2
  echo "expected:" >&2
  printf '%s\n' "$expected" >&2
  exit 1
fi
echo "neovim_test: Neovim $("$nvim" --version | head -1 | cut -d' ' -f2) received the diagnostics, offered the fix, applied it, saw the file clean and the config save reloaded"

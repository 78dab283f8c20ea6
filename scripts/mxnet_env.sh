#!/usr/bin/env bash
# The mxnet backend (plugins/ivy-mxnet) in a virtual environment of its own: MXNet 1.9.1 needs
# numpy<1.24, which the monorepo's .venv (numpy 2) cannot hold. Creates or refreshes
# $IVY_MXNET_VENV (default .venv-mxnet) at the versions in plugins/ivy-mxnet/constraints.txt,
# with $IVY_MXNET_PYTHON (default python3; 3.10 or 3.11: numpy 1.23 has wheels for no later one),
# then runs the conformance kit, the plugin's tests and its README's example there.
#   scripts/mxnet_env.sh                  set up (if needed), then test
#   scripts/mxnet_env.sh --setup-only     set up only
#   scripts/mxnet_env.sh -- ARGS...       set up, then run pytest with ARGS instead of the default
# Sourced, it sets up and puts the venv's bin/ first on PATH (and runs nothing else).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${IVY_MXNET_VENV:-$ROOT/.venv-mxnet}"
PY="$VENV/bin/python"
PLUGIN="$ROOT/plugins/ivy-mxnet"
STAMP="$VENV/.ivy-mxnet-stamp"
# The C dispatcher is built in place by ivy-core's editable install: its source is in the stamp.
want="$(cat "$PLUGIN/constraints.txt" "$PLUGIN/pyproject.toml" "$ROOT/ivy_core/pyproject.toml" \
  "$ROOT/ivy_core/setup.py" "$ROOT/ivy_core/src/ivy/_cdispatch.c" | cksum)"
t0=$(date +%s)
if [ ! -x "$PY" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
  echo "== mxnet: setting up $VENV (first run: about a minute, MXNet's wheel is 49 MB)"
  if [ ! -x "$PY" ]; then
    base="${IVY_MXNET_PYTHON:-python3}"
    ver="$("$base" -c 'import sys; print("Python %d.%d" % sys.version_info[:2])' 2>/dev/null || echo "not a Python")"
    case "$ver" in
      "Python 3.10" | "Python 3.11") ;;
      *)
        echo "== mxnet: needs Python 3.10 or 3.11 (numpy<1.24 has no wheels for later ones); $base is $ver:" \
          "set IVY_MXNET_PYTHON" >&2
        return 1 2>/dev/null || exit 1 ;;
    esac
    "$base" -m venv "$VENV"
  fi
  "$PY" -m pip install -q --upgrade pip
  # ivy-core without its [test] extra (that pins numpy>=2.4): the kit's dependencies come from
  # the plugin's [test] extra, at the versions that run on numpy 1.23
  "$PY" -m pip install -q -c "$PLUGIN/constraints.txt" -e "$ROOT/ivy_core" -e "$PLUGIN[test]"
  echo "$want" > "$STAMP"
  echo "== mxnet: environment ready ($(( $(date +%s) - t0 )) s)"
fi
export PATH="$VENV/bin:$PATH"
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  return 0  # sourced: set up only
fi
cd "$ROOT"
export PYTHONDONTWRITEBYTECODE=1
case "${1:-}" in
  --setup-only) exit 0 ;;
  --) shift; exec "$PY" -m pytest -p ivy.testing --ivy-backend mxnet -p no:cacheprovider --import-mode=importlib "$@" ;;
esac
echo "== mxnet: the conformance kit (ivy.testing.suite), plugins/ivy-mxnet/tests and its README's example"
exec "$PY" -m pytest -p ivy.testing --ivy-backend mxnet --pyargs ivy.testing.suite plugins/ivy-mxnet/tests \
  tests/test_docs_examples.py -q -p no:cacheprovider --import-mode=importlib "$@"

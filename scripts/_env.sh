# Sourced by scripts/*: creates (or refreshes) the virtual environment with every distribution of
# the monorepo installed editable, at the versions pinned in constraints.txt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${IVY_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"
STAMP="$VENV/.ivy-env-stamp"
LIB_DIRS=()
for d in "$ROOT"/libs/ivy-*/; do [ -f "$d/pyproject.toml" ] && LIB_DIRS+=("${d%/}"); done
# The C dispatcher is built in place by the editable install: its source is part of the stamp.
want="$(cat "$ROOT/constraints.txt" "$ROOT"/ivy_core/pyproject.toml "$ROOT"/ivy_core/setup.py \
  "$ROOT"/ivy_core/src/ivy/_cdispatch.c "$ROOT"/plugins/*/pyproject.toml "$ROOT"/templates/ivy-plugin/pyproject.toml \
  "${LIB_DIRS[@]/%//pyproject.toml}" | cksum)"
if [ ! -x "$PY" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
  echo "== setting up $VENV (first run takes a few minutes: frameworks are large)"
  [ -x "$PY" ] || python3 -m venv "$VENV"
  "$PY" -m pip install -q --upgrade pip
  libs=()
  for d in "${LIB_DIRS[@]}"; do libs+=(-e "$d"); done
  # One resolver run for everything, so the pins in constraints.txt hold together. The plugin
  # template (backend "strict") runs the conformance kit in CI. The test references of the
  # libraries: scipy, transforms3d, kornia (on the pinned torch), gymnasium; the transpiler's
  # sources in its acceptance tests: Hugging Face transformers models (from configs), Haiku.
  # pip byte-compiles what it installs on one core; the venv's ~19,000 modules compile on every
  # core instead, after the install (torch and tensorflow: 39 s -> 34 s here); every process that
  # imports a framework then reads its compiled modules, as after a plain pip install
  "$PY" -m pip install -q --no-compile -c "$ROOT/constraints.txt" \
    -e "$ROOT/ivy_core" \
    -e "$ROOT/plugins/ivy-numpy" \
    -e "$ROOT/plugins/ivy-torch" \
    -e "$ROOT/plugins/ivy-jax[flax]" \
    -e "$ROOT/plugins/ivy-tensorflow[cpu]" \
    -e "$ROOT/plugins/ivy-paddle[cpu]" \
    -e "$ROOT/templates/ivy-plugin" \
    "${libs[@]}" \
    pytest pytest-xdist hypothesis array-api-strict scipy transforms3d kornia gymnasium ruff mypy matplotlib tqdm \
    transformers dm-haiku array-api-compat eagerpy
  # (a few modules of the frameworks' own tests and templates are not Python 3 and do not compile,
  # as with pip: its status is not the set-up's)
  "$PY" -m compileall -q -j 0 "$("$PY" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null || true
  echo "$want" > "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
cd "$ROOT"

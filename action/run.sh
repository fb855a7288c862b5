#!/usr/bin/env bash
# The steps of the kici-preflight GitHub Action (action.yml at the
# repository's root), as a script that .ci/integrations runs outside
# GitHub too.
#
#   bash action/run.sh install   build kici-preflight from the action's own
#                                source (GITHUB_ACTION_PATH, the action at
#                                the ref the workflow names) with the runner's
#                                Go, into RUNNER_TEMP; output "path"
#   bash action/run.sh check     run it with the INPUT_* variables the
#                                action's inputs set; outputs "exit-code"
#                                and, with INPUT_UPLOAD_SARIF=true,
#                                "sarif-file"
#
# Outputs are written to GITHUB_OUTPUT, as a step's.
set -euo pipefail

install() {
  local bin="$RUNNER_TEMP/kici-preflight-bin"
  # Built from the checked-out action, not fetched by module path: the
  # binary is the action's own ref, for a tag, a commit, a branch, a fork or
  # `uses: ./` alike. The module's dependencies come from the module proxy.
  (cd "$GITHUB_ACTION_PATH" && GOBIN="$bin" go install ./cmd/kici-preflight)
  echo "path=$bin/kici-preflight" >>"$GITHUB_OUTPUT"
}

check() {
  local args=() codes=() status=0 code
  [ -z "${INPUT_CONFIG:-}" ] || args+=(-config "$INPUT_CONFIG")
  [ -z "${INPUT_DIR:-}" ] || args+=(-dir "$INPUT_DIR")
  [ -z "${INPUT_ENV_FILE:-}" ] || args+=(-env-file "$INPUT_ENV_FILE")
  [ -z "${INPUT_WORKDIR:-}" ] || args+=(-workdir "$INPUT_WORKDIR")
  [ -z "${INPUT_TARGET:-}" ] || args+=(-target "$INPUT_TARGET")
  case "${INPUT_STRICT:-false}" in
    true) args+=(-strict) ;;
    false) ;;
    *) echo "kici-preflight action: strict is \"$INPUT_STRICT\", not true or false" >&2; exit 2 ;;
  esac
  IFS=', ' read -r -a codes <<<"${INPUT_IGNORE:-}"
  for code in ${codes[@]+"${codes[@]}"}; do
    [ -z "$code" ] || args+=(-ignore "$code")
  done
  "$KICI_PREFLIGHT" ${args[@]+"${args[@]}"} -format "${INPUT_FORMAT:-github}" || status=$?
  if [ "${INPUT_UPLOAD_SARIF:-false}" = true ]; then
    # The log for code scanning, written even when the config cannot be
    # read (the run then says why); its exit status is the run's above.
    "$KICI_PREFLIGHT" ${args[@]+"${args[@]}"} -format sarif -quiet >"$INPUT_SARIF_FILE" || true
    echo "sarif-file=$INPUT_SARIF_FILE" >>"$GITHUB_OUTPUT"
  fi
  echo "exit-code=$status" >>"$GITHUB_OUTPUT"
}

case "${1:-}" in
  install) install ;;
  check) check ;;
  *) echo "usage: bash action/run.sh install|check" >&2; exit 2 ;;
esac

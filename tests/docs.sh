#!/usr/bin/env bash
# The docs' worked examples, run as tests: in every docs/*.md, each ```console block holds
# "$ COMMAND" lines, each followed by the output it must print exactly.  COMMAND runs in the
# source tree with this build's fitscale first on PATH.  Speaks TAP for automake's driver.
set -u
. "${FS_SRCDIR:-.}/tests/lib.sh"
mkdir -p "$tmp/bin"
ln -s "$(cd "$build" && pwd)/fitscale" "$tmp/bin/fitscale"
export PATH="$tmp/bin:$PATH"

run_example() {  # FILE LINE COMMAND EXPECTED_FILE
  if (cd "$src" && bash -c "$3") >"$tmp/actual" 2>&1 && diff -u "$4" "$tmp/actual" >"$tmp/diff"; then
    ok "$1:$2 $3"
  else
    n=$((n + 1)) failures=$((failures + 1))
    echo "not ok $n - $1:$2 $3"
    comment "$tmp/diff" | head -40
  fi
}

for doc in "$src"/docs/*.md; do
  name=docs/$(basename "$doc")
  in_block=0 command="" line=0 number=0
  : >"$tmp/expected"
  while IFS= read -r text || [ -n "$text" ]; do
    number=$((number + 1))
    if [ "$in_block" = 0 ]; then
      [ "$text" = '```console' ] && in_block=1
      continue
    fi
    if [ "$text" = '```' ] || [ "${text#\$ }" != "$text" ]; then
      [ -n "$command" ] && run_example "$name" "$line" "$command" "$tmp/expected"
      command="" ; : >"$tmp/expected"
      if [ "$text" = '```' ]; then in_block=0; else command=${text#\$ }; line=$number; fi
      continue
    fi
    printf '%s\n' "$text" >>"$tmp/expected"
  done <"$doc"
done
tap_end

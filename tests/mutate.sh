#!/usr/bin/env bash
# fitscale — mutation run: do the tests catch what they claim?  Applies each mutation of a list
# (tests/mutations.txt) on its own to a scratch copy of the tree, rebuilds it, runs the fast
# suites (the cmocka unit tests, then tests/cli.sh) and prints whether a suite failed (killed)
# or none did (SURVIVED), then the kill rate.  Not part of make check or ./check: about 15 s a
# mutation on two cores, after a first build of the copy.  A mutation whose text is not found
# (the code moved on) or that does not build is an error, never counted as killed.
#
# Usage: tests/mutate.sh [-c] [-d DIR] [-l LIST] [SELECT...]
#   -c       only check that every mutation of the list applies (no build, no tests)
#   -d DIR   keep the scratch copy and its build in DIR and reuse them next time (only the
#            files that differ are copied again); default a temporary directory
#   -l LIST  the mutation list (default tests/mutations.txt)
#   SELECT   run only some mutations: a number (its place in the list) or a text found in the
#            mutation's line or in its rule comment
# Exit status: 0 every mutation killed, 1 some survived, 2 an error.
#
# The list: one mutation a line, "FILE: OLD => NEW", where OLD is a fixed text that occurs
# exactly once in FILE ("FILE#N: ..." picks the Nth occurrence when it is not unique) and NEW
# replaces it.  A comment line (#) names the rule the mutations below it break.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir="" list="$top/tests/mutations.txt" only_check=false
while getopts cd:l: opt; do
  case $opt in
    c) only_check=true ;;
    d) dir=$OPTARG ;;
    l) list=$OPTARG ;;
    *) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
selects=("$@")
[ -r "$list" ] || { echo "mutate: no list $list" >&2; exit 2; }

# ---- the list ----------------------------------------------------------------------------
files=() nths=() olds=() news=() rules=() lines=()
rule=""
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    '#'*) rule=${line#\#}; rule=${rule# }; continue ;;
    *[![:space:]]*) ;;
    *) continue ;;
  esac
  target=${line%%: *} rest=${line#*: }
  file=${target%%#*} nth=0
  [ "$file" != "$target" ] && nth=${target#*#}
  if [ "$rest" = "$line" ] || [ "${rest%% => *}" = "$rest" ]; then
    echo "mutate: $list: not \"FILE: OLD => NEW\": $line" >&2
    exit 2
  fi
  files+=("$file") nths+=("$nth") olds+=("${rest%% => *}") news+=("${rest#* => }")
  rules+=("$rule") lines+=("$line")
done <"$list"

selected() {  # selected INDEX
  [ ${#selects[@]} = 0 ] && return 0
  local s
  for s in "${selects[@]}"; do
    case $s in
      *[!0-9]*) case "${rules[$1]} ${lines[$1]}" in *"$s"*) return 0 ;; esac ;;
      *) [ "$s" = "$(($1 + 1))" ] && return 0 ;;
    esac
  done
  return 1
}

# apply FILE NTH OLD NEW: replaces the NTH occurrence (0: the only one) of OLD in FILE and prints
# its line number, or says what it found
apply() {
  python3 - "$@" <<'EOF'
import sys
path, nth, old, new = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
text = open(path, encoding="utf-8").read()
count = text.count(old)
if count == 0 or (nth == 0 and count > 1) or nth > count:
    sys.exit("found %d times%s" % (count, "" if nth == 0 else ", wanted occurrence %d" % nth))
at = -1
for _ in range(max(nth, 1)):
    at = text.index(old, at + 1)
open(path, "w", encoding="utf-8").write(text[:at] + new + text[at + len(old):])
print(text.count("\n", 0, at) + 1)
EOF
}

if $only_check; then
  scratch=$(mktemp) errors=0
  for i in "${!files[@]}"; do
    selected "$i" || continue
    cp "$top/${files[$i]}" "$scratch" 2>/dev/null || { echo "$((i + 1)): no file ${files[$i]}"; errors=$((errors + 1)); continue; }
    if ! at=$(apply "$scratch" "${nths[$i]}" "${olds[$i]}" "${news[$i]}" 2>&1); then
      echo "$((i + 1)): ${files[$i]}: \"${olds[$i]}\" $at"; errors=$((errors + 1))
    fi
  done
  rm -f "$scratch"
  echo "mutate: ${#files[@]} mutations, $errors that do not apply"
  [ $errors = 0 ]; exit $?
fi

# ---- the scratch copy and its build ------------------------------------------------------
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
tree="$dir/tree" build="$dir/tree/_build/mutate" log="$dir/mutate.log"
: >"$log"
# Every file of the tree but its builds and .git.  A fresh copy keeps the files' times (the
# generated configure stays newer than configure.ac); a reused one gets only the files that
# differ, with a new time, so that make rebuilds them and nothing else.
if [ ! -d "$tree" ]; then
  mkdir -p "$tree"
  tar -C "$top" --exclude=./_build --exclude=./.git -cf - . | tar -C "$tree" -xf -
else
  (cd "$top" && find . \( -path ./_build -o -path ./.git \) -prune -o -type f -print) |
    while IFS= read -r f; do
      cmp -s "$top/$f" "$tree/$f" || { mkdir -p "$tree/$(dirname "$f")" && cp "$top/$f" "$tree/$f"; }
    done
fi
echo "mutate: scratch copy in $tree, log in $log"
if ! (cd "$tree" && . tools/bootstrap.sh && fs_bootstrap mutate) >>"$log" 2>&1; then
  echo "mutate: the scratch copy does not build, see $log" >&2
  exit 2
fi
units=$(cd "$tree" && for t in tests/test-*.c; do printf '%s ' "${t%.c}"; done)

# run_suites: builds, then runs the unit tests and, when they pass, tests/cli.sh; prints the
# suites that failed, or nothing when all pass.  Status 2 when it does not build.
run_suites() {
  make -s -C "$build" -j2 check TESTS= >>"$log" 2>&1 || return 2
  local suites suite failed
  for suites in "$units" tests/cli.sh; do
    # shellcheck disable=SC2086
    timeout 300 make -s -C "$build" -j2 check TESTS="$suites" >>"$log" 2>&1 && continue
    failed=""
    for suite in $suites; do
      grep -qs '^:global-test-result: \(FAIL\|ERROR\)' "$build/$suite.trs" && failed="$failed${failed:+ }$suite"
    done
    echo "${failed:-a timeout}"
    return 0
  done
}

echo "mutate: the unmutated copy"
failed=$(run_suites); status=$?
if [ $status != 0 ] || [ -n "$failed" ]; then
  echo "mutate: the unmutated copy fails (${failed:-does not build}): fix that first; see $log" >&2
  exit 2
fi

# ---- the mutations -----------------------------------------------------------------------
mutated=""
restore() { [ -n "$mutated" ] && cp "$dir/original" "$tree/$mutated"; mutated=""; }
trap 'restore; exit 130' INT TERM
killed=0 survived=0 errors=0 survivors=""
for i in "${!files[@]}"; do
  selected "$i" || continue
  n=$((i + 1)) file=${files[$i]}
  if [ ! -f "$tree/$file" ]; then
    printf '%3d ERROR     no file %s\n' "$n" "$file"; errors=$((errors + 1)); continue
  fi
  cp -p "$tree/$file" "$dir/original"
  if ! at=$(apply "$tree/$file" "${nths[$i]}" "${olds[$i]}" "${news[$i]}" 2>&1); then
    printf '%3d ERROR     %s: "%s" %s\n' "$n" "$file" "${olds[$i]}" "$at"; errors=$((errors + 1)); continue
  fi
  mutated=$file
  what="$file:$at ${olds[$i]} => ${news[$i]}  (${rules[$i]})"
  echo "==== $n $what" >>"$log"
  start=$SECONDS
  failed=$(run_suites); status=$?
  restore  # a new time: the next build compiles the original again
  if [ $status != 0 ]; then
    printf '%3d ERROR     %s: does not build\n' "$n" "$what"; errors=$((errors + 1))
  elif [ -n "$failed" ]; then
    printf '%3d killed    %s [%s, %ds]\n' "$n" "$what" "$failed" $((SECONDS - start))
    killed=$((killed + 1))
  else
    printf '%3d SURVIVED  %s [%ds]\n' "$n" "$what" $((SECONDS - start))
    survived=$((survived + 1)) survivors="$survivors $n"
  fi
done
make -s -C "$build" -j2 >>"$log" 2>&1  # leave the build as the tree is

total=$((killed + survived))
echo "mutate: $killed of $total killed ($((total > 0 ? killed * 100 / total : 0)) %)${survivors:+; survived:$survivors}"
if [ $errors != 0 ]; then echo "mutate: $errors errors"; exit 2; fi
[ $survived = 0 ]

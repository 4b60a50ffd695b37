# fitscale tests — TAP helpers shared by the shell suites (sourced).  The caller sets tmp (a
# scratch directory); commands run by check leave their output in $tmp/out and $tmp/err.
n=0 failures=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# comment [FILE...]: the lines of the files (or of stdin) as TAP comments, each ended by a
# newline: awk adds the one a body may lack, which would glue the next result line onto it
comment() { awk '{ print "# " $0 }' "$@" 2>/dev/null; }
not_ok() { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; comment "$tmp/out" "$tmp/err" | head -20; }
# strict_json FILE: FILE's JSON values (one or more, as `why --watch` prints them) parse as
# strict JSON with every number finite: no inf, nan, Infinity or 1e999 (jq 1.6 reads `inf` as
# the largest double without a word, so expect alone would not see one)
strict_json() {
  python3 -c '
import json, math, sys
def number(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number %s is not finite" % text)
    return value
def constant(text):
    raise ValueError("%s is not JSON" % text)
text = open(sys.argv[1]).read()
decoder = json.JSONDecoder(parse_float=number, parse_constant=constant)
at = 0
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at >= len(text):
        break
    _, at = decoder.raw_decode(text, at)
' "$1"
}
# check NAME EXPECTED_STATUS COMMAND... : runs it, output in $tmp/out and $tmp/err; output that
# begins as JSON does (with { or [) must also be strict JSON (strict_json)
check() {
  local name=$1 expected=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local status=$?
  if [ "$status" = "$expected" ]; then ok "$name"; else echo "# exit $status, wanted $expected"; not_ok "$name"; fi
  local first
  first=$(tr -d ' \t\r\n' <"$tmp/out" | head -c 1)
  if { [ "$first" = "{" ] || [ "$first" = "[" ]; } && ! strict_json "$tmp/out" 2>"$tmp/strict.err"; then
    comment "$tmp/strict.err" | tail -1
    not_ok "$name: the output is strict JSON, every number finite"
  fi
}
# expect NAME [JQ-OPTIONS...] JQ_FILTER: the JSON in $tmp/out satisfies the filter (options such as --arg)
expect() {
  local name=$1; shift
  if jq -e "$@" "$tmp/out" >/dev/null 2>&1; then ok "$name"; else not_ok "$name"; fi
}
# contains NAME TEXT out|err
contains() {
  if grep -qF -- "$2" "$tmp/$3"; then ok "$1"; else not_ok "$1"; fi
}
# lacks NAME TEXT out|err
lacks() {
  if grep -qF -- "$2" "$tmp/$3"; then not_ok "$1"; else ok "$1"; fi
}
tap_end() { echo "1..$n"; [ "$failures" = 0 ]; }

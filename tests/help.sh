#!/usr/bin/env bash
# The help text and the man pages agree: fitscale(1) and `fitscale --help` list the same
# commands, each with its page docs/man/fitscale-CMD.1; the one-line summary `fitscale --help`
# lists is the end of `fitscale CMD --help`'s usage line and the page's NAME line; and the
# options --help lists are the options the page's OPTIONS section describes (long names, with
# the short letter where there is one).
# Speaks TAP for automake's driver.
set -u
bin="${FS_BUILDDIR:-.}/fitscale"
src="${FS_SRCDIR:-.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$src/tests/tap.sh"

# The options of a --help text, one per line, sorted: "S/snapshot", "kubeconfig".
help_options() {
  sed -n '/^Application Options:$/,/^$/p' "$1" \
    | sed -n 's/^  \(-\([A-Za-z0-9]\), \)\{0,1\}--\([a-z0-9-]*\).*/\2\/\3/p' \
    | sed 's|^/||' | sort
}

# The options of a man page's OPTIONS section, as help_options prints them: each tag (the
# line after .TP) may name several, a short option pairs with the long one after it.
man_options() {
  awk '/^\.SH / { in_options = ($2 == "OPTIONS"); next }
       in_options && previous == ".TP" { print }
       { previous = $0 }' "$1" \
    | sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\%//g' \
    | grep -oE '(^|[ "/(])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^[ "/(]//' \
    | awk '/^--/ { print (short != "" ? short "/" : "") substr($0, 3); short = ""; next }
           { if (short != "") print short "/"; short = substr($0, 2) }
           END { if (short != "") print short "/" }' \
    | sort
}

"$bin" --help >"$tmp/main" 2>&1
commands=$(sed -n '/^Commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p' "$tmp/main")
[ -n "$commands" ] && ok "fitscale --help lists commands" || not_ok "fitscale --help lists commands"

for page in "$src"/docs/man/fitscale-*.1; do
  name=$(basename "$page" .1); name=${name#fitscale-}
  if printf '%s\n' $commands | grep -qx "$name"; then ok "$name: a command with a man page"
  else not_ok "$name: docs/man/fitscale-$name.1 names no command of fitscale --help"; fi
done

# fitscale(1)'s COMMANDS: one ".TP" / ".B CMD" entry per command
awk '/^\.SH / { in_commands = ($2 == "COMMANDS"); next }
     in_commands && previous == ".TP" && $1 == ".B" { print $2 }
     { previous = $0 }' "$src/docs/man/fitscale.1" >"$tmp/man-commands"
if printf '%s\n' $commands | diff -u - "$tmp/man-commands" >"$tmp/diff"; then
  ok "fitscale(1) lists the commands of fitscale --help"
else
  comment "$tmp/diff"; not_ok "fitscale(1) lists the commands of fitscale --help"
fi

for cmd in $commands; do
  page="$src/docs/man/fitscale-$cmd.1"
  if [ ! -f "$page" ]; then not_ok "$cmd: has a man page (docs/man/fitscale-$cmd.1)"; continue; fi
  check "$cmd --help" 0 "$bin" "$cmd" --help
  mv "$tmp/out" "$tmp/help"; : >"$tmp/out"

  # the summary: fitscale --help (capitalized), the usage line, the man page's NAME
  listed=$(sed -n "s/^  $cmd  *//p" "$tmp/main")
  usage=$(sed -n '2s/^  fitscale [a-z]* \[OPTION[^]]*\] //p' "$tmp/help"); usage=${usage#*- }
  named=$(awk '/^\.SH NAME/ { getline; print; exit }' "$page" | sed 's/\\-/-/g')
  named=${named#fitscale-$cmd - }
  capitalized="$(printf '%s' "${usage:0:1}" | tr '[:lower:]' '[:upper:]')${usage:1}"
  if [ -n "$usage" ] && [ "$listed" = "$capitalized" ]; then ok "$cmd: fitscale --help lists the usage line's summary"
  else echo "# listed: $listed"; echo "# usage:  $usage"; not_ok "$cmd: fitscale --help lists the usage line's summary"; fi
  if [ "$named" = "$usage" ]; then ok "$cmd: the man page's NAME is the summary"
  else echo "# NAME:  $named"; echo "# usage: $usage"; not_ok "$cmd: the man page's NAME is the summary"; fi

  # the options, both ways
  help_options "$tmp/help" >"$tmp/help-options"
  man_options "$page" >"$tmp/man-options"
  if [ -s "$tmp/help-options" ] && diff -u "$tmp/help-options" "$tmp/man-options" >"$tmp/diff"; then
    ok "$cmd: --help and the man page's OPTIONS list the same options"
  else
    comment "$tmp/diff"
    not_ok "$cmd: --help and the man page's OPTIONS list the same options (- help only, + man page only)"
  fi
done

# SEE ALSO: fitscale(1) refers to every command's page, and every page refers only to pages
# that exist
see_also() {
  awk '/^\.SH / { in_see = ($2 == "SEE"); next } in_see' "$1" \
    | sed -n 's/^\.BR fitscale\\-\([a-z]*\) (1).*/\1/p' | sort
}
see_also "$src/docs/man/fitscale.1" >"$tmp/see-also"
if printf '%s\n' $commands | sort | diff -u - "$tmp/see-also" >"$tmp/diff"; then
  ok "fitscale(1)'s SEE ALSO names every command's page"
else
  comment "$tmp/diff"; not_ok "fitscale(1)'s SEE ALSO names every command's page (- missing, + extra)"
fi
for page in "$src"/docs/man/fitscale*.1; do
  missing=""
  for name in $(see_also "$page"); do
    [ -f "$src/docs/man/fitscale-$name.1" ] || missing="$missing fitscale-$name(1)"
  done
  if [ -z "$missing" ]; then ok "$(basename "$page"): SEE ALSO names pages that exist"
  else not_ok "$(basename "$page"): SEE ALSO names pages that do not exist:$missing"; fi
done

tap_end

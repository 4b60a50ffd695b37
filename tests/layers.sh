#!/usr/bin/env bash
# fitscale — the layers hold (docs/design.md): each file under src/LAYER/ and
# include/fitscale/LAYER/ includes only headers of its own layer and the layers below,
#   model < kube < plan < render < server < cli
# model/ uses no I/O library, only the server speaks HTTP, only kube/ parses JSON or YAML,
# and no source names a path of a build machine.  Prints TAP.
set -u
cd "${srcdir:-$(dirname "$0")/..}"

rank() {
  case $1 in
    model) echo 0 ;; kube) echo 1 ;; plan) echo 2 ;; render) echo 3 ;;
    server) echo 4 ;; cli) echo 5 ;; *) echo 99 ;;
  esac
}

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

layer_of() {  # src/plan/why.c -> plan; include/fitscale/kube/decode.h -> kube
  case $1 in
    src/*) f=${1#src/}; echo "${f%%/*}" ;;
    include/fitscale/*) f=${1#include/fitscale/}; echo "${f%%/*}" ;;
  esac
}

# 1. No upward include.
upward=""
for file in src/*/*.[ch] include/fitscale/*/*.h; do
  own=$(layer_of "$file")
  own_rank=$(rank "$own")
  [ "$own_rank" = 99 ] && { upward+="$file: unknown layer '$own'"$'\n'; continue; }
  while IFS= read -r inc; do
    target=${inc#fitscale/}; target=${target%%/*}
    [ "$(rank "$target")" -le "$own_rank" ] || upward+="$file includes $inc (layer $target above $own)"$'\n'
  done < <(sed -n 's/^#include "\(fitscale\/[^"]*\)".*/\1/p' "$file")
done
# Headers sit in a layer's folder, never loose in include/fitscale/.
for file in include/fitscale/*.h; do
  [ -e "$file" ] && upward+="$file: a header outside every layer's folder"$'\n'
done
if [ -z "$upward" ]; then ok "no file includes a header of a higher layer"
else not_ok "no file includes a header of a higher layer"; printf '#   %s\n' "${upward%$'\n'}"; fi

# 2. Libraries stay in their layer.
check_library() {  # DESCRIPTION PATTERN ALLOWED-LAYERS...
  local what=$1 pattern=$2; shift 2
  local found="" file own allowed
  for file in src/*/*.[ch] include/fitscale/*/*.h; do
    own=$(layer_of "$file"); allowed=no
    for layer in "$@"; do [ "$own" = "$layer" ] && allowed=yes; done
    [ $allowed = yes ] && continue
    grep -Eq "$pattern" "$file" && found+="$file"$'\n'
  done
  if [ -z "$found" ]; then ok "$what"; else not_ok "$what"; printf '#   %s\n' "${found%$'\n'}"; fi
}
check_library "HTTP in (libmicrohttpd) only in server/" '#include <microhttpd|MHD_[A-Za-z]' server
check_library "HTTP out (libcurl) only in kube/" '#include <curl/' kube
check_library "JSON and YAML parsers only in kube/" 'yajl_parse\.h|yajl_tree\.h|yaml_parser_' kube
check_library "JSON and YAML writers only in kube/ and render/" 'yajl_gen\.h|yaml_emitter_' kube render
# (server/ reads the trees of JSON request bodies, field by field, to answer 400 or 422 per field)
check_library "generic trees read only in kube/ and, for request bodies, server/ (the others read decoded structs)" \
  'fitscale/kube/tree\.h|fs_tree_[a-z]+ *\(' kube server
check_library "model/ does no I/O (no stdio streams, files or sockets)" \
  'fopen|fprintf|[^_a-z]printf *\(|g_print|g_file_get|[^_a-z]open *\(|socket *\(' kube plan render server cli

# 3. Comments cite upstream, never a path of a build machine.
paths=$(grep -rnE '(/home/|/work/|/root/|/Users/|\.\./shared)[A-Za-z]' \
  src include tests/*.c tests/*.h tests/fakeapi tests/fuzz/*.c bench/*.c 2>/dev/null || true)
if [ -z "$paths" ]; then ok "no source names a path of a build machine"
else not_ok "no source names a path of a build machine"; printf '#   %s\n' "$paths"; fi

echo "1..$n"
[ "$failed" = 0 ]

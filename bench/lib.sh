# bench/lib.sh — shared by the bench scripts (sourced, from the top of the source tree, after
# they read their arguments).  Loads tools/bootstrap.sh (fs_bootstrap builds fitscale), and
# builds the two self-contained tools (bench/gen-cluster.c, bench/yajl-count.c) once into
# $bench_bin, again only when the .c is newer than the program; bench_cluster generates the
# cluster once per size.

. tools/bootstrap.sh

bench_bin=_build/bench/bin

# bench_tool NAME PKG: $bench_bin/NAME, built from bench/NAME.c against the pkg-config
# package PKG unless it is there and not older than its source
bench_tool() {
  local name=$1 pkg=$2 out=$bench_bin/$1
  [ -x "$out" ] && [ ! "bench/$name.c" -nt "$out" ] && return 0
  mkdir -p "$bench_bin"
  # shellcheck disable=SC2046
  gcc -std=c11 -O2 -Wall -Wextra -Werror "bench/$name.c" $(pkg-config --cflags --libs "$pkg") \
    -o "$out.$$" && mv -f "$out.$$" "$out"
}

# bench_cluster: $data, the path prefix of a generated cluster of $nodes nodes and $pods pods
# in $dir ($data-nodes.json, $data-pods.json), generated when not there yet
bench_cluster() {
  bench_tool gen-cluster glib-2.0
  mkdir -p "$dir"
  data="$dir/cluster-$nodes-$pods"
  if [ ! -s "$data-pods.json" ]; then
    echo "generating $nodes nodes and $pods pods ..." >&2
    "$bench_bin/gen-cluster" --nodes "$nodes" --pods "$pods" --seed 1 \
      --out-nodes "$data-nodes.json" --out-pods "$data-pods.json"
  fi
}

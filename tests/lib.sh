# fitscale tests — the preamble shared by the shell suites (sourced, as
# `. "${FS_SRCDIR:-.}/tests/lib.sh"`).  Sets src, build, bin (this build's fitscale), fake (the
# fake API server), ex (the bundled example) and tmp (a scratch directory); on exit kills every
# process whose id is in pids and removes tmp.  Loads the TAP helpers (tap.sh) and forgets an
# in-cluster API server, so that no suite reads a cluster of the machine's.
src="${FS_SRCDIR:-.}"
build="${FS_BUILDDIR:-.}"
bin="$build/fitscale"
fake="$build/tests/fakeapi/fakeapi"
ex="$src/examples/rag-api"
tmp=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
. "$src/tests/tap.sh"
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

# wait_port FILE: waits (30 s at most: a server that lists a cluster first starts slowly under
# ASan on a busy machine) for a server started in the background to write its port into FILE;
# $port is the file's first line, empty (and said) when none came
wait_port() {
  for _ in $(seq 600); do [ -s "$1" ] && break; sleep 0.05; done
  port=$(head -1 "$1" 2>/dev/null)
  [ -n "$port" ] || echo "# no port in $1 after 30 s" >&2
}

# fake_api NAME ARGS...: starts the fake API server with ARGS, its log in $tmp/NAME.log, its
# stderr in $tmp/NAME.err; its port in $port
fake_api() {
  local name=$1; shift
  rm -f "$tmp/$name.port"
  "$fake" --port-file "$tmp/$name.port" --log "$tmp/$name.log" "$@" >/dev/null 2>"$tmp/$name.err" &
  pids+=($!)
  wait_port "$tmp/$name.port"
}

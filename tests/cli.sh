#!/usr/bin/env bash
# End-to-end: the real fitscale binary on the bundled example and the real fixtures.
# Speaks TAP for automake's driver.
set -u
bin="${FS_BUILDDIR:-.}/fitscale"
src="${FS_SRCDIR:-.}"
fixtures="$src/tests/fixtures/real"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0 failures=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failures=$((failures + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$tmp/out" "$tmp/err" 2>/dev/null | head -20; }
# check NAME EXPECTED_STATUS COMMAND... : runs it, output in $tmp/out and $tmp/err
check() {
  local name=$1 expected=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local status=$?
  if [ "$status" = "$expected" ]; then ok "$name"; else echo "# exit $status, wanted $expected"; not_ok "$name"; fi
}
# expect NAME JQ_FILTER: the JSON in $tmp/out satisfies the filter
expect() {
  if jq -e "$2" "$tmp/out" >/dev/null 2>&1; then ok "$1"; else not_ok "$1"; fi
}
contains() {
  if grep -qF -- "$2" "$tmp/$3"; then ok "$1"; else not_ok "$1"; fi
}



check "quantity -o json" 0 "$bin" quantity -o json 1.5Gi 100m 1e3 0.5n
expect "quantity 1.5Gi is 1536Mi" '.[0] == {"input":"1.5Gi","canonical":"1536Mi","value":1610612736,"milliValue":1610612736000}'
expect "quantity 100m rounds up to 1" '.[1].canonical == "100m" and .[1].value == 1 and .[1].milliValue == 100'
expect "quantity 0.5n rounds up to 1n" '.[3].canonical == "1n"'
check "quantity beyond int64 is null" 0 "$bin" quantity -o json 10E
expect "quantity 10E value null" '.[0].value == null and .[0].canonical == "10E"'
check "quantity invalid exits 2" 2 "$bin" quantity 1.5.5Gi
contains "quantity invalid names the input" '"1.5.5Gi"' err
check "quantity table" 0 "$bin" quantity 6Gi
contains "quantity table has the canonical form" "6Gi" out

check "nodes on the bundled example" 0 "$bin" nodes -S "$src/examples/rag-api" -o json -q
expect "example: 2 nodes" '.nodes | length == 2'
expect "example: 4 rag-api pods Pending" '.total.podsPending == 4'
expect "example: no node has 6Gi free" '[.nodes[].free.memory] | all(. != null)'
check "nodes table" 0 "$bin" nodes -S "$src/examples/rag-api"
contains "nodes table footer" "largest free piece" out

check "nodes on k3s fixtures" 0 "$bin" nodes -S "$fixtures/k3s-1node-nodes.json" -S "$fixtures/k3s-1node-pods-kube-system.json" -S "$fixtures/k3s-1node-pods-default-pending.json" -o json
expect "k3s: Succeeded pods not counted" '.nodes[0].requested.cpu == "1300m" and .nodes[0].requested.memory == "496Mi" and .nodes[0].pods == 9'
expect "k3s: 2 Pending" '.total.podsPending == 2'
check "nodes -o yaml" 0 "$bin" nodes -S "$fixtures/aks-3node-nodes.json" -o yaml
contains "yaml has allocatable cpu 1900m" "cpu: 1900m" out
check "nodes -o wide shows taints" 0 "$bin" nodes -S "$fixtures/eks-arm64-2node-tainted-nodes.json" -o wide
contains "wide: taint column" "type=hound:NoSchedule" out
check "nodes from stdin" 0 sh -c "cat '$fixtures/minikube-node.json' | '$bin' nodes -S - -o json"
expect "stdin: minikube node" '.nodes[0].allocatable.cpu == "4"'

printf '{"kind":"PodList","items":[{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":"6Gx"}}}]}}]}' > "$tmp/bad.json"
check "bad input exits 2" 2 "$bin" nodes -S "$tmp/bad.json"
contains "bad input names file, object, field" "bad.json: byte" err
contains "bad input names the field" "spec.containers[0].resources.requests.memory" err
check "missing file exits 2" 2 "$bin" nodes -S "$tmp/none.json"
check "no snapshot exits 2" 2 "$bin" nodes
check "unknown output format" 2 "$bin" nodes -S "$fixtures/minikube-node.json" -o xml
check "nodes --help" 0 "$bin" nodes --help
contains "help lists --snapshot" "--snapshot" out

echo "1..$n"
[ "$failures" = 0 ]

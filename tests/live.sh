#!/usr/bin/env bash
# End-to-end, live: the project's fake API server (tests/fakeapi) serving the bundled example,
# real kubectl against it (so that the fake speaks the real protocol), then every fitscale
# command against it, which must print exactly what it prints for the same objects given as
# --snapshot files; kubeconfig resolution, TLS, tokens, an exec plugin, in-cluster config,
# paging, and injected faults.  Speaks TAP for automake's driver.
set -u
. "${FS_SRCDIR:-.}/tests/lib.sh"
export HOME="$tmp/home" FS_RETRY_BASE_MS=1
mkdir -p "$HOME"

# kubeconfig FILE SERVER [USER-YAML] [CLUSTER-EXTRA]
kubeconfig() {
  cat >"$1" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: "$2"
${4:-}
users:
- name: tester
  user: ${3:-"{}"}
contexts:
- name: fake
  context: {cluster: fake, user: tester}
current-context: fake
YAML
}
# same NAME ARGS...: fitscale ARGS live (with $live_flags) and on $snapshot (paths, space
# separated) print the same
same() {
  local name=$1; shift
  "$bin" "$@" $live_flags >"$tmp/live.out" 2>"$tmp/live.err"; local live_status=$?
  local from=() path
  for path in $snapshot; do from+=(-S "$path"); done
  "$bin" "$@" "${from[@]}" >"$tmp/snap.out" 2>"$tmp/snap.err"; local snap_status=$?
  cp "$tmp/live.out" "$tmp/out"; cp "$tmp/live.err" "$tmp/err"
  if [ "$live_status" = "$snap_status" ] && cmp -s "$tmp/live.out" "$tmp/snap.out"; then ok "$name"
  else echo "# exit live $live_status, snapshot $snap_status"; diff "$tmp/snap.out" "$tmp/live.out" | head -10 | comment; not_ok "$name"; fi
}

# ---- the example over plain HTTP ----
snapshot="$ex"
fake_api plain "$ex"/*.json
kubeconfig "$tmp/plain.kubeconfig" "http://127.0.0.1:$port"
if command -v kubectl >/dev/null; then
  check "kubectl get nodes,pods -A -o json" 0 kubectl --kubeconfig "$tmp/plain.kubeconfig" get nodes,pods -A -o json
  jq -r '.items[] | "\(.kind) \(.metadata.namespace // "") \(.metadata.name)"' "$tmp/out" | sort >"$tmp/kubectl.names"
  jq -r '.kind as $k | .items[] | "\(.kind // ($k | rtrimstr("List"))) \(.metadata.namespace // "") \(.metadata.name)"' \
    "$ex/nodes.json" "$ex/pods.json" | sort >"$tmp/served.names"
  if cmp -s "$tmp/kubectl.names" "$tmp/served.names"; then ok "kubectl: the served nodes and pods, all of them"; else not_ok "kubectl: the served nodes and pods"; fi
  check "kubectl get pods -n production (a table)" 0 kubectl --kubeconfig "$tmp/plain.kubeconfig" get pods -n production
  contains "kubectl: a Pending rag-api pod" "rag-api-7948f7fb7-dc5k8" out
  check "kubectl get hpa,vpa (discovery of both groups)" 0 kubectl --kubeconfig "$tmp/plain.kubeconfig" get hpa,verticalpodautoscalers -n production -o name
  contains "kubectl: the HPA" "horizontalpodautoscaler.autoscaling/rag-api-hpa" out
  contains "kubectl: the VPA" "verticalpodautoscaler.autoscaling.k8s.io/rag-api-vpa" out
  check "kubectl get deployment rag-api (a get)" 0 kubectl --kubeconfig "$tmp/plain.kubeconfig" get deployment rag-api -n production -o json
  expect "kubectl: the Deployment" '.kind == "Deployment" and .metadata.name == "rag-api"'
else
  skip "kubectl against the fake API server" "kubectl not installed"
fi

live_flags="--kubeconfig $tmp/plain.kubeconfig"
same "nodes, live = snapshot" nodes
same "nodes -o json, live = snapshot" nodes -o json -q
same "why --all, live = snapshot" why -q --all -n production
same "why POD -o json, live = snapshot" why -q production/rag-api-7948f7fb7-dc5k8 -o json
same "capacity --vary, live = snapshot" capacity -q --from deployment/rag-api -n production --vary memory=1Gi..8Gi
same "hpa, live = snapshot" hpa -q production/rag-api-hpa --now 2026-10-09T14:00:00Z -o json
same "plan, live = snapshot" plan -q deployment/rag-api -n production
same "plan -o json --curve, live = snapshot" plan -q deployment/rag-api -n production -o json
same "simulate with placement, live = snapshot" simulate -q --hpa "$ex/hpa.json" --trace "$src/tests/data/trace-trap.csv" --replicas 2 --startup 30s --duration 600s -o json
if command -v kubectl >/dev/null; then
  # the design text's Hvpa (YAML), turned into JSON by kubectl against the fake's discovery
  for yaml in "$src/tests/data/hvpa-design/hvpa.yaml" "$src/tests/data/hvpa-design/cluster.yaml" "$src/tests/data/plan/tight-nodes.yaml"; do
    kubectl --kubeconfig "$tmp/plain.kubeconfig" create --dry-run=client --validate=false -o json -f "$yaml" 2>>"$tmp/convert.err" \
      | jq -s '{apiVersion: "v1", kind: "List", items: .}' >"$tmp/$(basename "$yaml" .yaml).json"
  done
  fake_api hvpa "$tmp/hvpa.json" "$tmp/cluster.json" "$tmp/tight-nodes.json"
  kubeconfig "$tmp/hvpa.kubeconfig" "http://127.0.0.1:$port"
  saved_snapshot=$snapshot saved_flags=$live_flags saved_port=$port
  snapshot="$src/tests/data/hvpa-design"
  live_flags="--kubeconfig $tmp/hvpa.kubeconfig"
  same "hvpa (the Hvpa served live, read from YAML offline)" hvpa -q default/hvpa-sample --now 2026-12-02T12:00:00Z -o json
  snapshot="$src/tests/data/hvpa-design $src/tests/data/plan/tight-nodes.yaml"
  same "plan hvpa/NAME on tight nodes, live = snapshot" plan -q hvpa/hvpa-sample --now 2026-12-02T12:00:00Z -o json
  snapshot=$saved_snapshot live_flags=$saved_flags port=$saved_port
fi
check "live: only what nodes needs is listed" 0 grep -c . "$tmp/plain.log"
: >"$tmp/plain.log"
"$bin" why -q production/rag-api-7948f7fb7-dc5k8 $live_flags >/dev/null 2>&1
if grep -q horizontalpodautoscalers "$tmp/plain.log"; then ok "why lists the HPAs (its replicas fix names the HPA)"; else not_ok "why lists the HPAs (its replicas fix names the HPA)"; fi
if grep -q 'pods?limit=500&fieldSelector=status.phase!=Succeeded,status.phase!=Failed' "$tmp/plain.log"; then ok "pods listed without the terminal ones"; else not_ok "pods listed without the terminal ones"; fi

# ---- fitscale snapshot: the live cluster as one List; every command answers the same from it ----
: >"$tmp/plain.log"
check "snapshot: the live cluster as one List" 0 "$bin" snapshot $live_flags
cp "$tmp/out" "$tmp/cluster.json"
expect "snapshot: a List with the server's version and the time" \
  '.kind == "List" and .metadata.annotations["snapshot.fitscale.io/server-version"] == "v1.31.0-fakeapi"
   and (.metadata.annotations["snapshot.fitscale.io/taken-at"] | test("^20[0-9-]+T[0-9:]+Z$"))
   and .metadata.annotations["snapshot.fitscale.io/namespace"] == ""'
expect "snapshot: every item has its kind and apiVersion" '[.items[] | select(.kind == null or .apiVersion == null)] | length == 0'
expect "snapshot: nodes, pods, workloads, HPA, VPA, PodMetrics, events" \
  '[.items[].kind] | unique == ["Deployment","Event","HorizontalPodAutoscaler","Node","Pod","PodMetrics","ReplicaSet","StatefulSet","VerticalPodAutoscaler"]'
expect "snapshot: no managedFields, no Secret" '[.items[] | select(.metadata.managedFields != null or .kind == "Secret")] | length == 0'
for listing in nodes namespaces 'pods?limit=500&fieldSelector=status.phase!=Succeeded' deployments statefulsets replicasets \
  horizontalpodautoscalers verticalpodautoscalers hvpas metrics.k8s.io/v1beta1/pods 'events?limit=500&fieldSelector=reason=FailedScheduling' \
  persistentvolumeclaims persistentvolumes storageclasses csinodes poddisruptionbudgets runtimeclasses; do
  if grep -qF "$listing" "$tmp/plain.log"; then ok "snapshot lists $listing"; else not_ok "snapshot lists $listing"; fi
done
if grep -q secrets "$tmp/plain.log"; then not_ok "snapshot never lists secrets"; else ok "snapshot never lists secrets"; fi
saved_snapshot=$snapshot
snapshot="$tmp/cluster.json"
same "snapshot file: nodes -o wide" nodes -o wide
same "snapshot file: nodes -o json" nodes -o json
same "snapshot file: why --all" why --all -n production -o json
same "snapshot file: why POD" why production/rag-api-7948f7fb7-dc5k8 -o json
same "snapshot file: capacity --vary" capacity --from deployment/rag-api -n production --vary memory=1Gi..8Gi -o json
same "snapshot file: hpa" hpa production/rag-api-hpa --now 2026-10-09T14:00:00Z -o json
same "snapshot file: plan" plan deployment/rag-api -n production -o json
same "snapshot file: plan --curve" plan deployment/rag-api -n production --curve
same "snapshot file: plan --update in-place" plan deployment/rag-api -n production --update in-place -o json
same "snapshot file: simulate" simulate --hpa "$ex/hpa.json" --trace "$src/tests/data/trace-trap.csv" --replicas 2 --startup 30s --duration 600s -o json
check "snapshot -o yaml" 0 "$bin" snapshot -o yaml $live_flags
cp "$tmp/out" "$tmp/cluster.yaml"
snapshot="$tmp/cluster.yaml"
same "snapshot file (YAML): plan" plan deployment/rag-api -n production -o json
check "snapshot -n production" 0 "$bin" snapshot -n production $live_flags
expect "snapshot -n production: the namespaced kinds of production only" \
  '([.items[] | select(.metadata.namespace != null and .metadata.namespace != "production")] | length == 0)
   and ([.items[] | select(.kind == "Node")] | length == 2)
   and .metadata.annotations["snapshot.fitscale.io/namespace"] == "production"'
cp "$tmp/out" "$tmp/production.json"
check "a -n snapshot read back" 0 "$bin" nodes -S "$tmp/production.json"
contains "a -n snapshot: the pods of other namespaces are said to be missing" "pods of 1 namespace (production)" err
check "snapshot -n and -A together" 2 "$bin" snapshot -n production -A $live_flags
contains "-n and -A: refused" "give one of them" err
check "snapshot -o wide" 2 "$bin" snapshot -o wide $live_flags
contains "snapshot -o wide: exactly what it writes" "-o wide: not one of this command's output formats; give json or yaml" err
check "snapshot -o table" 2 "$bin" snapshot -o table $live_flags
contains "snapshot -o table: exactly what it writes" "-o table: not an output format; give json or yaml" err
check "snapshot --help" 0 "$bin" snapshot --help
contains "snapshot --help: its formats" "Output format: json (the default) or yaml" out
check "snapshot -S (it reads no files)" 2 "$bin" snapshot -S "$ex" $live_flags
if command -v kubectl >/dev/null; then
  # the man pages' kubectl one-liner (without hvpas, which this cluster does not serve)
  kubectl --kubeconfig "$tmp/plain.kubeconfig" get nodes,namespaces,pods,deployments,statefulsets,replicasets,hpa,vpa,pods.metrics.k8s.io,events,pvc,pv,storageclasses,csinodes,pdb,runtimeclasses \
    -A -o json >"$tmp/kubectl-cluster.json" 2>"$tmp/kubectl.err"
  for args in "nodes -o json" "plan deployment/rag-api -n production -o json" "why --all -n production -o json"; do
    "$bin" $args -S "$tmp/kubectl-cluster.json" >"$tmp/a.out" 2>&1
    "$bin" $args -S "$tmp/cluster.json" >"$tmp/b.out" 2>&1
    if cmp -s "$tmp/a.out" "$tmp/b.out"; then ok "the kubectl one-liner = fitscale snapshot: $args"; else not_ok "the kubectl one-liner = fitscale snapshot: $args"; fi
  done
fi
snapshot=$saved_snapshot
mkdir -p "$tmp/kube-home/.kube" && cp "$tmp/plain.kubeconfig" "$tmp/kube-home/.kube/config"
KUBECONFIG="$tmp/plain.kubeconfig" check "KUBECONFIG is read" 0 "$bin" nodes -q -o json
expect "KUBECONFIG: two nodes" '.nodes | length == 2'
# simulate reads the kubeconfig's cluster as every command does: the trap's pods stay Pending
KUBECONFIG="$tmp/plain.kubeconfig" check "simulate: KUBECONFIG is read" 0 "$bin" simulate -q --hpa "$ex/hpa.json" --trace "$src/tests/data/trace-trap.csv" --replicas 2 --startup 30s --duration 600s -o json
expect "simulate from KUBECONFIG: at 150 % it asks 5, three of them Pending" '(.timeline[-1]) as $s | $s.replicas == 5 and $s.pending == 3'
cp "$tmp/out" "$tmp/kubeconfig-simulate.json"
"$bin" simulate -q --hpa "$ex/hpa.json" --trace "$src/tests/data/trace-trap.csv" --replicas 2 --startup 30s --duration 600s -o json -S "$ex" >"$tmp/snapshot-simulate.json"
if cmp -s "$tmp/kubeconfig-simulate.json" "$tmp/snapshot-simulate.json"; then ok "simulate: KUBECONFIG = -S"; else not_ok "simulate: KUBECONFIG = -S"; fi
HOME="$tmp/kube-home" KUBECONFIG= check "simulate: ~/.kube/config is read" 0 "$bin" simulate -q --hpa "$ex/hpa.json" --trace "$src/tests/data/trace-trap.csv" --replicas 2 --startup 30s --duration 600s -o json
expect "simulate from ~/.kube/config: three Pending" '(.timeline[-1]) as $s | $s.pending == 3'
check "--server alone" 0 "$bin" nodes -q -o json --server "http://127.0.0.1:$port"
check "a context that is not there" 2 "$bin" nodes --kubeconfig "$tmp/plain.kubeconfig" --context nope
contains "names the context" 'context "nope" not found' err
check "a kubeconfig that is not there" 2 "$bin" nodes --kubeconfig "$tmp/none.yaml"
contains "names the file" "none.yaml" err

# KUBECONFIG merging: the first file to define a key wins, entries whole, missing files skipped
cat >"$tmp/first.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: merged
contexts:
- name: merged
  context: {cluster: fake, user: tester}
clusters:
- name: fake
  cluster: {server: "http://127.0.0.1:$port"}
YAML
cat >"$tmp/second.yaml" <<YAML
apiVersion: v1
kind: Config
current-context: other
clusters:
- name: fake
  cluster: {server: "http://127.0.0.1:1"}
users:
- name: tester
  user: {}
YAML
KUBECONFIG="$tmp/missing.yaml:$tmp/first.yaml:$tmp/second.yaml" check "KUBECONFIG merged: first wins" 0 "$bin" nodes -q -o json
expect "merged: the first file's cluster" '.nodes | length == 2'

# ---- paging and faults (1,200 pods: three pages of 500) ----
python3 - "$tmp/many.json" <<'PY'
import json, sys
nodes = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n%02d" % i, "labels": {"kubernetes.io/hostname": "n%02d" % i}},
          "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110"},
                     "conditions": [{"type": "Ready", "status": "True"}]}} for i in range(20)]
pods = [{"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "p%04d" % i, "namespace": "ns%d" % (i % 3), "labels": {"app": "a%d" % (i % 7)}},
         "spec": {"nodeName": "n%02d" % (i % 20), "containers": [{"name": "c", "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}}}]},
         "status": {"phase": "Running"}} for i in range(1200)]
json.dump({"apiVersion": "v1", "kind": "List", "items": nodes + pods}, open(sys.argv[1], "w"))
PY
snapshot="$tmp/many.json"
fake_api paged "$tmp/many.json"
kubeconfig "$tmp/paged.kubeconfig" "http://127.0.0.1:$port"
live_flags="--kubeconfig $tmp/paged.kubeconfig"
same "paged: 1,200 pods in 3 pages, live = snapshot" nodes -o json -q
if [ "$(grep -c 'pods?limit=500' "$tmp/paged.log")" -ge 3 ]; then ok "paged: three pages asked for"; else not_ok "paged: three pages"; fi
fake_api gone --fault gone-on-continue:1 "$tmp/many.json"
kubeconfig "$tmp/gone.kubeconfig" "http://127.0.0.1:$port"
live_flags="--kubeconfig $tmp/gone.kubeconfig"
same "410 Gone on a continue token: listed again, same answer" nodes -o json -q
if grep -q ' 410$' "$tmp/gone.log"; then ok "the 410 was sent"; else not_ok "the 410 was sent"; fi
check "snapshot: 410 on a continue token, the listing starts again" 0 "$bin" snapshot --kubeconfig "$tmp/gone.kubeconfig"
expect "snapshot after a 410: all 1,200 pods, once each" '[.items[] | select(.kind == "Pod") | .metadata.name] | (length == 1200 and (unique | length) == 1200)'
fake_api html --fault html-error:1 "$tmp/many.json"
kubeconfig "$tmp/html.kubeconfig" "http://127.0.0.1:$port"
check "an error page that is not a Status" 2 "$bin" nodes -q --kubeconfig "$tmp/html.kubeconfig"
contains "error page: one printable line" 'HTTP 400: <html> <body>?[2J?[31mBad Request   from the proxy</body></html>' err
if grep -q "$(printf '\033')" "$tmp/err"; then not_ok "error page: no raw ESC on stderr"; else ok "error page: no raw ESC on stderr"; fi
fake_api repeat --fault repeat-continue:1 "$tmp/many.json"
kubeconfig "$tmp/repeat.kubeconfig" "http://127.0.0.1:$port"
check "a server repeating a continue token" 2 "$bin" nodes -q --kubeconfig "$tmp/repeat.kubeconfig"
contains "repeated continue token: stopped, not listed forever" "the server repeated a continue token after 2 pages; the list would never end" err
fake_api slowly --fault slow:1200 "$tmp/many.json"
kubeconfig "$tmp/slowly.kubeconfig" "http://127.0.0.1:$port"
started=$(date +%s)
check "--request-timeout bounds the whole list, not each page" 2 "$bin" nodes -q --kubeconfig "$tmp/slowly.kubeconfig" --request-timeout 2s
contains "the deadline is named" "not done within --request-timeout 2s" err
if [ $(( $(date +%s) - started )) -le 4 ]; then ok "the whole list stopped at its deadline"; else not_ok "the whole list stopped at its deadline"; fi
fake_api cut --fault cut:1 "$tmp/many.json"
kubeconfig "$tmp/cut.kubeconfig" "http://127.0.0.1:$port"
live_flags="--kubeconfig $tmp/cut.kubeconfig"
same "a connection cut half way through a page: listed again" nodes -o json -q
fake_api busy --fault status:503:2 "$tmp/many.json"
kubeconfig "$tmp/busy.kubeconfig" "http://127.0.0.1:$port"
live_flags="--kubeconfig $tmp/busy.kubeconfig"
same "503 twice: retried" nodes -o json -q
fake_api throttled --fault status:429:1 --fault retry-after:1 "$tmp/many.json"
kubeconfig "$tmp/throttled.kubeconfig" "http://127.0.0.1:$port"
start=$(date +%s%N)
check "429 with Retry-After 1: retried" 0 "$bin" nodes -q --kubeconfig "$tmp/throttled.kubeconfig"
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
if [ "$elapsed" -ge 1000 ]; then ok "Retry-After honoured (${elapsed} ms)"; else not_ok "Retry-After honoured (${elapsed} ms)"; fi
fake_api broken --fault status:500:100 "$tmp/many.json"
kubeconfig "$tmp/broken.kubeconfig" "http://127.0.0.1:$port"
check "500 every time: an error, after retries" 2 "$bin" nodes -q --kubeconfig "$tmp/broken.kubeconfig"
contains "500: the Status message" "HTTP 500: injected fault" err
fake_api forbidden --fault status:403:1:/api/v1/pods "$tmp/many.json"
kubeconfig "$tmp/forbidden.kubeconfig" "http://127.0.0.1:$port"
check "403: an error naming the RBAC rule" 2 "$bin" nodes -q --kubeconfig "$tmp/forbidden.kubeconfig"
contains "403: the rule" 'verb list on resource pods in API group "" (core)' err
fake_api novpa --fault status:404:1:/apis/autoscaling.k8s.io/v1/verticalpodautoscalers "$ex"/*.json
kubeconfig "$tmp/novpa.kubeconfig" "http://127.0.0.1:$port"
check "VPA not installed: go on without it (no smaller request: infeasible)" 1 "$bin" plan deployment/rag-api -n production --kubeconfig "$tmp/novpa.kubeconfig" -o json
contains "VPA not installed: said" "does not serve verticalpodautoscalers" err
expect "VPA not installed: no VPA target" '.sources.vpa == null'
fake_api novpa2 --fault status:404:1:/apis/autoscaling.k8s.io/v1/verticalpodautoscalers "$ex"/*.json
kubeconfig "$tmp/novpa2.kubeconfig" "http://127.0.0.1:$port"
check "snapshot, API without VPAs: written, and said" 0 "$bin" snapshot --kubeconfig "$tmp/novpa2.kubeconfig"
contains "snapshot without VPAs: the warning" "does not serve verticalpodautoscalers" err
expect "snapshot without VPAs: no VPA, the rest there" '([.items[] | select(.kind == "VerticalPodAutoscaler")] | length == 0) and ([.items[] | select(.kind == "Pod")] | length > 0)'
# a cluster whose pods are all of one namespace: its -A snapshot is still the whole cluster
python3 - "$tmp/onens.json" <<'PY'
import json, sys
node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}, "conditions": [{"type": "Ready", "status": "True"}]}}
pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1", "namespace": "kube-system"},
       "spec": {"nodeName": "n1", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Running"}}
json.dump({"apiVersion": "v1", "kind": "List", "items": [node, pod]}, open(sys.argv[1], "w"))
PY
fake_api onens "$tmp/onens.json"
kubeconfig "$tmp/onens.kubeconfig" "http://127.0.0.1:$port"
check "snapshot of a cluster whose pods are of one namespace" 0 "$bin" snapshot --kubeconfig "$tmp/onens.kubeconfig"
cp "$tmp/out" "$tmp/onens-snap.json"
check "read back: no one-namespace warning (its annotation says every namespace)" 0 "$bin" nodes -S "$tmp/onens-snap.json"
if grep -q "one namespace's pods" "$tmp/err"; then not_ok "an -A snapshot is the whole cluster"; else ok "an -A snapshot is the whole cluster"; fi
jq 'del(.metadata.annotations)' "$tmp/onens-snap.json" >"$tmp/onens-bare.json"
check "the same List without the annotation" 0 "$bin" nodes -S "$tmp/onens-bare.json"
contains "without the annotation: one namespace's List, said" "one namespace's pods" err
check "unreachable server" 2 "$bin" nodes --server http://127.0.0.1:1
contains "unreachable: names the server" "cannot reach the API server http://127.0.0.1:1" err

# ---- watch: an added and a deleted pod show up in the next snapshot ----
cat >"$tmp/events.jsonl" <<'JSON'
{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"batch-watch-1","namespace":"production","resourceVersion":"1500","labels":{"app":"batch"}},"spec":{"containers":[{"name":"big","resources":{"requests":{"cpu":"100m","memory":"20Gi"}}}]},"status":{"phase":"Pending"}}}
{"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"rag-api-7948f7fb7-dc5k8","namespace":"production","resourceVersion":"1501"}}}
JSON
fake_api watched --watch-events "$tmp/events.jsonl" "$ex"/*.json
kubeconfig "$tmp/watched.kubeconfig" "http://127.0.0.1:$port"
check "why --watch: one round of watches" 0 "$bin" why -q --all -n production --watch --watch-rounds 1 --watch-timeout 2 -o json --kubeconfig "$tmp/watched.kubeconfig"
jq -s . "$tmp/out" >"$tmp/watch.json" 2>/dev/null && cp "$tmp/watch.json" "$tmp/out"
expect "watch: two answers, before and after" 'length == 2'
expect "watch: before, 4 rag-api pods Pending (one answer for the owner, 3 more alike)" '.[0].items | length == 1 and .[0].samePendingPods == 3'
expect "watch: after, the added pod is diagnosed" '[.[1].items[] | .pod] | index("batch-watch-1") != null'
expect "watch: after, the deleted pod is gone" '[.[1].items[] | select(.owner == "ReplicaSet/rag-api-7948f7fb7")] | .[0].samePendingPods == 2 and .[0].pod != "rag-api-7948f7fb7-dc5k8"'
if grep -q 'pods?watch=1&allowWatchBookmarks=true&resourceVersion=1000' "$tmp/watched.log"; then ok "watch: from the list's resourceVersion, with bookmarks"; else not_ok "watch: from the list's resourceVersion"; fi

# ---- the informer: fitscale serve sees a change within a second, and relists one resource ----
# serve_live NAME KUBECONFIG ARGS...: fitscale serve on the live cluster; $url
serve_live() {
  local name=$1 config=$2; shift 2
  rm -f "$tmp/$name.serve.port"
  "$bin" serve --listen 127.0.0.1:0 --kubeconfig "$config" "$@" >"$tmp/$name.serve.port" 2>"$tmp/$name.serve.log" &
  pids+=($!)
  wait_port "$tmp/$name.serve.port"
  url="http://127.0.0.1:$port"
}
# within NAME MS CMD...: CMD succeeds within MS milliseconds (polled, never a fixed sleep)
within() {
  local name=$1 limit=$2; shift 2
  local start now
  start=$(date +%s%N)
  while :; do
    if "$@"; then now=$(date +%s%N); echo "# $name: $(( (now - start) / 1000000 )) ms"; ok "$name"; return; fi
    now=$(date +%s%N)
    [ $(( (now - start) / 1000000 )) -ge "$limit" ] && break
    sleep 0.02
  done
  not_ok "$name (not within $limit ms)"
}
why_code() { curl -s -o /dev/null -w '%{http_code}' "$url/v1/why/$1"; }
why_found() { [ "$(why_code "$1")" = 200 ]; }
why_gone() { [ "$(why_code "$1")" = 404 ]; }
capacity_is() {
  curl -s -X POST -H 'Content-Type: application/json' -d '{"namespace":"production","from":"deployment/rag-api","replicas":6}' \
    "$url/v1/capacity" | jq -e ".capacity == $1" >/dev/null
}
api_write() { # METHOD PATH [BODY [CONTENT-TYPE]]
  curl -s -o /dev/null -w '%{http_code}' -X "$1" -H "Content-Type: ${4:-application/json}" ${3:+-d "$3"} "http://127.0.0.1:$api_port$2"
}
metric() { curl -s "$url/metrics" | awk -v name="$1" '$1 == name { print $2 }'; }
ready_code() { curl -s -o /dev/null -w '%{http_code}' "$url/readyz"; }
not_ready() { [ "$(ready_code)" = 503 ]; }
is_ready() { [ "$(ready_code)" = 200 ]; }
# fault SPEC: a fault added to the running fake API server at $api_port (POST /fakeapi/fault)
fault() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$api_port/fakeapi/fault?spec=$1")" = 200 ] \
    || not_ok "fakeapi: the fault $1 added"
}
# requests NAME PATTERN: how many requests of the fake API server NAME's log match PATTERN
requests() { grep -c "$2" "$tmp/$1.log"; }
deadline=${FS_LIVE_DEADLINE_MS:-1000}
pod_json='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"churn-1","namespace":"production","labels":{"app":"batch"}},"spec":{"containers":[{"name":"big","resources":{"requests":{"cpu":"100m","memory":"20Gi"}}}]},"status":{"phase":"Pending"}}'

fake_api informer "$ex"/*.json
api_port=$port
kubeconfig "$tmp/informer.kubeconfig" "http://127.0.0.1:$api_port"
serve_live informer "$tmp/informer.kubeconfig" --watch-timeout 30
if why_gone production/churn-1 && capacity_is 2; then ok "informer: before, no churn-1, capacity 2"; else not_ok "informer: before, no churn-1, capacity 2"; fi
if [ "$(api_write POST /api/v1/namespaces/production/pods "$pod_json")" = 201 ]; then ok "fakeapi: a pod created"; else not_ok "fakeapi: a pod created"; fi
within "informer: a created pod shows in /v1/why within ${deadline} ms" "$deadline" why_found production/churn-1
if [ "$(api_write DELETE /api/v1/namespaces/production/pods/churn-1)" = 200 ]; then ok "fakeapi: a pod deleted"; else not_ok "fakeapi: a pod deleted"; fi
within "informer: a deleted pod leaves /v1/why within ${deadline} ms" "$deadline" why_gone production/churn-1
if command -v kubectl >/dev/null; then
  check "kubectl cordon against the fake API server" 0 kubectl --kubeconfig "$tmp/informer.kubeconfig" cordon ip-10-0-1-23.ec2.internal
else
  [ "$(api_write PATCH /api/v1/nodes/ip-10-0-1-23.ec2.internal '{"spec":{"unschedulable":true}}' application/merge-patch+json)" = 200 ] \
    && ok "cordon (PATCH spec.unschedulable)" || not_ok "cordon (PATCH spec.unschedulable)"
fi
within "informer: a cordoned node changes /v1/capacity within ${deadline} ms" "$deadline" capacity_is 1
[ "$(api_write PATCH /api/v1/nodes/ip-10-0-1-23.ec2.internal '{"spec":{"unschedulable":null}}' application/merge-patch+json)" = 200 ] \
  && ok "fakeapi: uncordoned (merge patch, null removes)" || not_ok "fakeapi: uncordoned"
within "informer: an uncordoned node changes /v1/capacity back within ${deadline} ms" "$deadline" capacity_is 2
if [ "$(metric 'fitscale_watch_restarts_total')" = 0 ]; then ok "informer: no relist while the watches are healthy"; else not_ok "informer: no relist while the watches are healthy"; fi
events_applied=$(metric fitscale_watch_events_total)
if [ "${events_applied:-0}" -ge 4 ]; then ok "informer: /metrics counts the events applied ($events_applied)"; else not_ok "informer: /metrics counts the events applied (${events_applied:-none})"; fi
if curl -s "$url/metrics" | grep -q '^fitscale_watch_publish_delay_seconds_count [1-9]'; then ok "informer: /metrics has the publish-delay histogram"; else not_ok "informer: /metrics has the publish-delay histogram"; fi
if [ "$(metric fitscale_snapshot_pool_bytes)" -gt 0 ] 2>/dev/null; then ok "informer: /metrics has the shared pool's bytes"; else not_ok "informer: /metrics has the shared pool's bytes"; fi
if curl -s "$url/metrics" | grep -q '^fitscale_watch_last_sync_age_seconds{resource="nodes"} '; then ok "informer: /metrics has each resource's last-sync age"; else not_ok "informer: /metrics has each resource's last-sync age"; fi
if [ "$(metric 'fitscale_watch_relist_failures_total{resource="pods"}')" = 0 ]; then ok "informer: /metrics counts failed relists per resource (none)"
else not_ok "informer: /metrics counts failed relists per resource"; fi
if curl -s "$url/metrics" | grep -q '^# HELP fitscale_snapshot_age_seconds Seconds since the least recently confirmed watched resource was last confirmed current'; then
  ok "informer: fitscale_snapshot_age_seconds says it is the staleness it measures"
else not_ok "informer: fitscale_snapshot_age_seconds says it is the staleness it measures"; fi
curl -s "$url/v1/why/production/rag-api-7948f7fb7-dc5k8" >"$tmp/out"
expect "informer: a why answer says its snapshot's age and the PodMetrics' age" \
  '.snapshot.ageSeconds >= 0 and .snapshot.ageSeconds < 5 and .snapshot.metricsAgeSeconds >= 0 and (.snapshot.resourceVersion | type) == "string"'
if [ "$(grep -c 'watch=1' "$tmp/informer.log")" -ge 10 ] && grep -q 'pods?watch=1&allowWatchBookmarks=true&resourceVersion=1000&timeoutSeconds=' "$tmp/informer.log"; then
  ok "informer: every resource watched at once, from the list's resourceVersion"
else not_ok "informer: every resource watched at once"; fi

# why --watch: again within a second of a change that changes its answer, and not for one that does not
fake_api whywatch "$ex"/*.json
api_port=$port
kubeconfig "$tmp/whywatch.kubeconfig" "http://127.0.0.1:$api_port"
"$bin" why -q --all -n production --watch --watch-timeout 30 -o json --kubeconfig "$tmp/whywatch.kubeconfig" \
  >"$tmp/whywatch.out" 2>"$tmp/whywatch.err" &
pids+=($!)
answers() { jq -s length "$tmp/whywatch.out" 2>/dev/null || echo 0; }
answers_are() { [ "$(answers)" = "$1" ]; }
within "why --watch: the first answer" 5000 answers_are 1
other_json='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"elsewhere","namespace":"other"},"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Pending"}}'
[ "$(api_write POST /api/v1/namespaces/other/pods "$other_json")" = 201 ] || not_ok "fakeapi: a pod created in another namespace"
sleep 0.3 # not a deadline: the two writes go into separate batches (30 ms), so a needless answer would show
[ "$(api_write POST /api/v1/namespaces/production/pods "$pod_json")" = 201 ] || not_ok "fakeapi: a pod created (why --watch)"
within "why --watch: answers again within ${deadline} ms of a change to its answer" "$deadline" answers_are 2
jq -s '.[1]' "$tmp/whywatch.out" >"$tmp/out"
expect "why --watch: the new answer has the new pod (the other namespace's pod made none of its own)" '[.items[] | .pod] | index("churn-1") != null'

# capacity --watch: the same on a capacity question; a cordoned node leaves one replica fewer
"$bin" capacity -q --from deployment/rag-api -n production --replicas 6 --watch --watch-timeout 30 -o json \
  --kubeconfig "$tmp/whywatch.kubeconfig" >"$tmp/capwatch.out" 2>"$tmp/capwatch.err" &
pids+=($!)
cap_answers_are() { [ "$(jq -s length "$tmp/capwatch.out" 2>/dev/null || echo 0)" = "$1" ]; }
within "capacity --watch: the first answer" 5000 cap_answers_are 1
[ "$(api_write POST /api/v1/namespaces/other/pods "$(echo "$other_json" | sed 's/elsewhere/elsewhere-2/')")" = 201 ] \
  || not_ok "fakeapi: another pod created in another namespace"
sleep 0.3 # not a deadline: a needless answer (the pod changes no capacity) would show
[ "$(api_write PATCH /api/v1/nodes/ip-10-0-1-23.ec2.internal '{"spec":{"unschedulable":true}}' application/merge-patch+json)" = 200 ] \
  || not_ok "fakeapi: cordoned (capacity --watch)"
within "capacity --watch: answers again within ${deadline} ms of a cordon" "$deadline" cap_answers_are 2
jq -s '[.[].capacity]' "$tmp/capwatch.out" >"$tmp/out"
expect "capacity --watch: 2 replicas fit, then 1 on the node left (no answer for the other pod)" '. == [2, 1]'
check "capacity --watch with --snapshot is refused" 2 "$bin" capacity --watch -S "$ex" --request cpu=1
# nodes --watch: the node uncordoned shows in the next answer (status), once
"$bin" nodes -q --watch --watch-rounds 1 --watch-timeout 30 -o json \
  --kubeconfig "$tmp/whywatch.kubeconfig" >"$tmp/nodeswatch.out" 2>"$tmp/nodeswatch.err" &
nodes_watch=$!
pids+=($nodes_watch)
nodes_answers_are() { [ "$(jq -s length "$tmp/nodeswatch.out" 2>/dev/null || echo 0)" = "$1" ]; }
within "nodes --watch: the first answer" 5000 nodes_answers_are 1
[ "$(api_write PATCH /api/v1/nodes/ip-10-0-1-23.ec2.internal '{"spec":{"unschedulable":null}}' application/merge-patch+json)" = 200 ] \
  || not_ok "fakeapi: uncordoned (nodes --watch)"
within "nodes --watch: answers again within ${deadline} ms of an uncordon" "$deadline" nodes_answers_are 2
jq -s '[.[] | .nodes[] | select(.name == "ip-10-0-1-23.ec2.internal") | .status]' "$tmp/nodeswatch.out" >"$tmp/out"
expect "nodes --watch: the node cordoned, then not" '.[0] != .[1] and (.[1] | test("SchedulingDisabled") | not)'
nodes_exited() { ! kill -0 "$nodes_watch" 2>/dev/null; }
within "nodes --watch --watch-rounds 1: exits after the changed answer" 3000 nodes_exited
# why --watch says on stderr when a resource has gone unconfirmed past the limit (serve's
# --max-staleness default, FS_WATCH_MAX_STALENESS here) because its watch keeps failing (403:
# RBAC that lets list, not watch), naming it and the error, once; and once when it recovers
fake_api rbac --bookmark-ms 300 --fault watch-status:403:2:/api/v1/pods "$ex"/*.json
kubeconfig "$tmp/rbac.kubeconfig" "http://127.0.0.1:$port"
FS_WATCH_MAX_STALENESS=1 "$bin" why -q --all -n production --watch --watch-timeout 30 -o json \
  --kubeconfig "$tmp/rbac.kubeconfig" >"$tmp/rbac.out" 2>"$tmp/rbac.err" &
pids+=($!)
stale_said() { grep -q 'fitscale why: warning: pods not confirmed current for .*403 Forbidden' "$tmp/rbac.err"; }
within "why --watch: a watch failing past the limit is said on stderr, with its error" 5000 stale_said
recovery_said() { grep -q 'fitscale why: pods confirmed current again' "$tmp/rbac.err"; }
within "why --watch: said again once the pods are current again" 10000 recovery_said
if [ "$(grep -c 'not confirmed current' "$tmp/rbac.err")" = 1 ]; then ok "why --watch: the stale warning said once, not at every failure"
else comment <"$tmp/rbac.err"; not_ok "why --watch: the stale warning said once"; fi

# a 410 on the pods' watch lists the pods again, and nothing else
fake_api gone410 --fault gone-on-watch:1:/api/v1/pods "$ex"/*.json
api_port=$port
kubeconfig "$tmp/gone410.kubeconfig" "http://127.0.0.1:$api_port"
serve_live gone410 "$tmp/gone410.kubeconfig" --watch-timeout 30
pods_relisted() { [ "$(metric 'fitscale_watch_relists_total{resource="pods"}')" = 1 ]; }
within "410: the pods listed again" 5000 pods_relisted
if [ "$(grep -c '^GET /api/v1/pods?limit=500' "$tmp/gone410.log")" = 2 ] && [ "$(grep -c '^GET /api/v1/nodes?limit=500' "$tmp/gone410.log")" = 1 ] \
   && [ "$(metric fitscale_watch_restarts_total)" = 1 ]; then ok "410: only the pods listed again, not the nodes"
else grep 'limit=500' "$tmp/gone410.log" | comment; not_ok "410: only the pods listed again"; fi
[ "$(api_write POST /api/v1/namespaces/production/pods "$pod_json")" = 201 ] || not_ok "fakeapi: a pod created after the 410"
within "410: the pods' watch resumed after the relist (a created pod shows)" "$deadline" why_found production/churn-1

# a relist that fails (403 on the list) leaves the pods as they were — never an empty resource
# —, is counted, backs off (800 ms, then 1.6 s, with jitter), makes /readyz fail past
# --max-staleness naming the pods and the error, and the next list that works makes it ready
fake_api relistfail --bookmark-ms 300 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/relistfail.kubeconfig" "http://127.0.0.1:$api_port"
serve_live relistfail "$tmp/relistfail.kubeconfig" --watch-timeout 30 --max-staleness 1
pods_before=$(metric 'fitscale_snapshot_objects{kind="Pod"}')
sleep 1.1 # not a deadline: the pods' watch lasts over a second (a shorter one that brought nothing backs off first)
fault list-status:403:2:/api/v1/pods
fault watch-error:410:1:/api/v1/pods
relist_failed() { [ "$(metric 'fitscale_watch_relist_failures_total{resource="pods"}')" -ge 1 ] 2>/dev/null; }
within "failed relist: counted in fitscale_watch_relist_failures_total" 1000 relist_failed
if [ "$(metric 'fitscale_snapshot_objects{kind="Pod"}')" = "$pods_before" ] && why_found production/rag-api-7948f7fb7-dc5k8; then
  ok "failed relist: the pods kept ($pods_before), the answers as before"
else not_ok "failed relist: the pods kept ($pods_before before, $(metric 'fitscale_snapshot_objects{kind="Pod"}') after)"; fi
within "failed relist: /readyz fails past --max-staleness" 3000 not_ready
curl -s "$url/readyz" >"$tmp/out"
contains "failed relist: /readyz names the pods" "pods not confirmed current" out
contains "failed relist: /readyz says the list's error" "403 Forbidden" out
relisted_after_two() {
  [ "$(metric 'fitscale_watch_relists_total{resource="pods"}')" = 1 ] && [ "$(metric 'fitscale_watch_relist_failures_total{resource="pods"}')" = 2 ]
}
within "failed relist: listed again after two backoffs, once the list works" 8000 relisted_after_two
within "failed relist: /readyz ready again" 3000 is_ready
if [ "$(requests relistfail '^GET /api/v1/pods?limit=500')" = 4 ]; then ok "failed relist: 4 lists of the pods (the first, two failed, one that worked), no more"
else not_ok "failed relist: 4 lists of the pods, not $(requests relistfail '^GET /api/v1/pods?limit=500')"; fi

# a relist whose continue token expires half way (410) starts again from a clean slate: the
# pod of its first page, deleted before the second attempt, is gone (not kept for good)
fake_api restart --bookmark-ms 300 --page-limit 5 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/restart.kubeconfig" "http://127.0.0.1:$api_port"
serve_live restart "$tmp/restart.kubeconfig" --watch-timeout 30
pods_before=$(metric 'fitscale_snapshot_objects{kind="Pod"}')
sleep 1.1 # as above
fault gone-on-continue:1:/api/v1/namespaces/amazon-cloudwatch/pods/cloudwatch-agent-dc9q4
fault watch-error:410:1:/api/v1/pods
one_pod_fewer() { [ "$(metric 'fitscale_snapshot_objects{kind="Pod"}')" = $((pods_before - 1)) ]; }
within "restarted list: the pod deleted between the two attempts is gone" 4000 one_pod_fewer
if [ "$(metric 'fitscale_watch_relist_failures_total{resource="pods"}')" = 1 ] && [ "$(metric 'fitscale_watch_relists_total{resource="pods"}')" = 1 ]; then
  ok "restarted list: one attempt failed (the 410 on its continue token), one listed"
else not_ok "restarted list: one attempt failed, one listed"; fi

# an ERROR event that is not a 410 lists the pods again after a backoff each time, never in a
# tight loop (each list that works confirms them: /readyz stays ready); the other resources
# keep their watches
fake_api errorloop --bookmark-ms 300 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/errorloop.kubeconfig" "http://127.0.0.1:$api_port"
serve_live errorloop "$tmp/errorloop.kubeconfig" --watch-timeout 30
fault watch-error:500:100000:/api/v1/pods
sleep 4 # not a deadline: the number of lists in this time is what is checked
pod_lists=$(requests errorloop '^GET /api/v1/pods?limit=500')
if [ "$pod_lists" -ge 2 ] && [ "$pod_lists" -le 5 ]; then ok "ERROR event: the pods listed again with backoff ($pod_lists lists in 4 s)"
else not_ok "ERROR event: the pods listed again with backoff ($pod_lists lists in 4 s)"; fi
if [ "$(requests errorloop '^GET /api/v1/nodes?limit=500')" = 1 ]; then ok "ERROR event: the nodes not listed again"; else not_ok "ERROR event: the nodes not listed again"; fi
[ "$(api_write PATCH /api/v1/nodes/ip-10-0-1-23.ec2.internal '{"spec":{"unschedulable":true}}' application/merge-patch+json)" = 200 ] \
  || not_ok "fakeapi: cordoned (ERROR event)"
within "ERROR event: the nodes' watch goes on (a cordon shows within ${deadline} ms)" "$deadline" capacity_is 1
if [ "$(requests errorloop '^GET /api/v1/nodes?watch=1')" = 1 ]; then ok "ERROR event: the nodes' watch never opened again"
else not_ok "ERROR event: the nodes' watch never opened again"; fi

# a watch that ends at once, 200 and no event, is a failure (client-go's "very short watch"):
# it backs off, and it confirms nothing, so /readyz fails past --max-staleness
fake_api shortwatch --bookmark-ms 300 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/shortwatch.kubeconfig" "http://127.0.0.1:$api_port"
serve_live shortwatch "$tmp/shortwatch.kubeconfig" --watch-timeout 30 --max-staleness 1
fault watch-empty:100000:/api/v1/nodes
within "very short watch: /readyz fails past --max-staleness" 4000 not_ready
curl -s "$url/readyz" >"$tmp/out"
contains "very short watch: /readyz names the nodes and the very short watch" "nodes not confirmed current" out
contains "very short watch: /readyz says why" "very short watch: ended after" out
node_watches=$(requests shortwatch '^GET /api/v1/nodes?watch=1')
if [ "$node_watches" -le 5 ]; then ok "very short watch: backed off ($node_watches nodes watches)"; else not_ok "very short watch: backed off ($node_watches nodes watches)"; fi
if [ "$(metric 'fitscale_watch_last_sync_age_seconds{resource="nodes"}' | cut -d. -f1)" -ge 1 ]; then ok "very short watch: the nodes' last-sync age grows"
else not_ok "very short watch: the nodes' last-sync age grows"; fi

# freshness is stamped when an event is applied, not when it arrives: while the applier is
# held by a slow PodMetrics list (4 s), a pod created meanwhile waits in the queue, and the
# bookmarks that keep coming do not make the pods current — /readyz fails past
# --max-staleness instead of saying fresh while the answers lack the pod
fake_api stalled --bookmark-ms 300 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/stalled.kubeconfig" "http://127.0.0.1:$api_port"
serve_live stalled "$tmp/stalled.kubeconfig" --watch-timeout 30 --max-staleness 1 --metrics-interval 1
fault slow-list:4000:1:/apis/metrics.k8s.io
poll_stalled() { awk -v age="$(metric 'fitscale_watch_last_sync_age_seconds{resource="pods.metrics.k8s.io"}')" 'BEGIN { exit !(age > 1.3) }'; }
within "stalled applier: the PodMetrics list is slow" 3000 poll_stalled
[ "$(api_write POST /api/v1/namespaces/production/pods "$pod_json")" = 201 ] || not_ok "fakeapi: a pod created (stalled applier)"
stale_while_queued() { not_ready && why_gone production/churn-1; }
within "stalled applier: /readyz fails while the pod waits to be applied" 2000 stale_while_queued
curl -s "$url/readyz" >"$tmp/out"
contains "stalled applier: /readyz names the pods" "pods not confirmed current" out
applied_and_ready() { why_found production/churn-1 && is_ready; }
within "stalled applier: once applied, the pod answers and /readyz is ready" 5000 applied_and_ready

# compaction: the pool the snapshots share is copied into a fresh one after the list, and
# under churn whenever it grew by an eighth (with --compact-after 1, every few thousand
# events), while events go on; every pod created before, during and after a copy is seen,
# and the answers equal those of a fresh list of the same cluster
fake_api compact "$ex"/*.json
api_port=$port
kubeconfig "$tmp/compact.kubeconfig" "http://127.0.0.1:$api_port"
serve_live compact "$tmp/compact.kubeconfig" --watch-timeout 30 --compact-after 1
curl -s -o /dev/null -X POST "http://127.0.0.1:$api_port/fakeapi/churn?rate=1000&seconds=10&probe-every=100"
compacted() { [ "$(metric fitscale_snapshot_compactions_total)" -ge 3 ] 2>/dev/null; }
within "compaction: after the list and under churn, the shared pool is copied into a fresh one, again and again" 30000 compacted
churn_over() { [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$api_port/fakeapi/churn?rate=1&seconds=0")" != 409 ]; }
within "compaction: the churn ended" 20000 churn_over
curl -s "http://127.0.0.1:$api_port/fakeapi/probes" | awk '{ print $1 }' >"$tmp/probes"
all_probes_seen() { while read -r probe; do why_found "$probe" || return 1; done <"$tmp/probes"; }
if [ "$(wc -l <"$tmp/probes")" -ge 10 ]; then within "compaction: every probe pod of the churn answers in /v1/why" 5000 all_probes_seen
else not_ok "compaction: the churn made probe pods ($(wc -l <"$tmp/probes"))"; fi
"$bin" snapshot --kubeconfig "$tmp/compact.kubeconfig" >"$tmp/compact.json" 2>/dev/null
capacity_json='{"namespace":"production","from":"deployment/rag-api","replicas":6}'
curl -s -X POST -H 'Content-Type: application/json' -d "$capacity_json" "$url/v1/capacity" | jq -S 'del(.snapshot)' >"$tmp/compact.live"
last_probe=$(tail -1 "$tmp/probes")
curl -s "$url/v1/why/$last_probe" | jq -S 'del(.snapshot)' >"$tmp/compact.why.live"
"$bin" serve --listen 127.0.0.1:0 -S "$tmp/compact.json" >"$tmp/compact-file.serve.port" 2>"$tmp/compact-file.serve.log" &
pids+=($!)
wait_port "$tmp/compact-file.serve.port"
url="http://127.0.0.1:$port"
curl -s -X POST -H 'Content-Type: application/json' -d "$capacity_json" "$url/v1/capacity" | jq -S 'del(.snapshot)' >"$tmp/compact.fresh"
curl -s "$url/v1/why/$last_probe" | jq -S 'del(.snapshot)' >"$tmp/compact.why.fresh"
if [ -s "$tmp/compact.live" ] && cmp -s "$tmp/compact.live" "$tmp/compact.fresh"; then ok "compaction: /v1/capacity after the churn equals a fresh list's"
else diff "$tmp/compact.live" "$tmp/compact.fresh" | head -20 | comment; not_ok "compaction: /v1/capacity after the churn equals a fresh list's"; fi
if [ -s "$tmp/compact.why.live" ] && cmp -s "$tmp/compact.why.live" "$tmp/compact.why.fresh"; then ok "compaction: /v1/why of the last probe pod equals a fresh list's"
else diff "$tmp/compact.why.live" "$tmp/compact.why.fresh" | head -20 | comment; not_ok "compaction: /v1/why of the last probe pod equals a fresh list's"; fi

# a watch cut in the middle of an event: resumed from the last whole event, nothing lost
fake_api cut --fault watch-cut:1 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/cut.kubeconfig" "http://127.0.0.1:$api_port"
serve_live cut "$tmp/cut.kubeconfig" --watch-timeout 30
[ "$(api_write POST /api/v1/namespaces/production/pods "$pod_json")" = 201 ] || not_ok "fakeapi: a pod created (cut)"
within "cut: the event cut in half arrives again after the watch resumes" 5000 why_found production/churn-1

# a watch that never sends anything (no event, no bookmark): /readyz fails past --max-staleness
fake_api quiet --bookmark-ms 0 "$ex"/*.json
api_port=$port
kubeconfig "$tmp/quiet.kubeconfig" "http://127.0.0.1:$api_port"
serve_live quiet "$tmp/quiet.kubeconfig" --watch-timeout 30 --max-staleness 1
within "quiet watch: /readyz fails once no event or bookmark came for --max-staleness" 5000 not_ready
curl -s "$url/readyz" >"$tmp/out"
contains "quiet watch: /readyz says which resource" "not confirmed current" out
# SIGTERM: every watch thread stops and is joined, also the quiet streams blocked in their
# transfer (no byte comes to wake them: the client's cancel flag, within about a second)
quiet_serve=${pids[${#pids[@]}-1]}
kill -TERM "$quiet_serve"
exited() { ! kill -0 "$quiet_serve" 2>/dev/null; }
within "SIGTERM: serve exits within 3 s, its quiet watches stopped" 3000 exited
wait "$quiet_serve"; quiet_status=$?
if [ "$quiet_status" = 0 ] && grep -q '"msg":"stopped: the watch threads joined","threads":"1[0-9]"' "$tmp/quiet.serve.log"; then
  ok "SIGTERM: exit 0, every watch thread, the applier and the poll joined"
else tail -3 "$tmp/quiet.serve.log" | comment; not_ok "SIGTERM: exit 0 and the threads joined (exit $quiet_status)"; fi
check "why --watch with --snapshot is refused" 2 "$bin" why --all --watch -S "$ex"

# ---- TLS, tokens, an exec plugin, in-cluster ----
if command -v openssl >/dev/null; then
  secret="s3cr3t-token-$$"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=fitscale-test-ca -keyout "$tmp/ca.key" -out "$tmp/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj /CN=fakeapi -keyout "$tmp/server.key" -out "$tmp/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:fakeapi.test,IP:127.0.0.1\n' >"$tmp/san.ext"
  openssl x509 -req -in "$tmp/server.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" -CAcreateserial -days 2 \
    -extfile "$tmp/san.ext" -out "$tmp/server.crt" 2>/dev/null
  snapshot="$ex"
  fake_api tls --tls-cert "$tmp/server.crt" --tls-key "$tmp/server.key" --token "$secret" "$ex"/*.json
  kubeconfig "$tmp/tls.kubeconfig" "https://127.0.0.1:$port" "{token: $secret}" "    certificate-authority: ca.crt"
  live_flags="--kubeconfig $tmp/tls.kubeconfig"
  same "TLS with a CA file (relative to the kubeconfig) and a token" nodes -o json -q
  if command -v kubectl >/dev/null; then
    check "kubectl over TLS with the token" 0 kubectl --kubeconfig "$tmp/tls.kubeconfig" get nodes -o name
  fi
  check "the wrong token: 401" 2 "$bin" nodes --kubeconfig "$tmp/tls.kubeconfig" --token wrong-token
  contains "401: names the user and the credential" "401 Unauthorized for user tester, with a bearer token" err
  lacks "401: never prints the token" "wrong-token" err
  check "no CA: TLS fails" 2 "$bin" nodes --server "https://127.0.0.1:$port" --token "$secret"
  contains "TLS: says which certificates were used" "checked against the system's CA certificates" err
  check "--certificate-authority and --token flags" 0 "$bin" nodes -q --server "https://127.0.0.1:$port" --token "$secret" --certificate-authority "$tmp/ca.crt"
  check "--tls-server-name" 0 "$bin" nodes -q --server "https://127.0.0.1:$port" --token "$secret" --certificate-authority "$tmp/ca.crt" --tls-server-name fakeapi.test
  check "--insecure-skip-tls-verify" 0 "$bin" nodes -q --server "https://127.0.0.1:$port" --token "$secret" --insecure-skip-tls-verify
  # an exec credential plugin (client.authentication.k8s.io/v1)
  cat >"$tmp/plugin" <<SH
#!/bin/sh
case "\$KUBERNETES_EXEC_INFO" in *ExecCredential*) ;; *) echo "no KUBERNETES_EXEC_INFO" >&2; exit 1 ;; esac
[ "\$FAKE_ENV" = from-kubeconfig ] || { echo "env not passed" >&2; exit 1; }
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"$secret"}}'
SH
  chmod +x "$tmp/plugin"
  kubeconfig "$tmp/exec.kubeconfig" "https://127.0.0.1:$port" \
    "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin, interactiveMode: Never, env: [{name: FAKE_ENV, value: from-kubeconfig}]}}" \
    "    certificate-authority-data: $(base64 -w0 "$tmp/ca.crt")"
  live_flags="--kubeconfig $tmp/exec.kubeconfig"
  same "an exec plugin's token, CA data inline" nodes -o json -q
  kubeconfig "$tmp/noexec.kubeconfig" "https://127.0.0.1:$port" \
    "{exec: {apiVersion: client.authentication.k8s.io/v1, command: no-such-plugin, interactiveMode: Never, installHint: 'install no-such-plugin from example.com'}}" \
    "    certificate-authority-data: $(base64 -w0 "$tmp/ca.crt")"
  check "a missing exec plugin" 2 "$bin" nodes --kubeconfig "$tmp/noexec.kubeconfig"
  contains "missing plugin: its installHint" "install no-such-plugin from example.com" err
  printf '#!/bin/sh\nhead -c 3000000 /dev/zero | tr "\\0" x\n' >"$tmp/chatty"
  chmod +x "$tmp/chatty"
  kubeconfig "$tmp/chatty.kubeconfig" "https://127.0.0.1:$port" \
    "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./chatty, interactiveMode: Never}}" \
    "    certificate-authority-data: $(base64 -w0 "$tmp/ca.crt")"
  check "an exec plugin that writes 3 MB" 2 "$bin" nodes --kubeconfig "$tmp/chatty.kubeconfig"
  contains "its output is capped" "over 1 MiB of output" err
  # a plugin that prints a bare token: the error never quotes it
  printf '#!/bin/sh\necho "$secret"\n' >"$tmp/bare"
  chmod +x "$tmp/bare"
  kubeconfig "$tmp/bare.kubeconfig" "https://127.0.0.1:$port" \
    "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./bare, interactiveMode: Never}}" \
    "    certificate-authority-data: $(base64 -w0 "$tmp/ca.crt")"
  check "an exec plugin that prints a bare token" 2 "$bin" nodes --kubeconfig "$tmp/bare.kubeconfig"
  contains "bare token: says what is wrong" "its output is not an ExecCredential in JSON (not shown: it may hold a credential)" err
  lacks "bare token: never quoted" "${secret:0:8}" err
  # a plugin that hangs is stopped at --request-timeout
  printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/hang"
  chmod +x "$tmp/hang"
  kubeconfig "$tmp/hang.kubeconfig" "https://127.0.0.1:$port" \
    "{exec: {apiVersion: client.authentication.k8s.io/v1, command: ./hang, interactiveMode: Never}}" \
    "    certificate-authority-data: $(base64 -w0 "$tmp/ca.crt")"
  started=$(date +%s)
  check "a hanging exec plugin" 2 "$bin" nodes --kubeconfig "$tmp/hang.kubeconfig" --request-timeout 2s
  contains "hanging plugin: stopped at the deadline" "/hang: no credential within 2s; stopped" err
  if [ $(( $(date +%s) - started )) -lt 20 ]; then ok "hanging plugin: not waited on"; else not_ok "hanging plugin: not waited on"; fi
  check "a kubeconfig that never ends" 2 "$bin" nodes --kubeconfig /dev/zero
  contains "endless kubeconfig: capped" "kubeconfig /dev/zero: over 16 MiB" err
  # in-cluster: the service account's token, ca.crt and namespace
  mkdir -p "$tmp/sa"
  cp "$tmp/ca.crt" "$tmp/sa/ca.crt"; printf '%s' "$secret" >"$tmp/sa/token"; printf 'production' >"$tmp/sa/namespace"
  KUBECONFIG= KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=$port FS_SERVICEACCOUNT_DIR="$tmp/sa" \
    check "in-cluster configuration" 0 "$bin" why -q --all -o json
  expect "in-cluster: the service account's namespace" '.items | length == 1 and .[0].namespace == "production"'
  # a client certificate signed by the CA the server trusts
  openssl req -newkey rsa:2048 -nodes -subj /CN=tester -keyout "$tmp/client.key" -out "$tmp/client.csr" 2>/dev/null
  openssl x509 -req -in "$tmp/client.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" -CAcreateserial -days 2 \
    -out "$tmp/client.crt" 2>/dev/null
  fake_api mtls --tls-cert "$tmp/server.crt" --tls-key "$tmp/server.key" --client-ca "$tmp/ca.crt" "$ex"/*.json
  kubeconfig "$tmp/mtls.kubeconfig" "https://127.0.0.1:$port" "{client-certificate: client.crt, client-key: client.key}" \
    "    certificate-authority: ca.crt"
  live_flags="--kubeconfig $tmp/mtls.kubeconfig"
  same "TLS with a client certificate (files relative to the kubeconfig)" nodes -o json -q
  if command -v kubectl >/dev/null; then
    check "kubectl with the client certificate" 0 kubectl --kubeconfig "$tmp/mtls.kubeconfig" get nodes -o name
  fi
  check "--client-certificate and --client-key flags" 0 "$bin" nodes -q --server "https://127.0.0.1:$port" \
    --certificate-authority "$tmp/ca.crt" --client-certificate "$tmp/client.crt" --client-key "$tmp/client.key"
  check "no client certificate: 401" 2 "$bin" nodes --server "https://127.0.0.1:$port" --certificate-authority "$tmp/ca.crt"
  contains "401 without credentials: says so" "with no credentials" err
  check "a certificate without its key" 2 "$bin" nodes --server "https://127.0.0.1:$port" --client-certificate "$tmp/client.crt"
  contains "names what is missing" "a client certificate needs its key" err
  for log in "$tmp"/*.err "$tmp/err" "$tmp/out"; do
    if grep -qF "$secret" "$log" 2>/dev/null; then not_ok "the token is never printed ($log)"; fi
  done
  ok "the token appears in no output"
else
  skip "TLS, tokens, exec and in-cluster" "openssl not installed"
fi

# ---- volumes: claims, volumes, classes and CSINodes listed live (FS_KUBE_STORAGE) ----
if python3 -c 'import json, sys, yaml' 2>/dev/null; then
  python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' \
    "$src/tests/data/volumes.yaml" >"$tmp/volumes.json"
  fake_api volumes "$tmp/volumes.json"
  kubeconfig "$tmp/volumes.kubeconfig" "http://127.0.0.1:$port"
  saved_snapshot=$snapshot saved_flags=$live_flags
  snapshot="$src/tests/data/volumes.yaml" live_flags="--kubeconfig $tmp/volumes.kubeconfig"
  same "volumes: why, an unbound immediate claim, live = snapshot" why -q default/wants-pending -o json
  expect "volumes live: the PreFilter message" '.message | startswith("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.")'
  same "volumes: why, the CSINode limit, live = snapshot" why -q default/wants-archive
  same "volumes: capacity, a WaitForFirstConsumer claim, live = snapshot" capacity -q --from pod/wants-scratch -o json
  for listing in persistentvolumeclaims persistentvolumes storageclasses csinodes; do
    if grep -q "$listing?limit=500" "$tmp/volumes.log"; then ok "volumes: $listing listed"; else not_ok "volumes: $listing listed"; fi
  done
  # watched: the claim gets bound (its volume added, the claim modified), and the pod fits
  cat >"$tmp/volume-events.jsonl" <<'JSON'
{"type":"ADDED","object":{"kind":"PersistentVolume","apiVersion":"v1","metadata":{"name":"pv-new","resourceVersion":"2001"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"storageClassName":"standard","claimRef":{"namespace":"default","name":"pending-data"},"csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-new"}},"status":{"phase":"Bound"}}}
{"type":"MODIFIED","object":{"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":{"name":"pending-data","namespace":"default","resourceVersion":"2002","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},"spec":{"accessModes":["ReadWriteOnce"],"storageClassName":"standard","volumeName":"pv-new","resources":{"requests":{"storage":"1Gi"}}},"status":{"phase":"Bound"}}}
JSON
  fake_api volumes-watched --watch-events "$tmp/volume-events.jsonl" "$tmp/volumes.json"
  kubeconfig "$tmp/volumes-watched.kubeconfig" "http://127.0.0.1:$port"
  check "volumes: why --watch, the claim bound meanwhile" 0 "$bin" why -q default/wants-pending --watch --watch-rounds 1 --watch-timeout 2 -o json --kubeconfig "$tmp/volumes-watched.kubeconfig"
  jq -s . "$tmp/out" >"$tmp/volumes-watch.json" 2>/dev/null && cp "$tmp/volumes-watch.json" "$tmp/out"
  expect "volumes watch: unbound first, then it fits" 'length == 2 and .[0].fits == false and .[1].fits == true'
  if grep -q 'persistentvolumeclaims?watch=1' "$tmp/volumes-watched.log"; then ok "volumes: claims watched"; else not_ok "volumes: claims watched"; fi
  snapshot=$saved_snapshot live_flags=$saved_flags
else
  skip "volumes listed live" "python3 yaml not installed"
fi

# ---- preemption: PodDisruptionBudgets listed live (policy/v1), as read from files ----
fake_api pdb "$src/tests/data/preemption/cluster.json"
kubeconfig "$tmp/pdb.kubeconfig" "http://127.0.0.1:$port"
saved_snapshot=$snapshot saved_flags=$live_flags
snapshot="$src/tests/data/preemption" live_flags="--kubeconfig $tmp/pdb.kubeconfig"
same "why with PodDisruptionBudgets, live = snapshot" why -q shop/checkout-5c8b-x -o json
expect "why live: the budget the victim breaks" '.preemption.numPDBViolations == 1 and .preemption.victims[0].podDisruptionBudget == "postgres"'
if grep -q 'GET /apis/policy/v1/poddisruptionbudgets?limit=500 200' "$tmp/pdb.log"; then ok "why lists PodDisruptionBudgets"; else not_ok "why lists PodDisruptionBudgets"; fi
snapshot=$saved_snapshot live_flags=$saved_flags
# ---- snapshot completeness (issue 16, bullet 3): listings the cluster refused ----
fake_api novpa-warn --fault status:404:1:/apis/autoscaling.k8s.io/v1/verticalpodautoscalers "$ex"/*.json
kubeconfig "$tmp/novpa-warn.kubeconfig" "http://127.0.0.1:$port"
check "ListingUnavailable: VPAs not served (404)" 1 "$bin" plan -q deployment/rag-api -n production --kubeconfig "$tmp/novpa-warn.kubeconfig" -o json
expect "ListingUnavailable: in the answer's warnings" '.warnings[0].reason == "ListingUnavailable" and (.warnings[0].message | test("does not serve verticalpodautoscalers"))'
contains "ListingUnavailable: on stderr even with -q" "fitscale plan: warning: the cluster does not serve verticalpodautoscalers" err
fake_api vpa-forbidden --fault status:403:1:/apis/autoscaling.k8s.io/v1/verticalpodautoscalers "$ex"/*.json
kubeconfig "$tmp/vpa-forbidden.kubeconfig" "http://127.0.0.1:$port"
check "ListingForbidden: VPAs refused (403): go on without them" 1 "$bin" plan -q deployment/rag-api -n production --kubeconfig "$tmp/vpa-forbidden.kubeconfig" -o json
expect "ListingForbidden: in the answer's warnings" '[.warnings[].reason] == ["ListingForbidden"] and (.warnings[0].message | test("may not list verticalpodautoscalers \\(403 Forbidden\\)")) and .sources.vpa == null'
check "live, complete: no warnings" 0 "$bin" nodes -q --kubeconfig "$tmp/novpa-warn.kubeconfig" -o json
expect "live nodes: warnings first, none" 'keys_unsorted[0] == "warnings" and .warnings == []'

# RuntimeClasses are listed live: a template's class gives new pods its overhead (issue 20)
python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' "$src/tests/data/why-gated.yaml" >"$tmp/gated.json"
fake_api runtimeclass "$tmp/gated.json"
kubeconfig "$tmp/runtimeclass.kubeconfig" "http://127.0.0.1:$port"
check "live capacity: a template naming a RuntimeClass" 0 "$bin" capacity -q --kubeconfig "$tmp/runtimeclass.kubeconfig" --from deployment/web -n shop -o json
expect "live capacity: the class's overhead counted (1 cpu a pod: 1 fits), no RuntimeClassMissing" '.capacity == 1 and ([.warnings[].reason] | index("RuntimeClassMissing") == null)'
if grep -qF 'GET /apis/node.k8s.io/v1/runtimeclasses' "$tmp/runtimeclass.log"; then ok "capacity lists RuntimeClasses"; else not_ok "capacity lists RuntimeClasses"; fi

tap_end


#!/usr/bin/env bash
# End-to-end: flags as kubectl users type them (issue 20) — -n and -A where kubectl takes
# them (hpa -A, why -A, nodes -l), nonsense values refused with exit 2 and the accepted
# range, the "--" that ends options, and the closest command, flag or -o format suggested.
# Speaks TAP for automake's driver.
set -u
. "${FS_SRCDIR:-.}/tests/lib.sh"
data="$src/tests/data"
export KUBECONFIG="$tmp/no-kubeconfig"  # never a cluster of the machine's

# ---- hpa -A: every HPA, one row each ----
# a second namespace's HPA (shop/web) and an HPA whose status says ScalingActive=False
jq '.metadata.namespace = "batch" | .metadata.name = "idle-hpa"
    | .status.conditions |= map(if .type == "ScalingActive"
        then .status = "False" | .reason = "ScalingDisabled" | .message = "scaling is disabled since the replica count of the target is zero"
        else . end)' "$ex/hpa.json" >"$tmp/idle-hpa.json"
hpas=(-S "$ex" -S "$data/hpa-custom" -S "$tmp/idle-hpa.json")
check "hpa -A: a table of every HPA" 0 "$bin" hpa -A "${hpas[@]}" --now 2026-10-09T14:00:00Z
contains "hpa -A: the columns" "NAMESPACE    NAME          REFERENCE            CURRENT   DESIRED   MIN   MAX   REASON" out
contains "hpa -A: production's, with what stopped it" "production   rag-api-hpa   Deployment/rag-api   6         6         2     6     DesiredWithinRange" out
contains "hpa -A: shop's" "shop         web" out
contains "hpa -A: ScalingActive=False shown as the reason" "ScalingActive=False (ScalingDisabled)" out
if [ "$(grep -c . "$tmp/out")" = 4 ]; then ok "hpa -A: a header and 3 rows"; else not_ok "hpa -A: a header and 3 rows"; fi
check "hpa -A -o json" 0 "$bin" hpa -A "${hpas[@]}" --now 2026-10-09T14:00:00Z -o json
expect "hpa -A -o json: each HPA as hpa NAME answers it, sorted" '[.hpas[] | "\(.namespace)/\(.name)"] == ["batch/idle-hpa","production/rag-api-hpa","shop/web"] and all(.hpas[]; .desiredReplicas != null)'
check "hpa without a name: the HPAs of -n" 0 "$bin" hpa -n shop "${hpas[@]}"
contains "hpa -n shop: no NAMESPACE column" "NAME   REFERENCE        CURRENT" out
lacks "hpa -n shop: not production's" "rag-api-hpa" out
check "hpa without a name, none in default" 0 "$bin" hpa "${hpas[@]}"
contains "hpa: none in default, said" "No HorizontalPodAutoscaler in namespace default." out
check "hpa -A with a name" 2 "$bin" hpa -A production/rag-api-hpa "${hpas[@]}"
contains "hpa -A NAME: refused, saying what to give" "or -A alone to list every HPA" err

# ---- hvpa -A: every Hvpa, one row each ----
check "hvpa -A: a table of every Hvpa" 0 "$bin" hvpa -A -S "$data/hvpa-design"
contains "hvpa -A: the row, stage as hvpa NAME numbers it" "default     hvpa-sample   Deployment/resource-consumer   4         5          2       0.60         MinChange" out
check "hvpa without a name: the Hvpas of default" 0 "$bin" hvpa -S "$data/hvpa-design"
contains "hvpa: no NAMESPACE column" "NAME          TARGET" out
check "hvpa -n other: none" 0 "$bin" hvpa -n other -S "$data/hvpa-design"
contains "hvpa -n other: said" "No Hvpa in namespace other." out
check "hvpa -A -o json: each as hvpa NAME answers it" 0 "$bin" hvpa -A -S "$data/hvpa-design" -o json
expect "hvpa -A -o json: one, replicas 5" '.hvpas | length == 1 and .[0].replicas == 5 and .[0].name == "hvpa-sample"'
check "hvpa -A --curve: refused" 2 "$bin" hvpa -A --curve -S "$data/hvpa-design"

# ---- why -A: every Pending pod, as why --all -A ----
check "why -A lists the Pending pods" 0 "$bin" why -A -S "$ex" -o json
cp "$tmp/out" "$tmp/why-A.json"
check "why --all -A" 0 "$bin" why --all -A -S "$ex" -o json
if cmp -s "$tmp/out" "$tmp/why-A.json"; then ok "why -A = why --all -A"; else not_ok "why -A = why --all -A"; fi
check "why -A -l" 0 "$bin" why -A -l app=rag-api -S "$ex"
contains "why -A -l: the rag-api pods" "rag-api-7948f7fb7" out

# ---- nodes -n / -A: accepted and ignored, as kubectl get nodes takes them ----
check "nodes" 0 "$bin" nodes -S "$ex" -q -o json
cp "$tmp/out" "$tmp/nodes-plain.json"
check "nodes -A" 0 "$bin" nodes -S "$ex" -q -A -o json
if cmp -s "$tmp/out" "$tmp/nodes-plain.json"; then ok "nodes -A: the same nodes"; else not_ok "nodes -A: the same nodes"; fi
check "nodes -n X" 0 "$bin" nodes -S "$ex" -n X -o json
if cmp -s "$tmp/out" "$tmp/nodes-plain.json"; then ok "nodes -n X: the same nodes"; else not_ok "nodes -n X: the same nodes"; fi
lacks "nodes -n X: says nothing of it" "namespace" err

# ---- nodes -l ----
check "nodes -l: one zone" 0 "$bin" nodes -S "$ex" -q -l 'topology.kubernetes.io/zone=us-east-1a'
lacks "nodes -l: the other zone's node left out" "ip-10-0-2" out

# ---- nonsense values: exit 2, the accepted range said ----
check "capacity --replicas -3" 2 "$bin" capacity -S "$ex" --from deployment/rag-api -n production --replicas -3
contains "capacity --replicas -3: the range" "--replicas -3: give a number from 0 to 2147483647" err
check "capacity --replicas -1 (once the 'not given' value)" 2 "$bin" capacity -S "$ex" --from deployment/rag-api -n production --replicas -1
check "capacity --replicas 0 is a question" 0 "$bin" capacity -S "$ex" --from deployment/rag-api -n production --replicas 0 -q
check "plan --steps 0" 2 "$bin" plan -S "$ex" deployment/rag-api -n production --steps 0
contains "plan --steps 0: the range, the value echoed" "--steps 0: give a number from 2 to 200" err
check "plan --hpa-desired -1 (once the 'not given' value)" 2 "$bin" plan -S "$ex" deployment/rag-api -n production --hpa-desired -1
contains "plan --hpa-desired -1: the range, the value echoed" "--hpa-desired -1: give a number from 1 to 2147483647" err
check "simulate --replicas -3" 2 "$bin" simulate --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --replicas -3
contains "simulate --replicas -3: the range" "--replicas -3: give a number from 1 to 2147483647" err
check "simulate --replicas 0" 2 "$bin" simulate --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --replicas 0
check "simulate --sync 0s" 2 "$bin" simulate --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --sync 0s
contains "simulate --sync 0s: named, with what it takes" "--sync 0s: give a duration of at least 1s, like 30s or 1m" err
check "simulate --duration 0s" 2 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --duration 0s
contains "simulate --duration 0s: refused with the range, not run for 600 s" "--duration 0s: give a duration of at least 1s, like 30s or 1m" err
lacks "simulate --duration 0s: no timeline" "t = 0 s" out
check "simulate --duration 0" 2 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --duration 0
check "simulate --startup -5s" 2 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --startup -5s
contains "simulate --startup -5s: the range" "--startup -5s: give a duration of at least 0s, like 30s or 1m" err
check "simulate --startup soon" 2 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --startup soon
contains "simulate --startup soon: not a duration, and the range" "--startup soon: not a duration; give a duration of at least 0s, like 30s or 1m" err
check "simulate --startup 0s is allowed" 0 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --startup 0s --duration 60s -o json
check "simulate --duration 1s is the least" 0 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --duration 1s -o json
check "serve --max-staleness 0" 2 "$bin" serve -S "$ex" --max-staleness 0
contains "serve --max-staleness 0: named, with what it takes" "--max-staleness 0: give a number of seconds over 0" err
check "why --watch-rounds -1" 2 "$bin" why -S "$ex" --all --watch-rounds -1
contains "why --watch-rounds -1: the range" "--watch-rounds -1: give a number from 0 to 2147483647" err
check "nodes --metrics-interval -5" 2 "$bin" nodes -S "$ex" --metrics-interval -5
contains "nodes --metrics-interval -5: the range" "--metrics-interval -5: give a number from 1 to 86400" err
check "why --watch-timeout 0" 2 "$bin" why -S "$ex" --all --watch-timeout 0
contains "why --watch-timeout 0: the range" "--watch-timeout 0: give a number from 1 to 86400" err
check "serve --verbosity 7" 2 "$bin" serve -S "$ex" --verbosity 7
contains "serve --verbosity 7: the range" "--verbosity 7: give a number from 0 to 2" err
check "serve --coalesce 0" 2 "$bin" serve -S "$ex" --coalesce 0
contains "serve --coalesce 0: the range" "--coalesce 0: give a number from 1 to 1000" err
check "serve --max-in-flight 0" 2 "$bin" serve -S "$ex" --max-in-flight 0
contains "serve --max-in-flight 0: the range" "--max-in-flight 0: give a number from 1 to 2147483647" err

# ---- "--" ends the options: negative quantities ----
check "quantity -- -1Gi" 0 "$bin" quantity -o json -- -1Gi 2
expect "quantity -- -1Gi: -1Gi and 2, not \"--\"" '[.[].input] == ["-1Gi","2"] and .[0].value == -1073741824'
check "quantity -1Gi without --: an option" 2 "$bin" quantity -1Gi
contains "quantity -1Gi: how to give a negative quantity" "Unknown option -1Gi (to give a negative quantity, end the options first: fitscale quantity -- -1Gi)" err
check "quantity -x: an unknown option" 2 "$bin" quantity -x
lacks "quantity -x: no negative-quantity hint" "negative quantity" err
check "quantity -- alone: no quantity" 2 "$bin" quantity --
lacks "quantity --: not parsed as a quantity" 'quantity "--"' err

# ---- the closest command or flag ----
check "unknown command" 2 "$bin" wyh
contains "unknown command: did you mean why" 'unknown command "wyh": did you mean "why"?' err
check "help of an unknown command" 2 "$bin" help wyh
contains "help wyh: did you mean why" 'unknown command "wyh": did you mean "why"?' err
check "a command's prefix" 2 "$bin" snap
contains "a prefix: did you mean snapshot" 'did you mean "snapshot"?' err
check "a word far from every command" 2 "$bin" xyzzy
lacks "far: no suggestion" "did you mean" err
check "unknown flag" 2 "$bin" capacity --reqest cpu=1 -S "$ex"
contains "unknown flag: did you mean --request" "Unknown option --reqest (did you mean --request?)" err
check "unknown flag with =" 2 "$bin" plan -S "$ex" deployment/rag-api --namespce=production
contains "unknown flag with =: did you mean --namespace" "(did you mean --namespace?)" err
check "unknown flag of the common ones" 2 "$bin" nodes --snapshto "$ex"
contains "common flag: did you mean --snapshot" "(did you mean --snapshot?)" err
check "unknown flag far from every flag" 2 "$bin" nodes --zzzzzzzz -S "$ex"
lacks "far flag: no suggestion" "did you mean" err
check "unknown short option" 2 "$bin" nodes -x -S "$ex"
contains "unknown short option: named" "fitscale nodes: Unknown option -x" err
contains "unknown short option: --help suggested" "Run 'fitscale nodes --help' for usage." err

# ---- -o: the formats listed, the closest suggested ----
check "nodes -o jsn" 2 "$bin" nodes -S "$ex" -o jsn
contains "-o jsn: the formats, did you mean json" "-o jsn: not an output format; give wide, json or yaml (did you mean json?)" err
lacks "-o jsn: no answer" "NODE" out
check "snapshot -o table" 2 "$bin" snapshot -o table --server http://127.0.0.1:1
contains "snapshot -o table: exactly the formats it writes" "-o table: not an output format; give json or yaml" err
check "snapshot -o wide" 2 "$bin" snapshot -o wide --server http://127.0.0.1:1
contains "snapshot -o wide: not offered, then refused" "-o wide: not one of this command's output formats; give json or yaml" err
check "simulate -o cvs" 2 "$bin" simulate -S "$ex" production/rag-api -o cvs
contains "simulate -o cvs: csv among the formats, and suggested" "-o cvs: not an output format; give wide, json, yaml or csv (did you mean csv?)" err
check "hvpa --semantics hvp" 2 "$bin" hvpa -S "$ex" --semantics hvp -A
contains "hvpa --semantics: the value typed and the two accepted" "--semantics hvp: give design or hvpa" err
check "why -o yml" 2 "$bin" why -S "$ex" --all -o yml
contains "-o yml: did you mean yaml" "(did you mean yaml?)" err
check "plan -o wdie" 2 "$bin" plan -S "$ex" deployment/rag-api -n production -o wdie
contains "-o wdie: did you mean wide" "(did you mean wide?)" err
check "capacity -o go-template" 2 "$bin" capacity -S "$ex" --request cpu=1 -o go-template
contains "-o go-template: the formats" "-o go-template: not an output format; give wide, json or yaml" err
lacks "-o go-template: far from every format, no suggestion" "did you mean" err

# ---- live: hpa -A from the cluster = hpa -A from its fitscale snapshot ----
fake_api flags "$ex"/*.json "$tmp/idle-hpa.json"
cat >"$tmp/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters: [{name: fake, cluster: {server: "http://127.0.0.1:$port"}}]
users: [{name: fake, user: {}}]
contexts: [{name: fake, context: {cluster: fake, user: fake}}]
current-context: fake
KC
check "live: hpa -A" 0 "$bin" hpa -A --kubeconfig "$tmp/kubeconfig" --now 2026-10-09T14:00:00Z -o json
cp "$tmp/out" "$tmp/live-hpa.json"
check "live: snapshot" 0 "$bin" snapshot --kubeconfig "$tmp/kubeconfig"
cp "$tmp/out" "$tmp/cluster.json"
check "snapshot file: hpa -A" 0 "$bin" hpa -A -S "$tmp/cluster.json" --now 2026-10-09T14:00:00Z -o json
if cmp -s "$tmp/out" "$tmp/live-hpa.json"; then ok "hpa -A: live = its snapshot"; else not_ok "hpa -A: live = its snapshot"; fi
expect "hpa -A live: two HPAs" '.hpas | length == 2'

tap_end

#!/usr/bin/env bash
# End-to-end: the real fitscale binary on the bundled example and the real fixtures.
# Speaks TAP for automake's driver.
set -u
. "${FS_SRCDIR:-.}/tests/lib.sh"
fixtures="$src/tests/fixtures/real"
data="$src/tests/data"
export KUBECONFIG="$tmp/no-kubeconfig"  # never a cluster of the machine's


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
expect "example: no node has 6Gi free" '[.nodes[].free.memory] == ["5966Mi","5654Mi"] and all(.nodes[]; (.free.memory | rtrimstr("Mi") | tonumber) < 6144)'
check "nodes -l: the nodes of one zone" 0 "$bin" nodes -S "$src/examples/rag-api" -o json -q -l 'topology.kubernetes.io/zone in (us-east-1a)'
expect "nodes -l: one node, its 9 pods, the 4 Pending still counted" '(.nodes | length) == 1 and .nodes[0].name == "ip-10-0-1-23.ec2.internal" and .total.nodes == 1 and .total.podsBound == 9 and .total.podsPending == 4'
check "nodes -l: a bad selector" 2 "$bin" nodes -S "$src/examples/rag-api" -l '=x'
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
contains "no snapshot: says how to name a cluster" "no cluster to read: give --snapshot PATH" err
check "unknown output format" 2 "$bin" nodes -S "$fixtures/minikube-node.json" -o xml
check "nodes --help" 0 "$bin" nodes --help
contains "help lists --snapshot" "--snapshot" out

# ---- capacity ----
check "capacity: 6 replicas of rag-api do not fit (exit 1)" 1 "$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --replicas 6 -o json
expect "capacity: 2 fit, 4 Pending" '.capacity == 2 and .placed == 2 and .pending == 4 and .fits == false'
expect "capacity: 2 more m5.xlarge would hold them" '[.nodesNeeded[] | {shape, existing, replicasPerNode, nodes}] == [{"shape":"m5.xlarge","existing":2,"replicasPerNode":2,"nodes":2}] and [.nodesNeeded[0].additions[] | [.zone, .count, .replicasPerNode]] == [["us-east-1a",1,2],["us-east-1b",1,2]]'
expect "capacity: room in total, not in one piece" '(.fragmentation.freeTotal.memory != .fragmentation.largestFree.memory)'
check "capacity: two shapes at once are refused" 2 "$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --replicas 6 --request cpu=500m,memory=3Gi
contains "capacity: refuses two shapes" "give the pod shape once" err
check "capacity --request 3Gi: 2 more fit beside the running pods" 0 "$bin" capacity -q -S "$ex" --request cpu=500m,memory=3Gi --replicas 2 -n production
contains "capacity table says all fit" "all fit" out
check "capacity: memory below 1Gi for people" 0 "$bin" capacity -q -S "$ex" --request cpu=100m,memory=100M -n production
contains "capacity: 100M asked, printed as nodes print memory" "one replica asks 95Mi" out
check "capacity --vary frontier" 0 "$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --vary memory=1Gi..8Gi -o json
expect "frontier: 3Gi gives 6, 6Gi gives 2" '(.frontier[] | select(.request=="3Gi") | .replicas) == 6 and (.frontier[] | select(.request=="6Gi") | .replicas) == 2'
check "capacity on kind: tainted control plane excluded" 0 "$bin" capacity -q -S "$fixtures/kind-3node-nodes.json" -S "$fixtures/kind-pods-kube-system-pending-taint.json" --request cpu=1,memory=1Gi -o json
expect "kind: the master is rejected by its taint" '[.nodes[] | select(.reasons[0] | tostring | test("untolerated taint \\{node-role.kubernetes.io/master: \\}"))] | length == 1'
check "capacity on the GPU node: only it fits a GPU pod" 0 "$bin" capacity -q -S "$fixtures/mixed-doks-ec2gpu-7nodes.json" --request nvidia.com/gpu=1,cpu=100m -o json
expect "gpu: one replica, on the one GPU node" '.capacity == 1 and ([.nodes[] | select(.fits > 0)] | length) == 1'
check "capacity: unknown workload" 2 "$bin" capacity -q -S "$ex" --from deployment/nope -n production
contains "capacity: names the missing workload" "deployment/nope not found" err

# ---- why ----
check "why on a Pending rag-api pod" 0 "$bin" why -q -S "$ex" production/rag-api-7948f7fb7-dc5k8 -o json
expect "why: the scheduler's message, and it agrees with the recorded one" '.message == "0/2 nodes are available: 2 Insufficient memory. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod." and .agrees == true'
expect "why: per-node reasons and shortfall" '.nodes | all(.reasons == ["Insufficient memory"] and (.short.memory != null))'
expect "why: room in total" '.roomInTotal == true'
expect "why: fixes lower request, add nodes, lower replicas" '[.fixes[].type] == ["LowerRequest","AddNodes","LowerReplicas"]'
check "why on k3s: the real scheduler's message" 0 "$bin" why -q -S "$fixtures/k3s-1node-nodes.json" -S "$fixtures/k3s-1node-pods-kube-system.json" -S "$fixtures/k3s-1node-pods-default-pending.json" --all -A -o json
expect "k3s: same message as recorded" '.items | length == 1 and .[0].agrees == true and (.[0].message | startswith("0/1 nodes are available: 1 Insufficient cpu."))'
check "why --all table" 0 "$bin" why -q -S "$ex" --all -n production
contains "why --all groups the 4 pods" "3 more Pending pods of ReplicaSet rag-api-7948f7fb7" out
check "why --all -l: the selector picks rag-api" 0 "$bin" why -q -S "$ex" --all -A -l 'app in (rag-api, other),!missing' -o json
expect "why -l: one owner's answer" '.items | length == 1 and .[0].owner == "ReplicaSet/rag-api-7948f7fb7"'
check "why --all -l: nothing selected" 0 "$bin" why -q -S "$ex" --all -A -l app=nothing
contains "why -l: says so" "No Pending pods without a node" out
check "why -l: a bad selector" 2 "$bin" why -q -S "$ex" --all -l 'app=(bad'
contains "why -l: quotes it" 'unable to parse requirement "app=(bad"' err
check "why: unknown pod" 2 "$bin" why -q -S "$ex" production/nope
contains "why: names the pod" 'pod "nope" not found' err

# ---- hpa ----
# native sidecars' requests and usage both count (replica_calculator.go calculatePodRequests)
check "hpa: pods with a native sidecar" 0 "$bin" hpa -q -S "$data/hpa-sidecar.yaml" default/web --now 2026-01-01T12:00:10Z -o json
expect "hpa: the sidecar's request counts: 75%, 3 replicas" '.desiredReplicas == 3 and .metrics[0].currentUtilization == 75 and .metrics[0].proposedReplicas == 3'
check "hpa: a ContainerResource metric on the sidecar" 0 "$bin" hpa -q -S "$data/hpa-sidecar.yaml" default/web-side --now 2026-01-01T12:00:10Z -o json
expect "hpa: the sidecar's own request: 50%, within tolerance" '.desiredReplicas == 2 and .metrics[0].currentUtilization == 50 and .metrics[0].valid'
sed 's/name: cpu, target: {type: Utilization, averageUtilization: 50}/name: memory, target: {type: AverageValue, averageValue: 20Mi}/' "$data/hpa-sidecar.yaml" >"$tmp/hpa-memory.yaml"
check "hpa: a memory AverageValue metric" 0 "$bin" hpa -q -S "$tmp/hpa-memory.yaml" default/web --now 2026-01-01T12:00:10Z
contains "hpa: memory read in Mi, not bytes in milli-units" "Resource memory   PodMetrics   2       0         0         0         20Mi      20Mi     1.000 (within)   2" out
check "hpa on the example" 0 "$bin" hpa -q -S "$ex" production/rag-api-hpa --now 2026-10-09T14:00:00Z -o json
expect "hpa: 2 ready, 4 unready (Pending)" '.metrics[0].ready == 2 and .metrics[0].unready == 4 and .metrics[0].missing == 0'
expect "hpa: cpu 89%, rebalanced below 1, kept at 6" '.metrics[0].currentUtilization == 89 and .metrics[0].rebalancedRatio < 1 and .metrics[0].proposedReplicas == 6'
expect "hpa: memory 55% proposes 2" '.metrics[1].currentUtilization == 55 and .metrics[1].proposedReplicas == 2'
expect "hpa: cpu wins, 6 desired" '.winningMetric == "cpu" and .desiredReplicas == 6'
expect "hpa: each pod counted, and why" '[.metrics[0].pods[] | select(.counted == "unready") | .why] == ["Pending","Pending","Pending","Pending"] and ([.metrics[0].pods[] | select(.counted == "ready")] | length) == 2'
check "hpa: a failed metric" 0 "$bin" hpa -q -S "$fixtures/hpa-v2-failed-metrics-kubectl-ai-pr584.yaml" hpa-test/web-app -o json
expect "hpa: the failed metric is invalid, not 0" '.metrics[0].valid == false and (.metrics[0].error | test("unable to fetch metrics")) and .winningMetric == null and .desiredReplicas == 1'
# an HPA whose status says ScalingActive=False shows that condition (issue 20)
expect "hpa -o json: the ScalingActive condition" '.scalingActive.status == "False" and .scalingActive.reason == "FailedGetResourceMetric"'
check "hpa: ScalingActive=False in words" 0 "$bin" hpa -q -S "$fixtures/hpa-v2-failed-metrics-kubectl-ai-pr584.yaml" hpa-test/web-app
contains "hpa: the HPA does not scale, by its own condition" "Now: 1 replica, and the HPA does not scale: ScalingActive=False (FailedGetResourceMetric: the HPA was unable to compute the replica count" out
# an invalid metric holds a scale-down the valid ones propose (horizontal.go computeReplicasForMetrics)
check "hpa: an invalid metric beside a valid one proposing fewer" 0 "$bin" hpa -q -S "$data/hpa-invalid-hold" default/web --now 2026-01-01T12:00:10Z
contains "hpa: the valid metric does not win a scale-down" "The valid metrics propose 1 replica, fewer than the 4 now, but qps is invalid: the HPA does not scale down while a metric is invalid." out
contains "hpa: no limit or window runs: ScalingActive=False, the invalid metric's reason" "Now: 4 replicas, unchanged this sync: ScalingActive=False (FailedGetPodsMetric)." out
lacks "hpa: not 'the largest proposal wins'" "largest proposal wins" out
lacks "hpa: not DesiredWithinRange" "DesiredWithinRange" out
check "hpa: singular replica" 0 "$bin" hpa -q -S "$fixtures/hpa-v2beta2-healthy-rollout-target.yaml" credential-hpa
contains "hpa: 1 replica, not 1 replicas (issue 20)" "The largest proposal wins: cpu, 1 replica." out
check "hpa -o json: no condition, null" 0 "$bin" hpa -q -S "$fixtures/hpa-v2beta2-healthy-rollout-target.yaml" credential-hpa -o json
expect "hpa -o json: scalingActive null when it scales" '.scalingActive == null'
check "hpa: v2beta2 read as v2, from its status" 0 "$bin" hpa -q -S "$fixtures/hpa-v2beta2-healthy-rollout-target.yaml" credential-hpa -o json
expect "hpa: status utilization 27% of 65%" '.metrics[0].source == "HPA status" and .metrics[0].currentUtilization == 27 and .desiredReplicas == 1'
check "hpa: Pods, Object and External metrics from the metrics APIs' lists" 0 "$bin" hpa -q -S "$data/hpa-custom" shop/web --now 2026-12-02T12:00:10Z -o json
expect "hpa: Pods 20 of 10 -> 6, Object 3k of 2k -> 5, External 150 of 30 -> 5" '[.metrics[] | [.type, .source, .proposedReplicas]] == [["Pods","metric values",6],["Object","metric values",5],["External","metric values",5]] and .desiredReplicas == 6'
expect "hpa -o json: current values as the HPA's status writes them, Quantity strings (not milli-units)" '[.metrics[] | .currentAverageValue // .currentValue] == ["20","3k","50"]'
check "hpa -A -o json: the list's values as the table's" 0 "$bin" hpa -q -S "$data/hpa-custom" -A -o json
expect "hpa -A -o json: 20 and 3k, strings" '[.hpas[0].metrics[] | .currentAverageValue // .currentValue] == ["20","3k","50"]'
check "hpa -A -o yaml: Quantity strings" 0 "$bin" hpa -q -S "$data/hpa-custom" -A -o yaml
contains "hpa -o yaml: currentValue 3k" "currentValue: 3k" out
lacks "hpa -o yaml: no milli-units" "3000000" out
check "hpa: a target of 0 replicas and an AverageValue metric: the ratio is +Inf" 0 "$bin" hpa -q -S "$data/hpa-ratio-inf.yaml" jobs/worker --now 2026-12-02T12:00:10Z -o json
expect "hpa: +Inf is null with ratioText, a scale up to ceil(100/30)" '.metrics[0] | .ratio == null and .ratioText == "+Inf" and .rebalancedRatio == null and .rebalancedRatioText == "+Inf" and .proposedReplicas == 4'
expect "hpa: an External sum past int64 saturates (GetExternalMetricReplicas), not negative" '.metrics[1] | .currentValue == "9223372036854775807m" and .ratio == 1.8447 and (has("ratioText") | not) and .proposedReplicas == 2'
check "hpa: +Inf in the table" 0 "$bin" hpa -q -S "$data/hpa-ratio-inf.yaml" jobs/worker --now 2026-12-02T12:00:10Z
contains "hpa: the table says +Inf" "+Inf" out
check "hpa: +Inf in YAML is null too" 0 "$bin" hpa -q -S "$data/hpa-ratio-inf.yaml" jobs/worker --now 2026-12-02T12:00:10Z -o yaml
contains "hpa: YAML ratioText" "ratioText: +Inf" out
lacks "hpa: YAML has no .inf" ".inf" out
check "hpa: unknown HPA" 2 "$bin" hpa -q -S "$ex" production/nope
contains "hpa: names the HPA" 'HorizontalPodAutoscaler "nope" not found' err

# ---- simulate ----
check "simulate: a memory AverageValue HPA on a load trace in quantities" 0 "$bin" simulate --no-cluster --hpa "$data/hpa-memory.json" --trace "$data/trace-memory.csv" --replicas 4
contains "simulate: the load in Mi, no utilization for an AverageValue target" "0     400Mi   4          4       0          0         -      20          20           8         ScaleUpLimit" out
contains "simulate: no utilization chart for an AverageValue target" "replicas (#, up to 20), one column per 1 sync" out
printf 't_seconds,load\n0,4x00Mi\n' >"$tmp/bad-load.csv"
check "simulate: a load that is no quantity" 2 "$bin" simulate --no-cluster --hpa "$data/hpa-memory.json" --trace "$tmp/bad-load.csv"
contains "simulate: says what a load may be" 'is not "seconds,load" with seconds increasing (a load is a number or a quantity in the metric'"'"'s units: 2.5, 1500m, 400Mi)' err
check "simulate: the seed's scale-down timeline" 0 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-load-stops.csv" --replicas 6 --startup 0s --duration 1200s -o json
expect "simulate: 6->5->4->3->2 at 300, 360, 420, 480 s after the last high reading (585 s)" '[.timeline[] | select(.desired != .replicas) | [.t, .desired]] == [[885,5],[945,4],[1005,3],[1065,2]]'
check "simulate: the behavior reference's scale-up" 0 "$bin" simulate --no-cluster --hpa "$data/hpa-behavior-es.yaml" --trace "$data/trace-spike.csv" --startup 0s --duration 90s -o json
expect "simulate: 18 -> 25 (+7 pods), then +30 % of 25 = 33" '[.timeline[] | select(.desired != .replicas) | [.t, .replicas, .desired]][0:2] == [[0,18,25],[60,25,33]]'
check "simulate: selectPolicy Disabled never scales down" 0 "$bin" simulate --no-cluster --hpa "$data/hpa-behavior-es.yaml" --trace "$data/trace-load-stops.csv" --startup 0s --duration 1500s -o json
expect "simulate: no step down" '[.timeline[] | select(.desired < .replicas)] | length == 0'
check "simulate: the trap with the example cluster" 0 "$bin" simulate -q --hpa "$ex/hpa.json" -S "$ex" --trace "$data/trace-trap.csv" --replicas 2 --startup 30s --duration 600s -o json
expect "simulate: the third pod stays Pending, the HPA holds at 3 under 89 %" '(.timeline[] | select(.t == 150)) as $s | $s.replicas == 3 and $s.pending == 1 and $s.desired == 3'
expect "simulate: at 150 % it asks 5, three of them Pending" '(.timeline[-1]) as $s | $s.replicas == 5 and $s.pending == 3'
check "simulate: a run too long is refused" 2 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-spike.csv" --duration 100000h
contains "simulate: says the limit" "limited to 100000" err
check "simulate: a bad --kube-version is refused" 2 "$bin" simulate --hpa "$ex/hpa.json" --trace "$data/trace-spike.csv" --kube-version BAD
contains "simulate: --kube-version named as hpa names it" 'fitscale simulate: --kube-version "BAD": give 1.MINOR, e.g. 1.32' err
check "hpa: a bad --kube-version is refused" 2 "$bin" hpa -q -S "$ex" production/rag-api-hpa --kube-version BAD
contains "hpa: --kube-version named" 'fitscale hpa: --kube-version "BAD": give 1.MINOR, e.g. 1.32' err
check "simulate -o csv" 0 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-spike.csv" --replicas 2 --duration 60s -o csv
contains "simulate csv header" "t,value,replicas,ready,starting,pending,utilization,recommendation,stabilized,desired,reason" out
printf 't_seconds,value\n10,5\n5,3\n' > "$tmp/bad.csv"
check "simulate: a bad trace" 2 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$tmp/bad.csv"
contains "simulate: names the line" "bad.csv:3" err
check "simulate: no cluster named and none in the kubeconfig" 2 "$bin" simulate --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv" --replicas 2
contains "simulate: says so, and how to run the HPA alone" "no cluster to read: give --snapshot PATH" err
contains "simulate: --no-cluster offered" "or --no-cluster to run the HPA alone" err
lacks "simulate: no timeline from an unbounded cluster" "t = 0 s" out
check "simulate: --no-cluster with -S is refused" 2 "$bin" simulate --no-cluster -S "$ex" --hpa "$ex/hpa.json" --trace "$data/trace-trap.csv"
contains "simulate: --no-cluster with -S: named" "--no-cluster: give it without --snapshot and the connection flags" err

# one formatter of quantities for people (issue 20): no "0Ki", no bytes, units kept
check "nodes: quantities for people" 0 "$bin" nodes -q -S "$data/plan/tight-nodes.yaml"
contains "nodes: nothing requested is 0, memory as written" "0/4000Mi (0%)" out
lacks "nodes: no 0Ki" "0Ki" out
# the nodes footer counts only the nodes pods can use, and says so (issue 20)
check "nodes: the footer on usable nodes" 0 "$bin" nodes -q -S "$data/why-fixes.yaml"
contains "nodes: cordoned gen-c and tainted gpu-1 left out of the free room" "Free in total on the 3 of 5 nodes pods can use (schedulable, untainted, not NotReady): cpu 4500m, memory 22Gi; largest free piece on one node: cpu 4, memory 8Gi." out
check "nodes -o json: the usable nodes" 0 "$bin" nodes -q -S "$data/why-fixes.yaml" -o json
expect "nodes -o json: usableNodes, usableFree beside free" '.total.usableNodes == 3 and .total.usableFree.cpu == "4500m" and .total.free.cpu == "12500m"'
# ---- hvpa ----
check "hvpa: the design's Example 1" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --now 2026-12-02T12:00:00Z -o json
expect "hvpa: stage 3..7, weight 0.6, 5 replicas" '.stage == 1 and .vpaWeight == 0.6 and .replicas == 5 and .hpaDesiredReplicas == 6'
expect "hvpa: memory to 1600Mi, cpu blocked by MinChange" '.containers[0].requests == {"cpu":"100m","memory":"1600Mi"} and .containers[0].weightedRequests.cpu == "160m" and ([.blocked[].reason] == ["MinChange"])'
check "hvpa --curve" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --curve
contains "hvpa: the curve's rows" "10         3       1.00         2000Mi" out
check "hvpa --semantics hvpa rejects the design's fraction" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --semantics hvpa -o json
expect "hvpa: 0.6 is no integer percent" '.valid == false'
sed 's/updateMode: "MaintenanceWindow"/updateMode: "Sometimes"/' "$fixtures/hvpa-v1alpha1-sample.yaml" > "$tmp/hvpa-mode.yaml"
check "hvpa: an updateMode the Hvpa validation refuses is refused" 2 "$bin" hvpa -q -S "$tmp/hvpa-mode.yaml" -S "$data/hvpa-design/cluster.yaml" default/hvpa-sample --semantics hvpa
contains "hvpa: names the field and the allowed modes" 'updatePolicy.updateMode: "Sometimes" is not supported (Auto, Off, MaintenanceWindow)' err
sed '0,/stabilizationDuration: "3m"/s//stabilizationDuration: "3 minutes"/' "$fixtures/hvpa-v1alpha1-sample.yaml" > "$tmp/hvpa-duration.yaml"
check "hvpa: a stabilizationDuration time.ParseDuration refuses is refused" 2 "$bin" hvpa -q -S "$tmp/hvpa-duration.yaml" -S "$data/hvpa-design/cluster.yaml" default/hvpa-sample --semantics hvpa
contains "hvpa: names the duration's field" 'stabilizationDuration: "3 minutes" is not a duration' err
check "hvpa: the sample's target is missing" 2 "$bin" hvpa -q -S "$fixtures/hvpa-v1alpha1-sample.yaml" default/hvpa-sample
contains "hvpa: names the missing target" "its target Deployment/resource-consumer is not in the snapshot" err

# ---- --scheduler-config: two profiles (tests/data/scheduler-config) ----
sc="$data/scheduler-config"
check "scheduler-config: why --all with two profiles" 0 "$bin" why -q -S "$sc/cluster.yaml" --scheduler-config "$sc/config.yaml" --all -A -o json
expect "scheduler-config: widget fits, example.com ignored by the default profile" '.items[] | select(.pod == "widget") | .fits == true'
expect "scheduler-config: batch-job fits on the tainted node, its profile runs no TaintToleration" '.items[] | select(.pod == "batch-job") | .fits == true'
expect "scheduler-config: elsewhere meets the default profile's addedAffinity" '.items[] | select(.pod == "elsewhere") | .fits == false and (.message | test("1 node\\(s\\) didn.t match scheduler-enforced node affinity"))'
expect "scheduler-config: stray's scheduler has no profile: reported, not judged" '.items[] | select(.pod == "stray") | .unknownScheduler == "my-scheduler" and (has("fits") | not)'
check "scheduler-config: without it, the default profile judges all four" 0 "$bin" why -q -S "$sc/cluster.yaml" --all -A -o json
expect "scheduler-config: widget short of example.com/widget, batch-job held by the taint, stray judged" '(.items[] | select(.pod == "widget") | .message | test("Insufficient example.com/widget")) and (.items[] | select(.pod == "batch-job") | .fits == false) and (.items[] | select(.pod == "stray") | .fits == true)'
check "scheduler-config: why of the pod of an unknown scheduler, as text" 0 "$bin" why -q -S "$sc/cluster.yaml" --scheduler-config "$sc/config.yaml" shop/stray
contains "scheduler-config: says no profile takes it" "No profile of the scheduler configuration is named my-scheduler" out
check "scheduler-config: capacity counts what the profile ignores" 0 "$bin" capacity -q -S "$sc/cluster.yaml" --scheduler-config "$sc/config.yaml" --request cpu=1,example.com/widget=1 -o json
expect "scheduler-config: 4 on general-a" '.capacity == 4'
check "scheduler-config: capacity without it: none" 1 "$bin" capacity -q -S "$sc/cluster.yaml" --request cpu=1,example.com/widget=1 --replicas 1 -o json
expect "scheduler-config: 0 without the profile" '.capacity == 0'
check "scheduler-config: nodes reads and checks it too" 0 "$bin" nodes -q -S "$sc/cluster.yaml" --scheduler-config "$sc/config.yaml"
check "scheduler-config: List defaultConstraints spread a Deployment without its own" 0 "$bin" capacity -q -S "$sc/spread.yaml" --from deployment/web -n shop --scheduler-config "$sc/spread-config.yaml" -o json
expect "scheduler-config: 2 + 3 replicas, held by topology spread" '.capacity == 5 and .limitedBy == "topology spread"'
check "scheduler-config: without the List defaults, 10" 0 "$bin" capacity -q -S "$sc/spread.yaml" --from deployment/web -n shop -o json
expect "scheduler-config: 8 + 2" '.capacity == 10'
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {ignoredResourceGroups: [example.com/x]}\n' > "$tmp/sc-group.yaml"
check "scheduler-config: a group with / is refused" 2 "$bin" nodes -q -S "$sc/cluster.yaml" --scheduler-config "$tmp/sc-group.yaml"
contains "scheduler-config: names the file and the field" "sc-group.yaml: profiles[0].pluginConfig[0].args.ignoredResourceGroups[0]: \"example.com/x\": resource group name can't contain '/'" err
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n      defaultConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]\n' > "$tmp/sc-system.yaml"
check "scheduler-config: System defaulting with constraints is refused" 2 "$bin" why -q -S "$sc/cluster.yaml" --scheduler-config "$tmp/sc-system.yaml" --all -A
contains "scheduler-config: says why" 'profiles[0].pluginConfig[0].args.defaultingType: when .defaultingType is "System", .defaultConstraints must be empty' err
printf 'apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n' > "$tmp/sc-version.yaml"
check "scheduler-config: an old apiVersion is refused" 2 "$bin" plan -q -S "$ex" deployment/rag-api -n production --scheduler-config "$tmp/sc-version.yaml"
contains "scheduler-config: names apiVersion" 'apiVersion: "kubescheduler.config.k8s.io/v1beta3" is not supported' err
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: a\n- schedulerName: a\n' > "$tmp/sc-dup.yaml"
check "scheduler-config: two profiles of one name are refused" 2 "$bin" nodes -q -S "$sc/cluster.yaml" --scheduler-config "$tmp/sc-dup.yaml"
contains "scheduler-config: names the second" 'profiles[1].schedulerName: "a": duplicate profile with scheduler name' err
check "scheduler-config: a missing file" 2 "$bin" nodes -q -S "$sc/cluster.yaml" --scheduler-config "$tmp/none.yaml"
head -c 1100000 /dev/zero | tr '\0' ' ' > "$tmp/sc-big.yaml"
check "scheduler-config: a file over 1 MiB is refused" 2 "$bin" nodes -q -S "$sc/cluster.yaml" --scheduler-config "$tmp/sc-big.yaml"
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: other\n' > "$tmp/sc-other.yaml"
check "scheduler-config: plan of a workload no profile schedules is refused" 2 "$bin" plan -q -S "$ex" deployment/rag-api -n production --scheduler-config "$tmp/sc-other.yaml"
contains "scheduler-config: plan names the scheduler" 'Deployment/rag-api: its pods'"'"' schedulerName "default-scheduler" has no profile in' err

# ---- plan ----
check "plan on the example: the trap avoided" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production -o json
expect "plan: the HVPA point is 6 x 6Gi, 4 Pending" '.hvpa.replicas == 6 and .hvpa.containers[0].requests.memory == "6Gi" and .hvpa.pending == 4'
expect "plan: why they stay Pending" '.hvpaPendingMessage == "0/2 nodes are available: 2 Insufficient memory."'
expect "plan: 6 replicas with less memory, none Pending, all the demand served" '.outcome == "adjusted" and .plan.replicas == 6 and .plan.pending == 0 and .plan.schedulable and .plan.servedFraction == 1 and .plan.containers[0].requests.cpu == "500m"'
expect "plan: memory between the VPA target and the 3932Mi bound" '.plan.containers[0].requests.memory as $m | ($m | test("^[0-9]+Mi$")) and ($m | rtrimstr("Mi") | tonumber) <= 3932 and ($m | rtrimstr("Mi") | tonumber) >= 3482'
expect "plan: 2 new m5.xlarge would hold P*" '[.nodesNeeded[] | {shape, existing, replicasPerNode, nodes}] == [{"shape":"m5.xlarge","existing":2,"replicasPerNode":2,"nodes":2}]'
expect "plan: the update stops; maxUnavailable 3 lets it finish" '.rollout.completes == false and .rollout.limits == {"maxSurge":2,"maxUnavailable":1} and .rollout.fix.maxUnavailable == 3'
expect "plan: alternatives at other replica counts" '(.alternatives | length) > 0 and ([.alternatives[].replicas] | index(6)) == null'
cp "$tmp/out" "$tmp/plan-first.json"
check "plan: the same answer twice" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production -o json
if cmp -s "$tmp/out" "$tmp/plan-first.json"; then ok "plan: deterministic"; else not_ok "plan: deterministic"; fi
check "plan table" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production
contains "plan table: outcome" "Outcome: adjusted." out
contains "plan table: the Pending message, no HVPA point without an Hvpa" "The HPA/VPA point leaves 4 replicas Pending: 0/2 nodes are available: 2 Insufficient memory." out
lacks "plan table: no HVPA point without an Hvpa (issue 20)" "HVPA point" out
check "plan -o yaml" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production -o yaml
contains "plan yaml: outcome" "outcome: adjusted" out
check "plan --curve" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --curve
contains "plan --curve: the table" "LARGEST THAT FITS" out
contains "plan --curve: 6 replicas at 6Gi do not fit" "6          0.00         6Gi            3917Mi              no" out
check "plan --apply-patch" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --apply-patch
contains "plan patch: a kubectl patch command" "kubectl patch deployment rag-api -n production --type strategic -p '" out
# a limit scaled with its request, in the units it was written in; the strategy change with
# the patch that reverts it; the HPA's bounds when it would set another count (issue 20)
contains "plan patch: the limit in Mi, as 8Gi was written" '"limits":{"cpu":"2","memory":"5223Mi"}' out
lacks "plan patch: no limit in bytes" '5476363' out
contains "plan patch: the revert of the strategy, after the rollout" "# once the rollout completes, the strategy as it was:" out
contains "plan patch: the strategy's defaults restored" "-p '{\"spec\":{\"strategy\":{\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":\"25%\"}}}}'" out
contains "plan patch: the HPA agrees" "# the HPA rag-api-hpa owns spec.replicas: it sets 6 at its next sync, as the plan does." out
if command -v kubectl >/dev/null && command -v jq >/dev/null; then
  patch=$(sed -n "s/^kubectl patch .* -p '\(.*\)'$/\1/p" "$tmp/out" | sed -n 1p)
  revert=$(sed -n "s/^kubectl patch .* -p '\(.*\)'$/\1/p" "$tmp/out" | sed -n 2p)
  jq '.items[] | select(.kind == "Deployment" and .metadata.name == "rag-api")' "$ex/workloads.json" > "$tmp/rag-api.json"
  check "plan patch: kubectl applies it (--local)" 0 kubectl patch --local -f "$tmp/rag-api.json" --type strategic -p "$patch" -o json
  expect "plan patch: the patched Deployment has the plan's requests" '.spec.template.spec.containers[0].resources.requests.memory | test("Mi$")'
  cp "$tmp/out" "$tmp/rag-api-patched.json"
  check "plan patch: kubectl applies the strategy's revert (--local)" 0 kubectl patch --local -f "$tmp/rag-api-patched.json" --type strategic -p "$revert" -o json
  expect "plan patch: the strategy as it was, the plan's requests kept" '.spec.strategy.rollingUpdate == {"maxSurge":"25%","maxUnavailable":"25%"} and .spec.template.spec.containers[0].resources.limits.memory == "5223Mi"'
else
  skip "plan patch: kubectl applies it" "kubectl or jq not installed"
fi
check "plan --apply-patch: an HPA that would set fewer" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --hpa-desired 4 --apply-patch
contains "plan patch: what the HPA sets, and the bounds that hold the plan" "# the HPA rag-api-hpa sets 4 replicas at its next sync, not the plan's 6; to hold 6:" out
contains "plan patch: the minReplicas that holds it" "kubectl patch hpa rag-api-hpa -n production --type merge -p '{\"spec\":{\"minReplicas\":6}}'" out
check "plan: the commands in the text" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --hpa-desired 4
contains "plan: to apply it" "To apply it:" out
contains "plan: the hold in the text" "  kubectl patch hpa rag-api-hpa -n production --type merge -p '{\"spec\":{\"minReplicas\":6}}'" out
check "plan -o json: the commands" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --hpa-desired 4 -o json
expect "plan -o json: apply, revertStrategy, holdReplicas" '(.commands.apply | startswith("kubectl patch deployment rag-api -n production --type strategic -p ")) and (.commands.revertStrategy | test("25%")) and .commands.holdReplicas == "kubectl patch hpa rag-api-hpa -n production --type merge -p '"'"'{\"spec\":{\"minReplicas\":6}}'"'"'"'
expect "plan -o json: the limit as written" '.plan.containers[0].limits.memory == "5223Mi"'
check "plan: the Hvpa sample (real) on kind's nodes (real), design semantics" 0 "$bin" plan -q -S "$fixtures/hvpa-v1alpha1-sample.yaml" -S "$data/hvpa-design/cluster.yaml" -S "$fixtures/kind-3node-nodes.json" hvpa/hvpa-sample -o json
expect "plan: three kind nodes hold the HVPA point: unchanged" '.outcome == "unchanged" and .plan == .hvpa and .sources.hvpa == "hvpa-sample"'
check "plan: the same under the released controller's rules" 0 "$bin" plan -q -S "$fixtures/hvpa-v1alpha1-sample.yaml" -S "$data/hvpa-design/cluster.yaml" -S "$fixtures/kind-3node-nodes.json" hvpa/hvpa-sample --semantics hvpa -o json
expect "plan: hvpa semantics" '.sources.semantics == "hvpa" and .plan.schedulable'
# what an Hvpa sets at its next sync is its weight rules' count (the HVPA point, as hvpa says),
# not its HPA's wish; its bounds are patched where the object writes them (either layout)
check "plan --apply-patch: an Hvpa of the design's layout" 0 "$bin" plan -q -S "$data/hvpa-design" -S "$data/plan/tight-nodes.yaml" hvpa/hvpa-sample --now 2026-12-02T12:00:00Z --apply-patch
contains "plan patch: the Hvpa sets the HVPA point's 5, not the HPA's 6" "# the Hvpa hvpa-sample sets 5 replicas at its next sync, not the plan's 3; to hold 3:" out
contains "plan patch: spec.hpaTemplate, as the object writes it" "kubectl patch hvpa hvpa-sample -n default --type merge -p '{\"spec\":{\"hpaTemplate\":{\"maxReplicas\":3}}}'" out
lacks "plan patch: no spec.hpa.template in a design-layout Hvpa" '"hpa":{"template"' out
check "hvpa: the same Hvpa" 0 "$bin" hvpa -q -S "$data/hvpa-design" -S "$data/plan/tight-nodes.yaml" hvpa-sample --now 2026-12-02T12:00:00Z
contains "hvpa: replicas 5, as plan says" "vpaWeight 0.60: replicas 5 (weighted 5)." out
check "plan: the HVPA point row" 0 "$bin" plan -q -S "$data/hvpa-design" -S "$data/plan/tight-nodes.yaml" hvpa/hvpa-sample --now 2026-12-02T12:00:00Z -o json
expect "plan -o json: the HVPA point is 5, the hold patch in the design's layout" '.hvpa.replicas == 5 and (.commands.holdReplicas | test("hpaTemplate"))'
sed 's/maxReplicas: 10/maxReplicas: 0/' "$data/hvpa-design/hvpa.yaml" >"$tmp/hvpa-design-max0.yaml"
check "hvpa: a design-layout Hvpa with maxReplicas 0" 2 "$bin" hvpa -q -S "$tmp/hvpa-design-max0.yaml" -S "$data/hvpa-design/cluster.yaml" hvpa-sample
contains "hvpa: names the field where the object writes it" 'field spec.hpaTemplate.maxReplicas: "0" is not an integer from 1 to 2147483647' err
sed 's/maxReplicas: 3/maxReplicas: 10/' "$fixtures/hvpa-v1alpha1-sample.yaml" >"$tmp/hvpa-released-10.yaml"
check "plan --apply-patch: an Hvpa of the released layout" 0 "$bin" plan -q -S "$tmp/hvpa-released-10.yaml" -S "$data/hvpa-design/cluster.yaml" -S "$data/plan/tight-nodes.yaml" hvpa/hvpa-sample --now 2026-12-02T12:00:00Z --apply-patch
contains "plan patch: the released Hvpa sets its point's 5" "# the Hvpa hvpa-sample sets 5 replicas at its next sync, not the plan's 3; to hold 3:" out
contains "plan patch: spec.hpa.template.spec, as the object writes it" "kubectl patch hvpa hvpa-sample -n default --type merge -p '{\"spec\":{\"hpa\":{\"template\":{\"spec\":{\"maxReplicas\":3}}}}}'" out
check "plan: --hpa-from metrics" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --hpa-from metrics -o json
expect "plan: metrics give 6 too" '.sources.hpaDesiredFrom == "metrics" and .sources.hpaDesiredReplicas == 6'
check "plan: --vpa-target and --hpa-desired" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:memory=3Gi --hpa-desired 4 --vpa-weight 1 -o json
expect "plan: weight 1 goes to the given target" '.hvpa.containers[0].requests.memory == "3Gi" and .sources.hpaDesiredFrom == "--hpa-desired"'
check "plan: unknown workload" 2 "$bin" plan -q -S "$ex" deployment/nope -n production
contains "plan: names it" 'Deployment "nope" not found in namespace "production"' err
check "plan: a bad --vpa-target" 2 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:memory=3Gx
contains "plan: names the flag and the text" '--vpa-target "rag-api:memory=3Gx"' err
check "plan: --vpa-target for a missing container" 2 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target sidecar:cpu=1
contains "plan: names the container" 'no container "sidecar"' err
check "plan: a bad --vpa-weight" 2 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-weight 1.5
check "plan: --steps 200, the API's limit" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --steps 200 -o json
check "plan: --steps past 200 (the API's limit too)" 2 "$bin" plan -q -S "$ex" deployment/rag-api -n production --steps 201
contains "plan: says the limit" '--steps 201: give a number from 2 to 200' err
check "plan: a kind it cannot plan" 2 "$bin" plan -q -S "$ex" daemonset/aws-node -n kube-system
check "plan: no workload" 2 "$bin" plan -q -S "$ex"
check "plan --help" 0 "$bin" plan --help
contains "plan --help: the rules" "docs/algorithm.md" out

# ---- NodePorts: hostPort 80 taken on every node (tests/data/hostport.yaml) ----
hostport="$data/hostport.yaml"
ports_reason="node(s) didn't have free ports for the requested pod ports"
check "why: a pod whose hostPort is taken everywhere" 0 "$bin" why -q -S "$hostport" web/edge-6d5f7c9b8-d4
contains "why: the scheduler's message, with NodePorts' reason" "fitscale: 0/3 nodes are available: 3 $ports_reason. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod." out
contains "why: the same as the recorded one" "(the same as the scheduler's own message)" out
lacks "why: no \"will place it\"" "will place it" out
check "why -o json on the hostPort pod" 0 "$bin" why -q -S "$hostport" web/edge-6d5f7c9b8-d4 -o json
expect "why -o json: no fit, NodePorts on every node, agrees" ".fits == false and .agrees == true and (.nodes | length) == 3 and (.nodes | all(.fits == false and .reasons == [\"$ports_reason\"])) and .roomInTotal == false"
check "capacity --from the hostPort workload" 0 "$bin" capacity -q -S "$hostport" --from deployment/edge -n web -o json
expect "capacity: one per node, limited by host ports" '.capacity == 3 and .limitedBy == "host ports (NodePorts)" and (.nodes | all(.fits == 1))'
check "capacity --replicas 4: one Pending, one new node for it" 1 "$bin" capacity -q -S "$hostport" --from deployment/edge -n web --replicas 4 -o json
expect "capacity --replicas 4: a new node takes one" '.placed == 3 and .pending == 1 and [.nodesNeeded[] | {shape, existing, replicasPerNode, nodes}] == [{"shape":"m5.xlarge","existing":3,"replicasPerNode":1,"nodes":1}]'
check "capacity table for the hostPort workload" 0 "$bin" capacity -q -S "$hostport" --from deployment/edge -n web
contains "capacity table: why not more" "1      $ports_reason" out
contains "capacity table: the limit" "3 replicas fit in all (limited by host ports (NodePorts))." out
check "capacity --from a hostNetwork template" 0 "$bin" capacity -q -S "$hostport" --from deployment/exporter -n web -o json
expect "capacity: its containerPort is its hostPort, one per node" '.capacity == 3 and .limitedBy == "host ports (NodePorts)"'
check "capacity without the port: resources decide" 0 "$bin" capacity -q -S "$hostport" --request cpu=100m,memory=128Mi -n web -o json
expect "capacity without the port: 37 + 38 + 38" '.capacity == 113 and .limitedBy == "resources"'
check "plan: the Pending replica's message" 1 "$bin" plan -q -S "$hostport" deployment/edge -n web -o json
expect "plan: NodePorts in it" ".hvpaPendingMessage == \"0/3 nodes are available: 3 $ports_reason.\""
check "simulate: the HPA scales edge up" 0 "$bin" simulate -q --hpa "$data/hostport-hpa.yaml" --trace "$data/trace-spike.csv" -S "$hostport" --startup 0s --duration 30s -o json
expect "simulate: the new pods find port 80 taken and stay Pending" '[.timeline[] | [.replicas, .ready, .pending]] == [[3,3,0],[6,3,3],[10,3,7]]'

# every real fixture answers both questions
for fixture in "$fixtures"/*.json "$fixtures"/*.yaml; do
  name=$(basename "$fixture")
  check "why --all on $name" 0 "$bin" why -q -S "$fixture" --all -A -o json
  check "capacity on $name" 0 "$bin" capacity -q -S "$fixture" --request cpu=100m,memory=128Mi -o json
done
# the GPU pod against the mixed node list: 5 GPUs fit nowhere (one node has 1)
check "why: the GPU pod on the mixed nodes" 0 "$bin" why -q -S "$fixtures/mixed-doks-ec2gpu-7nodes.json" -S "$fixtures/pod-pending-insufficient-nvidia-gpu.json" --all -A -o json
expect "why: Insufficient nvidia.com/gpu on every node" '.items[0].message | startswith("0/7 nodes are available: 4 Insufficient memory, 5 Insufficient cpu, 7 Insufficient nvidia.com/gpu.")'

# a snapshot that cannot be the whole cluster says so first, even with -q
check "nodes: pods whose nodes are missing" 0 "$bin" nodes -q -S "$fixtures/eks-arm64-podlist.json"
contains "nodes: warns of no nodes" 'fitscale nodes: warning: the snapshot holds no nodes' err
contains "nodes: names the nodes the pods are bound to" 'bound to 1 node the snapshot does not hold (duckboat-01)' err
check "why: a Pending pod and no node" 0 "$bin" why -q -S "$fixtures/eks-arm64-podlist.json" -S "$fixtures/pod-pending-node-affinity.json" --all -A -o json
expect "why: no node is the scheduler's ErrNoNodesAvailable, not 0/0 nodes" '[.items[].message] | length > 0 and all(. == "no nodes available to schedule pods")'
check "why: the default namespace's pods only" 0 "$bin" why -q -S "$fixtures/k3s-1node-nodes.json" -S "$fixtures/k3s-1node-pods-default-pending.json" --all -A
contains "why: warns that kube-system is missing" 'holds the pods of 1 namespace (default) and none of kube-system' err
check "why: with kube-system, the lists of one namespace each" 0 "$bin" why -q -S "$fixtures/k3s-1node-nodes.json" -S "$fixtures/k3s-1node-pods-default-pending.json" -S "$fixtures/k3s-1node-pods-kube-system.json" --all -A
contains "why: names the namespaces listed" "come from Lists of one namespace's pods each, default (" err
lacks "why: kube-system is there" 'none of kube-system' err
check "hpa: reads no node, so no warning" 0 "$bin" hpa -q -S "$fixtures/k3s-1node-nodes.json" -S "$ex" production/rag-api-hpa --now 2026-10-09T14:00:00Z
lacks "hpa: no warning" 'warning:' err

# the scheduler's recorded verdict comes first when fitscale's differs, and no promise then
check "why: a recorded verdict from a filter not modelled" 0 "$bin" why -q -S "$data/why-unbound-pvc.yaml" data/db-0
contains "why: the recorded verdict first" 'The scheduler recorded: 0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.' out
contains "why: names the reason not modelled" 'the scheduler'"'"'s reasons include "pod has unbound immediate PersistentVolumeClaims", from a filter fitscale does not model' out
lacks "why: no promise of a placement" 'will place it' out
check "why -o json: the reasons not modelled" 0 "$bin" why -q -S "$data/why-unbound-pvc.yaml" data/db-0 -o json
expect "why -o json: unmodelledReasons" '.unmodelledReasons == ["pod has unbound immediate PersistentVolumeClaims"] and .fits == true'
# a Pending pod with spec.nodeName is bound: it waits for its kubelet
check "why: a bound Pending pod" 0 "$bin" why -q -S "$fixtures/kind-pods-kube-system-pending-taint.json" kube-system/coredns-74ff55c5b-cpfqs
contains "why: says where it is bound" 'is bound to node kind-control-plane; it waits for its kubelet' out
lacks "why: no scheduling answer for it" 'will place it' out
# capacity: the new nodes are rounded up (5 Pending at 2 a node need 3)
check "capacity: 7 replicas of rag-api (exit 1)" 1 "$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --replicas 7 -o json
expect "capacity: 2 fit, 5 Pending, 3 more m5.xlarge" '.capacity == 2 and .pending == 5 and [.nodesNeeded[] | {shape, existing, replicasPerNode, nodes}] == [{"shape":"m5.xlarge","existing":2,"replicasPerNode":2,"nodes":3}]'
# plan: a tie in served, distance and size ranks the fewer replicas first (2 x 6Gi, 4 x 3Gi)
check "plan: a ranking tie" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:cpu=250m,memory=3Gi --hpa-desired 4 --steps 2 -o json
expect "plan: the tie's alternatives in order" '[.alternatives[] | [.replicas, .containers[0].requests.memory]] == [[5,"3Gi"],[2,"6Gi"],[4,"3Gi"],[3,"3Gi"]] and .alternatives[1].distance == .alternatives[2].distance'

# ---- why: every sentence true (issue 16, bullet 7) ----
gpu_room="$data/why-gpu-room.yaml"
check "why: a 2-GPU pod on two 1-GPU nodes" 0 "$bin" why -q -S "$gpu_room" ml/gpu-2
contains "why: the request names only what it asks (no memory 0Ki)" 'it requests cpu 2, nvidia.com/gpu 2.' out
contains "why: room in total names the GPUs; the overcommitted node adds no negative cpu" 'Room in total, not in one piece: cpu 16, nvidia.com/gpu 2 free on the nodes it may use,' out
contains "why: and the largest piece" 'but at most cpu 8, nvidia.com/gpu 1 on any one of them.' out
contains "why: an overcommitted node has none free, never a negative amount" 'cpu: needs 2, none free (overcommitted by 4); nvidia.com/gpu: needs 2, 0 free' out
check "nodes: an overcommitted node" 0 "$bin" nodes -q -S "$data/overcommitted.yaml"
contains "nodes: its free cpu is 0 and by how much it is over, never negative" "a      Unknown     3/2 (150%)     0 (over 1)   1Gi/4Gi (25%)     3Gi           1/110" out
lacks "why: no negative free" ', -' out
check "why: a 5-GPU pod where the cluster has 2" 0 "$bin" why -q -S "$gpu_room" ml/gpu-5 -o json
expect "why: no room in total for GPUs that do not exist" '.roomInTotal == false and .freeTotal["nvidia.com/gpu"] == "2" and .freeTotal.cpu == "16"'
check "why: the 5-GPU pod in words" 0 "$bin" why -q -S "$gpu_room" ml/gpu-5
lacks "why: no room-in-total sentence" 'Room in total' out
check "nodes: free lines count GPUs" 0 "$bin" nodes -q -S "$gpu_room"
contains "nodes: free GPUs in total and in the largest piece" 'Free in total on the 3 nodes pods can use (schedulable, untainted, not NotReady): cpu 16, memory 71Gi, nvidia.com/gpu 2; largest free piece on one node: cpu 8, memory 32Gi, nvidia.com/gpu 1.' out
check "nodes: no zero hugepages line on nodes that offer none" 0 "$bin" nodes -q -S "$ex"
lacks "nodes: hugepages left out" 'hugepages' out
check "why: a pod and no node, in words" 0 "$bin" why -q -S "$fixtures/eks-arm64-podlist.json" -S "$fixtures/pod-pending-node-affinity.json" --all -A
lacks "why: no empty node table" 'FIRST FAILING FILTER' out
contains "why: no fix claimed to be checked" 'No fix can be checked: the snapshot holds no node.' out

# the replicas fix names the knob that holds: the HPA's bounds, or the workload's replicas
rag_pod=production/rag-api-7948f7fb7-dc5k8
check "why: the replicas fix with the HPA" 0 "$bin" why -q -S "$ex" "$rag_pod"
contains "why: the lowered request holds every replica of the owner, not this pod alone" "lower the request to memory 3932Mi or less: all 6 replicas of deployment/rag-api fit then; at memory 5966Mi it fits on ip-10-0-1-23.ec2.internal, but only 3 of the 6 do" out
contains "why: lowers the HPA's maxReplicas" "lower HPA rag-api-hpa's maxReplicas from 6 to 2 (it scales deployment/rag-api, now at 6 replicas): the 4 Pending ones do not fit" out
check "why: the replicas fix without an HPA" 0 "$bin" why -q -S "$ex/nodes.json" -S "$ex/pods.json" -S "$ex/workloads.json" "$rag_pod"
contains "why: scales the deployment" "scale deployment/rag-api from 6 to 2 replicas: the 4 Pending ones do not fit" out
check "why: the replicas fix with an HPA whose minimum is too high" 0 "$bin" why -q -S "$ex/nodes.json" -S "$ex/pods.json" -S "$ex/workloads.json" -S "$data/rag-api-hpa-min4.yaml" "$rag_pod"
contains "why: lowers minReplicas too" "lower HPA rag-api-hpa's minReplicas from 4 and maxReplicas from 6 to 2" out
contains "why: the HPA fix's command, its patch shell-quoted" "kubectl patch hpa -n production rag-api-hpa --type=merge -p '{\"spec\":{\"minReplicas\":2,\"maxReplicas\":2}}'" out
contains "why: the lowered request's command, in Mi" "kubectl set resources -n production deployment/rag-api -c rag-api --requests=memory=3932Mi" out
check "why's lowered request: capacity agrees that 6 fit at 3932Mi" 0 "$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --vary memory=3932Mi..3933Mi/1Mi -o json
expect "why's lowered request: the largest whole Mi that holds 6 (one Mi more holds 5)" '[.frontier[].replicas] == [6,5]'

# why lists the nodes closest to fitting first, then by name, and says how many it left out (issue 20)
check "why: the nodes closest to fitting first" 0 "$bin" why -q -S "$data/why-many-nodes.yaml" default/big
expect_line() { sed -n "$1p" "$tmp/out" | grep -qF -- "$2" && ok "$3" || { sed -n "$1p" "$tmp/out" | comment; not_ok "$3"; }; }
expect_line 6 "n-00   Insufficient memory    memory: needs 4Gi, 3996Mi free" "why: n-00, 100Mi short, first"
expect_line 7 "n-07" "why: n-07, 200Mi short, second"
contains "why: the tainted nodes, first by name, are the ones left out" "(4 more nodes, further from fitting, left out: -o wide lists them all)" out
lacks "why: no tainted node among the 30 shown" "a-taint-0" out
check "why -o wide: every node" 0 "$bin" why -q -S "$data/why-many-nodes.yaml" default/big -o wide
contains "why -o wide: the tainted nodes last, by name" "a-taint-3" out
lacks "why -o wide: none left out" "left out" out

# after why --all, one line by cause (issue 20)
check "why --all: the summary by cause" 0 "$bin" why -q -S "$data/why-summary.yaml" --all -A
contains "why --all: 7 Pending in 3 owners by cause" "7 Pending in 3 owners: 4 memory, 2 taint, 1 not modelled." out
check "why --all: one owner" 0 "$bin" why -q -S "$ex" --all -n production
contains "why --all: singular owner" "4 Pending in 1 owner: 4 memory." out
check "why --all: an anti-affinity cause" 0 "$bin" why -q -S "$data/plan/kafka-anti-affinity.yaml" --all -A
contains "why --all: the summary says anti-affinity, not affinity" "1 Pending in 1 owner: 1 pod anti-affinity." out

# scheduling gates: the SchedulingGates PreEnqueue keeps a gated pod out of the queue, so why
# answers with its gates, not with room or a fix; capacity and plan warn (issue 20)
check "why: a gated pod with room" 0 "$bin" why -q -S "$data/why-gated.yaml" shop/gated-0
contains "why gated: names its gate and who removes it" "It is gated: the scheduler does not try to place it while spec.schedulingGates holds any gate, and it holds 1 (example.com/wait).  It waits for whoever added it to remove it, not for room" out
contains "why gated: would fit once ungated" "Once ungated it would fit on 1 node as the cluster is now." out
lacks "why gated: no promise of the next attempt" "next attempt" out
check "why: a gated pod without room" 0 "$bin" why -q -S "$data/why-gated.yaml" shop/gated-big
contains "why gated: both gates named" "it holds 2 (example.com/wait, example.com/quota)" out
contains "why gated: what the scheduler would say once ungated" "Once ungated it would fit on no node as the cluster is now; the scheduler would say: 0/1 nodes are available: 1 Insufficient cpu." out
lacks "why gated: no node to add" "add " out
lacks "why gated: no fix section" "No fix found" out
check "why -o json: a gated pod" 0 "$bin" why -q -S "$data/why-gated.yaml" shop/gated-big -o json
expect "why -o json gated: the gates, not a fix" '.schedulingGates == ["example.com/wait","example.com/quota"] and .gated == true and .fitsOnceUngated == false and (.messageOnceUngated | test("Insufficient cpu")) and (has("fixes") | not)'
check "why -o json: an ungated pod lists no gates" 0 "$bin" why -q -S "$ex" production/rag-api-7948f7fb7-dc5k8 -o json
expect "why -o json ungated: schedulingGates empty, fixes there" '.schedulingGates == [] and (.gated | not) and (.fixes | length) > 0'
check "why --all: gated pods counted as gated" 0 "$bin" why -q -S "$data/why-gated.yaml" --all -A
contains "why --all: the summary says gated" "2 Pending in 2 owners: 2 gated." out
check "capacity --from a gated template" 0 "$bin" capacity -q -S "$data/why-gated.yaml" --from deployment/gated-web -n shop -o json
expect "capacity gated: SchedulingGated warning" '[.warnings[].reason] | index("SchedulingGated") != null'
contains "capacity gated: says the new pods are gated" "deployment/gated-web's pod spec has 1 scheduling gate (example.com/wait): new pods made of it are gated" err
check "plan on a gated template" 0 "$bin" plan -q -S "$data/why-gated.yaml" deployment/gated-web -n shop
contains "plan gated: says the new pods are gated" "Deployment shop/gated-web's pod spec has 1 scheduling gate (example.com/wait): new pods made of it are gated" err

# RuntimeClass overhead: admission adds overhead.podFixed to each new pod; templates get it
# from the snapshot's RuntimeClass, and one the snapshot lacks is warned about (issue 20)
check "capacity: a kata template counts the RuntimeClass overhead" 1 "$bin" capacity -q -S "$data/why-gated.yaml" --from deployment/web -n shop --replicas 3
contains "capacity kata: each replica asks 500m + 500m overhead" "effective request cpu=1" out
contains "capacity kata: one fits, not four" "1 replica fits in all" out
lacks "capacity kata: the RuntimeClass is read, not skipped" "skipped" err
printf '{"kind":"List","items":[{"kind":"ConfigMap","metadata":{"name":"a"}}]}' > "$tmp/one-skipped.json"
printf '{"kind":"List","items":[{"kind":"ConfigMap","metadata":{"name":"a"}},{"kind":"Secret","metadata":{"name":"b"}}]}' > "$tmp/two-skipped.json"
check "the skipped note: one object" 0 "$bin" capacity -S "$data/why-gated.yaml" -S "$tmp/one-skipped.json" --request cpu=1 -n shop
contains "the skipped note is singular" "note: 1 object of a kind fitscale does not read was skipped" err
check "the skipped note: two objects" 0 "$bin" capacity -S "$data/why-gated.yaml" -S "$tmp/two-skipped.json" --request cpu=1 -n shop
contains "the skipped note is plural" "note: 2 objects of kinds fitscale does not read were skipped" err
awk 'BEGIN {print "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: filed, namespace: shop}\nspec:\n  selector: {matchLabels: {app: filed}}\n  template:\n    metadata: {labels: {app: filed}}\n    spec:\n      runtimeClassName: kata\n      containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]"}' > "$tmp/filed.yaml"
check "capacity -f: a file's template meets the cluster's RuntimeClass" 1 "$bin" capacity -q -S "$data/why-gated.yaml" -f "$tmp/filed.yaml" --replicas 2 -o json
expect "capacity -f kata: 1 cpu per replica, 1 fits" '.capacity == 1 and .shape.effectiveRequest.cpu == "1"'
check "capacity: a RuntimeClass the snapshot lacks" 0 "$bin" capacity -q -S "$data/why-gated.yaml" --from deployment/ghost -n shop -o json
expect "capacity ghost: RuntimeClassMissing" '[.warnings[] | select(.reason == "RuntimeClassMissing") | .message] | length == 1'
check "capacity: a RuntimeClass's nodeSelector joins the template's" 0 "$bin" capacity -q -S "$data/why-gated.yaml" --from deployment/sandboxed -n shop -o json
expect "capacity gvisor: no node has sandbox=gvisor" '.capacity == 0 and .nodes[0].reasons == ["node(s) didn'"'"'t match Pod'"'"'s node affinity/selector"]'
check "capacity: a template whose nodeSelector conflicts with its RuntimeClass's" 0 "$bin" capacity -q -S "$data/why-gated.yaml" --from deployment/clash -n shop
contains "capacity clash: admission refuses its pods" "deployment/clash runs in RuntimeClass gvisor and its nodeSelector gives sandbox another value than the RuntimeClass's scheduling.nodeSelector (conflict): RuntimeClass admission refuses its new pods" err

# a Pod written by hand with limits only asks its limits, as the API server would have
# stored it (SetDefaults_Pod), not nothing (issue 20)
check "why: a hand-written pod with a hugepages limit only" 0 "$bin" why -q -S "$data/limits-only.yaml" kube-system/huge-0
contains "why limits-only: short of hugepages" "Insufficient hugepages-2Mi" out
contains "why limits-only: hugepages asked in Gi, not bytes" "it requests cpu 1, memory 1Gi, hugepages-2Mi 2Gi." out
lacks "why limits-only: not said to fit" "It fits on" out

# on Karpenter's nodes, the node-addition advice says what applies there (issue 20)
sed 's#eks.amazonaws.com/nodegroup#karpenter.sh/nodepool#g' "$ex/nodes.json" > "$tmp/karpenter-nodes.json"
check "why: new nodes under Karpenter" 0 "$bin" why -q -S "$tmp/karpenter-nodes.json" -S "$ex/pods.json" -S "$ex/workloads.json" production/rag-api-7948f7fb7-dc5k8
contains "why: Karpenter's NodePool launches them itself" "Karpenter's NodePool rag-ng launches them itself for Pending pods: if it has not, its spec.limits or requirements" out
# GKE Autopilot (tests/fixtures/real/gke-autopilot-node.yaml: node pool nap-1acv0bno of node auto-provisioning)
check "capacity: new nodes on GKE Autopilot" 1 "$bin" capacity -q -S "$fixtures/gke-autopilot-node.yaml" --request cpu=1500m --replicas 3
contains "capacity: auto-provisioning makes the nodes, not a pool resize" "node pool nap-1acv0bno was made by GKE node auto-provisioning (as on Autopilot), which creates nodes and node pools for Pending pods itself: if it has not, its resource limits or the pod's requests (on Autopilot, its per-pod maximums) keep it from them" out
check "why: no Karpenter advice on a node group" 0 "$bin" why -q -S "$ex" production/rag-api-7948f7fb7-dc5k8
lacks "why: node groups get no Karpenter advice" "Karpenter" out

# every fix carries the command that does it, in text and JSON (issue 20)
check "why: fixes a person can paste" 0 "$bin" why -q -S "$data/why-fixes.yaml" shop/api-5d4f-c
contains "why: lower request command" "kubectl set resources -n shop deployment/api -c api --requests=cpu=500m" out
contains "why: scale command" "kubectl scale -n shop deployment/api --replicas=2" out
contains "why: uncordon command" "kubectl uncordon gen-c" out
contains "why: toleration patch" "kubectl patch deployment -n shop api --type=json -p '[{\"op\":\"add\",\"path\":\"/spec/template/spec/tolerations/-\",\"value\":{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"batch\",\"effect\":\"NoSchedule\"}}]'" out
contains "why: label command" "kubectl label node gen-d pool=general --overwrite" out
contains "why: a node shape in quantities" "add 1 node of shape cpu=1,memory=8Gi,pods=110" out
lacks "why: no memory in bytes" "8589934592" out
check "why -o json: fixes carry their command" 0 "$bin" why -q -S "$data/why-fixes.yaml" shop/api-5d4f-c -o json
expect "why -o json: a command per fix (null for new nodes)" '[.fixes[] | [.type, (.command | if . == null then null else .[0:24] end)]] == [["LowerRequest","kubectl set resources -n"],["AddNodes",null],["LowerReplicas","kubectl scale -n shop de"],["Uncordon","kubectl uncordon gen-c"],["TolerateTaint","kubectl patch deployment"],["RelaxNodeAffinity","kubectl label node gen-d"]]'
expect "why -o json: the toleration patch is JSON" '.fixes[] | select(.type == "TolerateTaint") | .command | split(" -p ")[1] | .[1:-1] | fromjson | .[0].value == {"key":"dedicated","operator":"Equal","value":"batch","effect":"NoSchedule"}'

# HPAs the API server refuses are refused, naming the field (issue 17)
check "hpa: minReplicas above maxReplicas" 2 "$bin" hpa -q -S "$data/hpa-invalid.yaml" default/min-above-max
contains "hpa: names maxReplicas" 'field spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas` (8)' err
check "hpa: a negative tolerance" 2 "$bin" hpa -q -S "$data/hpa-invalid.yaml" default/negative-tolerance
contains "hpa: names the tolerance" 'tolerance: Invalid value: "-0.05": must be greater than or equal to 0' err
check "hpa: minReplicas 0 with only a Resource metric" 2 "$bin" hpa -q -S "$data/hpa-invalid.yaml" default/zero-min
contains "hpa: names minReplicas" 'field spec.minReplicas: Invalid value: 0: must be greater than or equal to 1' err

# resource amounts at the int64 edges saturate (the sanitizer build runs this too; issue 17)
for huge in 99999999999999999999Ei 9223372036854775807 100Pi; do
  check "plan: a VPA target of memory $huge (infeasible: exit 1)" 1 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target "rag-api:cpu=1,memory=$huge" --vpa-weight 1 -o json
  expect "plan ($huge): the VPA's maxAllowed caps it, never a wrapped negative" '.plan.containers[0].requests.memory == "8Gi" and ([.. | strings | select(test("^-[0-9]"))] | length == 0)'
done
# ---- volumes: the volume plugins (model/volumes.c) on tests/data/volumes.yaml ----
vol="$data/volumes.yaml"
check "volumes: why, an unbound immediate claim" 0 "$bin" why -q -S "$vol" wants-pending
contains "volumes: the scheduler's PreFilter message" 'fitscale: 0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.' out
lacks "volumes: no promise for an unbound claim" 'will place it' out
check "volumes: why -o json, the recorded verdict" 0 "$bin" why -q -S "$vol" wants-pending -o json
expect "volumes: the same message as the scheduler's, byte for byte" '.agrees == true and .message == .recordedMessage and .unmodelledReasons == []'
check "volumes: why -o json, a claim that does not exist" 0 "$bin" why -q -S "$vol" wants-missing -o json
expect "volumes: persistentvolumeclaim not found" '.message == "0/3 nodes are available: persistentvolumeclaim \"nowhere\" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling." and .fits == false and .unmodelledReasons == []'
check "volumes: a local volume on node-a, room there" 0 "$bin" why -q -S "$vol" wants-cache -o json
expect "volumes: fits on node-a only" '.fits == true and ([.nodes[] | select(.fits) | .name] == ["node-a"]) and ([.nodes[] | select(.name != "node-a") | .reasons[0]] | unique == ["node(s) didn\u0027t satisfy plugin(s) [VolumeBinding]"])'
check "volumes: a local volume on node-a, no room there" 0 "$bin" why -q -S "$vol" wants-cache-big
contains "volumes: the other nodes are not eligible" '0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn'"'"'t satisfy plugin(s) [VolumeBinding].' out
lacks "volumes: no promise without room by the volume" 'will place it' out
check "volumes: the CSINode limit is reached" 0 "$bin" why -q -S "$vol" wants-archive -o json
expect "volumes: node(s) exceed max volume count" '.fits == false and (.nodes[] | select(.name == "node-a") | .reasons) == ["node(s) exceed max volume count"]'
expect "volumes: a hostname selector is relaxed on the pod, never by relabelling another node with its hostname" '(.fixes[] | select(.type == "RelaxNodeAffinity") | .command == null and (.text | test("change the pod.s selector, not the nodes. labels")))'
check "volumes: a WaitForFirstConsumer claim, allowedTopologies and the CSI limit" 0 "$bin" why -q -S "$vol" wants-scratch -o json
expect "volumes: only node-b takes it" '([.nodes[] | select(.fits) | .name] == ["node-b"]) and ((.nodes[] | select(.name == "node-c") | .reasons) == ["node(s) didn'"'"'t find available persistent volumes to bind"])'
check "volumes: pinned to node-a by its local volume" 0 "$bin" why -q -S "$vol" wants-cache-3800
contains "volumes: the request is the fix" 'lower the request to cpu 3500m or less: it fits on node-a' out
lacks "volumes: a new node is no fix for a volume pinned to node-a" 'add 1 node' out
check "volumes: a claim the snapshot does not hold" 0 "$bin" why -S "$data/volumes-no-claims.yaml" db
contains "volumes: warns that the claims are missing" 'warning: 1 Pending pod uses PersistentVolumeClaims (default/db) and the snapshot holds none' err
lacks "volumes: no promise without the claims" 'will place it' out
contains "volumes: says the volume filters were not run" 'by every filter but the volume ones' out
check "volumes: capacity table, no node to use" 0 "$bin" capacity -q -S "$vol" --from pod/wants-pending
contains "volumes: limited by volumes" '0 replicas fit in all (limited by volumes).' out
contains "volumes: no free room weighed" 'No node this shape may use: each rejects it by a filter other than NodeResourcesFit' out
lacks "volumes: not 'not enough in total'" 'not enough in total' out
check "volumes: capacity for the pod with an unbound claim" 0 "$bin" capacity -q -S "$vol" --from pod/wants-pending -o json
expect "volumes: capacity 0, limited by volumes" '.capacity == 0 and .limitedBy == "volumes" and ([.nodes[].reasons[0]] | unique == ["pod has unbound immediate PersistentVolumeClaims"])'
# ---- preemption: what the scheduler does by itself, with PodDisruptionBudgets (tests/data/preemption) ----
pre="$data/preemption"
check "why: a pod the scheduler makes room for by preempting" 0 "$bin" why -q -S "$pre" shop/checkout-5c8b-x
contains "why: the victims, on the node chosen" 'The scheduler will preempt 2 pods on node node-1: shop/postgres-0 (priority 0, beyond what PodDisruptionBudget postgres allows), shop/worker-7d9f-a (priority 0), violating 1 PodDisruptionBudget (shop/postgres).' out
contains "why: the message has no preemption part when it succeeds" 'fitscale: 0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.' out
contains "why: preemption is no fix" 'Fixes that place it without preempting' out
contains "why: preemption does not wait for the budget" 'Preemption does not wait for PodDisruptionBudgets: it prefers nodes where fewer victims break one, and every node where it would make room has such a victim.' out
contains "why: the nominated node" 'It nominates node-1 for the pod (status.nominatedNodeName) and schedules it once the victims have terminated' out
lacks "why: preemption is not listed as a fix" 'preemption can make room' out
check "why -o json: the preemption object" 0 "$bin" why -q -S "$pre" shop/checkout-5c8b-x -o json
expect "why -o json: node, victims, PDB violations" '.preemption.node == "node-1" and .preemption.numPDBViolations == 1 and ([.preemption.victims[] | [.namespace, .name, .priority, .pdbViolation]] == [["shop","postgres-0",0,true],["shop","worker-7d9f-a",0,false]])'
expect "why -o json: no Preemption fix" '[.fixes[] | select(.type == "Preemption")] == []'
expect "why -o json: the PodDisruptionBudgets were read" '.preemption.victims[0].podDisruptionBudget == "postgres"'
# the scheduler has already preempted: the pod is nominated, its victims are terminating
jq '(.items[] | select(.metadata.name == "checkout-5c8b-x") | .status) += {nominatedNodeName: "node-1"}
    | (.items[] | select(.metadata.name == "postgres-0" or .metadata.name == "worker-7d9f-a"))
      |= (.metadata.deletionTimestamp = "2026-12-01T10:00:00Z"
          | .status.conditions += [{type: "DisruptionTarget", status: "True", reason: "PreemptionByScheduler"}])' \
  "$pre/cluster.json" >"$tmp/preempted.json"
check "why: victims terminating on the nominated node" 0 "$bin" why -q -S "$tmp/preempted.json" shop/checkout-5c8b-x
contains "why: waits for them, as PodEligibleToPreemptOthers says" 'preemption: not eligible due to a terminating pod on the nominated node.' out
contains "why: says what it waits for" 'It is nominated to node node-1, where lower-priority pods preemption evicted are still terminating' out
lacks "why: no new preemption" 'The scheduler will preempt' out
# preemptionPolicy: Never
jq '(.items[] | select(.metadata.name == "checkout-5c8b-x") | .spec.preemptionPolicy) = "Never"' "$pre/cluster.json" >"$tmp/never.json"
check "why: a pod that never preempts" 0 "$bin" why -q -S "$tmp/never.json" shop/checkout-5c8b-x -o json
expect "why: preemptionPolicy=Never in the message, no preemption" '(.message | endswith("preemption: not eligible due to preemptionPolicy=Never.")) and .preemption == null'
# without the budgets, the younger worker pod is the second victim: no violation counted
jq 'del(.items[] | select(.kind == "PodDisruptionBudget"))' "$pre/cluster.json" >"$tmp/no-pdb.json"
check "why: the same cluster without its PodDisruptionBudgets" 0 "$bin" why -q -S "$tmp/no-pdb.json" shop/checkout-5c8b-x -o json
expect "why: no PDB, no violation; the victims as SelectVictimsOnNode reprieves them" '.preemption.numPDBViolations == 0 and ([.preemption.victims[].name] == ["postgres-0","worker-7d9f-b"])'
check "why: the same, as text" 0 "$bin" why -q -S "$tmp/no-pdb.json" shop/checkout-5c8b-x
contains "why: the victims without budgets" 'The scheduler will preempt 2 pods on node node-1: shop/postgres-0 (priority 0), shop/worker-7d9f-b (priority 0).' out
lacks "why: no budget, no word of one" 'PodDisruptionBudget' out
# 120 nodes a low-priority pod each fills: the scheduler stops its dry run at 100 candidates
jq -n '{kind: "List", apiVersion: "v1", items: ([range(120) | "n\(1000 + .)" as $n
  | {kind: "Node", metadata: {name: $n}, status: {allocatable: {cpu: "2", memory: "4Gi", pods: "110"}}},
    {kind: "Pod", metadata: {name: "batch-\($n)", namespace: "jobs"}, spec: {nodeName: $n, priority: -1,
     containers: [{name: "c", resources: {requests: {cpu: "2"}}}]}, status: {phase: "Running"}}]
  + [{kind: "Pod", metadata: {name: "api", namespace: "jobs"}, spec: {priority: 1000,
      containers: [{name: "c", resources: {requests: {cpu: "1"}}}]}, status: {phase: "Pending"}}])}' >"$tmp/many.json"
check "why: more candidate nodes than the scheduler's dry run takes" 0 "$bin" why -q -S "$tmp/many.json" jobs/api
contains "why: says the scheduler may pick another node" "(The scheduler's dry run stops at the first 100 of these 120 candidate nodes, from a random one, so it may pick another node.)" out
contains "why: the first node by name, one victim" 'The scheduler will preempt 1 pod on node n1000: jobs/batch-n1000 (priority -1).' out
# ---- bound pods and dynamic resource allocation (issue 16, bullets 4 and 1) ----
bound="$data/why-bound.yaml"
check "why bound: image pull failing" 0 "$bin" why -q -S "$bound" shop/web-0
lacks "why bound: a complete snapshot, no warning" 'warning' err
contains "why bound: the sentence first" 'Pod shop/web-0 is bound to node a by the scheduler at 2026-12-01T10:00:00Z; it waits for its kubelet: image pull failing for container web (ImagePullBackOff: Back-off pulling image "registry.example/web:nope").' out
expect_first() { [ "$(head -1 "$tmp/out")" = "$2" ] && ok "$1" || not_ok "$1"; }
expect_first "why bound: no line before it" 'Pod shop/web-0 is bound to node a by the scheduler at 2026-12-01T10:00:00Z; it waits for its kubelet: image pull failing for container web (ImagePullBackOff: Back-off pulling image "registry.example/web:nope").'
contains "why bound: the node is Ready" 'Node a is in the snapshot and Ready.' out
lacks "why bound: no scheduling answer" 'nodes are available' out
lacks "why bound: no fixes" 'Fixes' out
check "why bound -o json" 0 "$bin" why -q -S "$bound" shop/web-0 -o json
expect "why bound -o json: the bound object" '.bound == {"node":"a","nodeInSnapshot":true,"nodeReady":true,"scheduledAt":"2026-12-01T10:00:00Z","waitingFor":"ImagePull","reason":"ImagePullBackOff","message":"Back-off pulling image \"registry.example/web:nope\"","container":"web","initContainer":false}'
expect "why bound -o json: no scheduling fields" 'has("fits") == false and has("nodes") == false and has("fixes") == false'
check "why bound: rejected at admission (OutOfcpu)" 0 "$bin" why -q -S "$bound" shop/batch-0
contains "why bound: OutOfcpu" "its kubelet rejected it at admission (OutOfcpu: Pod was rejected: Node didn't have enough resource: cpu" out
contains "why bound: a rejected pod is not retried" 'it is not retried' out
check "why bound -o json: OutOfcpu" 0 "$bin" why -q -S "$bound" shop/batch-0 -o json
expect "why bound -o json: AdmissionRejected" '.bound.waitingFor == "AdmissionRejected" and .bound.reason == "OutOfcpu" and .phase == "Failed"'
check "why bound: a node not in the snapshot" 0 "$bin" why -S "$data/why-bound-lost.yaml" shop/lost-0
contains "why bound: names the missing node" 'Node gone is not in the snapshot' out
contains "why bound: the snapshot warning names it too" 'the snapshot does not hold (gone)' err
check "why bound -o json: node not in the snapshot" 0 "$bin" why -q -S "$data/why-bound-lost.yaml" shop/lost-0 -o json
expect "why bound -o json: nodeInSnapshot false, nodeReady null" '.bound.nodeInSnapshot == false and .bound.nodeReady == null and .bound.waitingFor == "NodeNotInSnapshot"'
check "why bound: a NotReady node" 0 "$bin" why -q -S "$bound" shop/stuck-0 -o json
expect "why bound: NodeNotReady" '.bound.nodeReady == false and .bound.waitingFor == "NodeNotReady"'
check "why bound: a volume that does not mount" 0 "$bin" why -q -S "$bound" shop/db-0
contains "why bound: the FailedMount event" 'volumes to attach or mount (FailedMount: MountVolume.SetUp failed for volume "pvc-1234"' out
check "why bound: an init container running" 0 "$bin" why -q -S "$bound" shop/migrate-0 -o json
expect "why bound: InitContainer migrate" '.bound.waitingFor == "InitContainer" and .bound.container == "migrate" and .bound.initContainer == true'
check "why bound: an init container running, in words" 0 "$bin" why -q -S "$bound" shop/migrate-0
contains "why bound: names the init container" 'it waits for its kubelet: init container migrate to finish (init containers run one by one).' out
check "why bound: kind's coredns, Pending and bound, its container running" 0 "$bin" why -q -S "$fixtures/kind-3node-nodes.json" -S "$fixtures/kind-pods-kube-system-pending-taint.json" kube-system/coredns-74ff55c5b-cpfqs
contains "why bound: coredns waits for its kubelet's report" 'is bound to node kind-control-plane; it waits for its kubelet to report it Running: 1 container already runs.' out
contains "why bound: coredns's stale scheduler message shown" 'still holds what the scheduler wrote before it bound the pod: 0/1 nodes are available' out
lacks "why bound: coredns, no placement promised" 'will place it' out
check "why bound: a Running pod of eks's list, its node not in the snapshot" 0 "$bin" why -S "$fixtures/eks-arm64-podlist.json" metallb-system/speaker-cpxhz -o json
expect "why bound: Running, waits for nothing, node not in the snapshot" '.bound.waitingFor == "Nothing" and .bound.nodeInSnapshot == false and .bound.node == "duckboat-01"'
contains "why bound: the snapshot warning names duckboat-01" 'the snapshot does not hold (duckboat-01)' err
check "why: a Running pod in words" 0 "$bin" why -q -S "$ex" production/airflow-6c6d6465cc-5zb7h
contains "why: a Running pod claims no health it did not read" 'and Running: nothing is Pending (fitscale reads no container states of a Running pod' out
lacks "why: no 'waits for nothing'" 'waits for nothing' out
check "why --all: the bound Pending pods named, not diagnosed" 0 "$bin" why -q -S "$fixtures/kind-3node-nodes.json" -S "$fixtures/kind-pods-kube-system-pending-taint.json" --all -A
contains "why --all: 2 bound Pending pods" '2 Pending pods are bound to a node already: they wait for their kubelet, not for the scheduler (fitscale why kube-system/coredns-74ff55c5b-cpfqs says what for).' out
contains "why --all: a differing verdict, the one-namespace List its cause" "fitscale's verdict differs: a node not Ready has no taint for it yet in the snapshot (the warning above); the snapshot lacks part of the cluster (the warnings above); or the cluster changed since the message was recorded." out
# the same pods as objects, not a List of one namespace: no snapshot cause is known
check "why --all: the pods as a stream of objects" 0 sh -c "jq -c '.items[]' '$fixtures/kind-pods-kube-system-pending-taint.json' >'$tmp/kind-pods-stream.json' && '$bin' why -q -S '$fixtures/kind-3node-nodes.json' -S '$tmp/kind-pods-stream.json' --all -A"
contains "why --all: a differing verdict, the untainted NotReady node its named cause" "fitscale's verdict differs: a node not Ready has no taint for it yet in the snapshot (the warning above); or the cluster changed since the message was recorded." out
contains "why --all: the NotReady node without its taint is named first" "fitscale why: warning: 1 node is not Ready but without the node.kubernetes.io/not-ready or unreachable taint (kind-worker)" err
contains "why --all: a verdict that differs for no modelling gap is not called 'not modelled'" "2 Pending in 1 owner: 2 verdict differs." out
dra="$data/dra.yaml"
check "why DRA: a pod with a resource claim" 0 "$bin" why -S "$dra" ml/infer-0
contains "why DRA: the UnmodelledFilter warning first" 'fitscale why: warning: pod ml/infer-0 has 1 resource claim (dynamic resource allocation) in its pod spec: fitscale does not model the DynamicResources filter' err
lacks "why DRA: no promise of a placement" 'will place it' out
contains "why DRA: says the filter decides" 'the DynamicResources filter, which fitscale does not model, decides' out
check "why DRA -o json" 0 "$bin" why -q -S "$dra" ml/infer-0 -o json
expect "why DRA -o json: unmodelledFilters" '.unmodelledFilters == ["DynamicResources"]'
check "why DRA: the scheduler's DynamicResources verdict" 0 "$bin" why -q -S "$dra" ml/infer-1
contains "why DRA: the recorded verdict first" 'The scheduler recorded: 0/1 nodes are available: 1 cannot allocate all claims.' out
contains "why DRA: names the filter as a cause" 'the pod needs the DynamicResources filter, which fitscale does not model' out
lacks "why DRA: no promise of a placement when recorded unschedulable" 'will place it' out
check "why DRA: no warning for a pod without claims" 0 "$bin" why -S "$dra" kube-system/kube-proxy-gpu-1
lacks "why DRA: no UnmodelledFilter warning" 'DynamicResources' err
check "capacity DRA: the warning on stderr" 0 "$bin" capacity -q -S "$dra" --from deployment/infer -n ml
contains "capacity DRA: names the filter and the workload" 'fitscale capacity: warning: deployment/infer has 1 resource claim (dynamic resource allocation) in its pod spec: fitscale does not model the DynamicResources filter' err
check "plan DRA: the warning on stderr" 0 "$bin" plan -q -S "$dra" deployment/infer -n ml
contains "plan DRA: names the filter and the workload" 'fitscale plan: warning: Deployment ml/infer has 1 resource claim (dynamic resource allocation) in its pod spec: fitscale does not model the DynamicResources filter' err
# ---- snapshot completeness (issue 16, bullet 3): the warnings array, first in every answer ----
comp="$data/completeness.yaml"
first_key() {  # NAME: the answer in $tmp/out is a JSON document whose first key is "warnings"
  if [ "$(jq -r 'keys_unsorted[0]' "$tmp/out" 2>/dev/null)" = warnings ] && jq -e '.warnings | type == "array"' "$tmp/out" >/dev/null; then ok "$1"; else not_ok "$1"; fi
}
check "warnings first: why" 0 "$bin" why -q -S "$ex" production/rag-api-7948f7fb7-dc5k8 -o json; first_key "why -o json starts with warnings"
check "warnings first: why --all" 0 "$bin" why -q -S "$ex" --all -A -o json; first_key "why --all -o json starts with warnings"
expect "why --all: the answers under items" '.warnings == [] and (.items | length) == 1'
check "warnings first: capacity" 0 "$bin" capacity -q -S "$ex" --request cpu=1,memory=1Gi -o json; first_key "capacity -o json starts with warnings"
check "warnings first: capacity --vary" 0 "$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --vary memory=1Gi..4Gi -o json; first_key "capacity --vary -o json starts with warnings"
check "warnings first: plan" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production -o json; first_key "plan -o json starts with warnings"
check "warnings first: hpa" 0 "$bin" hpa -q -S "$ex" production/rag-api-hpa --now 2026-10-09T14:00:00Z -o json; first_key "hpa -o json starts with warnings"
check "warnings first: hvpa" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --now 2026-12-02T12:00:00Z -o json; first_key "hvpa -o json starts with warnings"
check "warnings first: nodes" 0 "$bin" nodes -q -S "$ex" -o json; first_key "nodes -o json starts with warnings"
check "warnings first: simulate" 0 "$bin" simulate --no-cluster --hpa "$ex/hpa.json" --trace "$data/trace-spike.csv" --replicas 2 --duration 60s -o json; first_key "simulate -o json starts with warnings"
check "warnings first: simulate on a cluster" 0 "$bin" simulate -q --hpa "$ex/hpa.json" -S "$ex" --trace "$data/trace-spike.csv" --replicas 2 --startup 30s --duration 60s -o json; first_key "simulate -S -o json starts with warnings"
expect "the complete example: no warning" '.warnings == []'
check "warnings first: -o yaml" 0 "$bin" nodes -q -S "$ex" -o yaml
contains "yaml: warnings first" "warnings: []" out
check "quantity reads no cluster: no warnings" 0 "$bin" quantity -o json 1Gi
expect "quantity: a list, as before" 'type == "array"'

# each warning, on a snapshot written for it or on the real fixtures
check "NoNodes, PodsOnMissingNodes (eks pod list)" 0 "$bin" nodes -q -S "$fixtures/eks-arm64-podlist.json" -o json
expect "NoNodes, PodsOnMissingNodes: reasons" '[.warnings[].reason] == ["NoNodes","PodsOnMissingNodes"]'
expect "PodsOnMissingNodes: names the node" '.warnings[1].message | test("bound to 1 node the snapshot does not hold \\(duckboat-01\\)")'
check "NoPods (k3s nodes alone)" 0 "$bin" capacity -q -S "$fixtures/k3s-1node-nodes.json" --request cpu=100m -o json
expect "NoPods: reason" '[.warnings[].reason] == ["NoPods"]'
check "NamespacesMissing (k3s default pods)" 0 "$bin" why -q -S "$fixtures/k3s-1node-nodes.json" -S "$fixtures/k3s-1node-pods-default-pending.json" --all -A -o json
expect "NamespacesMissing: reason, namespace named" '[.warnings[].reason] == ["NamespacesMissing"] and (.warnings[0].message | test("1 namespace \\(default\\)"))'
check "NamespacedList (k3s, namespace by namespace)" 0 "$bin" nodes -q -S "$fixtures/k3s-1node-nodes.json" -S "$fixtures/k3s-1node-pods-default-pending.json" -S "$fixtures/k3s-1node-pods-kube-system.json" -o json
expect "NamespacedList: both namespaces named" '[.warnings[].reason] == ["NamespacedList"] and (.warnings[0].message | test("default \\(.*k3s-1node-pods-default-pending.json, by its items\\), kube-system"))'
printf '{"kind":"PodList","apiVersion":"v1","metadata":{"selfLink":"/api/v1/namespaces/shop/pods","resourceVersion":"7"},"items":[]}\n' >"$tmp/shop-pods.json"
check "NamespacedList by selfLink" 0 "$bin" nodes -q -S "$comp" -S "$tmp/shop-pods.json" -o json
expect "NamespacedList by selfLink: names shop" '[.warnings[] | select(.reason == "NamespacedList") | .message | test("shop \\(.*shop-pods.json, by its selfLink\\)")] == [true]'
check "DaemonPodsMissing, WorkloadPodsMissing (hand-written)" 0 "$bin" nodes -S "$comp" -o json
expect "DaemonPodsMissing: node-agent lacks n3 only" '[.warnings[].reason] == ["DaemonPodsMissing","WorkloadPodsMissing"] and (.warnings[0].message | test("DaemonSet kube-system/node-agent has no pod on 1 node where it should run \\(n3\\)"))'
expect "WorkloadPodsMissing: names the ReplicaSet" '.warnings[1].message | test("ReplicaSet web/web-5d4f has 1 of 3")'
contains "stderr: the same warnings, once" "fitscale nodes: warning: DaemonSet kube-system/node-agent" err
if [ "$(grep -c 'warning: DaemonSet' "$tmp/err")" = 1 ]; then ok "stderr: printed once"; else not_ok "stderr: printed once"; fi
check "DaemonPodsMissing on kind: one node's pods" 0 sh -c "jq '.items |= map(select(.spec.nodeName == \"kind-worker\"))' '$fixtures/kind-pods-kube-system-pending-taint.json' >'$tmp/kind-one-node.json' && '$bin' nodes -q -S '$fixtures/kind-3node-nodes.json' -S '$tmp/kind-one-node.json' -o json"
expect "kind: kube-proxy and kindnet lack the two other nodes" '[.warnings[] | select(.reason == "DaemonPodsMissing") | .message] | length == 2 and all(test("on 2 nodes where it should run \\(kind-"))'
check "TargetMissing, MetricsMissing (the failed HPA)" 0 "$bin" hpa -q -S "$fixtures/hpa-v2-failed-metrics-kubectl-ai-pr584.yaml" hpa-test/web-app -o json
expect "hpa: TargetMissing then MetricsMissing" '[.warnings[].reason] == ["TargetMissing","MetricsMissing"] and (.warnings[0].message | test("scales Deployment web-app"))'
contains "hpa: on stderr too, even with -q" "fitscale hpa: warning: metric cpu of HorizontalPodAutoscaler hpa-test/web-app has no value" err
check "MetricsMissing: read from status (v2beta2)" 0 "$bin" hpa -q -S "$fixtures/hpa-v2beta2-healthy-rollout-target.yaml" credential-hpa -o json
expect "hpa: a Rollout target, the metric from status" '[.warnings[].reason] == ["TargetMissing","MetricsMissing"] and (.warnings[1].message | test("read from the HPA.s status"))'
check "TargetMissing: simulate on a cluster without the target" 0 "$bin" simulate -q --hpa "$ex/hpa.json" -S "$comp" --trace "$data/trace-spike.csv" --duration 60s -o json
expect "simulate: TargetMissing" '[.warnings[].reason] | index("TargetMissing") != null'
sed -n '1,/^---/p' "$data/hvpa-design/cluster.yaml" | sed '$d' >"$tmp/hvpa-target.yaml"
check "AutoscalerMissing: the Hvpa without its HPA and VPA" 0 "$bin" hvpa -q -S "$data/hvpa-design/hvpa.yaml" -S "$tmp/hvpa-target.yaml" default/hvpa-sample --now 2026-12-02T12:00:00Z -o json
expect "hvpa: AutoscalerMissing" '[.warnings[].reason] == ["AutoscalerMissing"] and (.warnings[0].message | test("neither the HorizontalPodAutoscaler nor the VerticalPodAutoscaler"))'
check "AutoscalerMissing: plan hvpa/NAME without its HPA and VPA" 0 "$bin" plan -q -S "$data/hvpa-design/hvpa.yaml" -S "$tmp/hvpa-target.yaml" -S "$data/plan/tight-nodes.yaml" hvpa/hvpa-sample --now 2026-12-02T12:00:00Z -o json
expect "plan: AutoscalerMissing" '[.warnings[].reason] | index("AutoscalerMissing") != null'
check "UnmodelledFilter in the answer: capacity -o json (resource claims)" 0 "$bin" capacity -q -S "$data/dra.yaml" --from deployment/infer -n ml -o json
expect "capacity: UnmodelledFilter among the warnings" '[.warnings[].reason] == ["UnmodelledFilter"]'
check "UnmodelledFilter in the answer: plan -o json" 0 "$bin" plan -q -S "$data/dra.yaml" deployment/infer -n ml -o json
expect "plan: UnmodelledFilter among the warnings" '[.warnings[].reason] == ["UnmodelledFilter"]'
check "UnmodelledFilter in the answer: why --all -o json" 0 "$bin" why -q -S "$data/dra.yaml" --all -A -o json
expect "why --all: UnmodelledFilter in the document's warnings" '[.warnings[].reason] | index("UnmodelledFilter") != null'
check "warnings in the table output: on stderr" 0 "$bin" capacity -S "$fixtures/k3s-1node-nodes.json" --request cpu=100m
contains "table: NoPods on stderr" "fitscale capacity: warning: the snapshot holds nodes but no pods" err
lacks "table: not in stdout" "warning" out

# ---- node additions that satisfy the pod's spread, affinity and taints (issue 16, h5) ----
# tests/data/zone-spread.yaml: web spreads over 3 zones with maxSkew 1; only a new node in the
# zone with the fewest web pods (eu-west-1c) lets the Pending one land; the GPU pool's taint
# is not tolerated.
zones="$data/zone-spread.yaml"
check "why: the zone-spread Pending pod" 0 "$bin" why -q -S "$zones" shop/web-7c9f8d6b5-p9
contains "why: the scheduler's message agrees" "(the same as the scheduler's own message)" out
contains "why: the new node goes to the zone with the fewest pods" "add 1 node of shape m5.large in zone eu-west-1c (pool web-ng) for the 1 Pending pod of this owner, 1 replica per node; uneven across zones" out
contains "why: a fix's command names the Deployment of a ReplicaSet the snapshot lacks" "kubectl set resources -n shop deployment/web -c web --requests=cpu=5m" out
lacks "why: no zone-less addition" "add 1 node of shape m5.large for" out
lacks "why: no GPU node for a web pod" "g4dn.xlarge" out
check "why -o json: the zone-spread pod" 0 "$bin" why -q -S "$zones" shop/web-7c9f8d6b5-p9 -o json
expect "why -o json: AddNodes with its zone and pool" '[.fixes[] | select(.type == "AddNodes") | .additions[] | {shape, zone, pool, count, replicasPerNode}] == [{"shape":"m5.large","zone":"eu-west-1c","pool":"web-ng","count":1,"replicasPerNode":1}]'
check "capacity: web's 12 replicas over the zones (exit 1)" 1 "$bin" capacity -q -S "$zones" --from deployment/web -n shop --replicas 12 -o json
expect "capacity: 8 fit by maxSkew, placed 3/3/2 per zone" '.capacity == 8 and .limitedBy == "topology spread" and [.nodes[] | .placed] == [3,0,3,2]'
expect "capacity: 1 new node in eu-west-1c taking 2 (maxSkew), not the 7 its cpu allows" '[.nodesNeeded[] | select(.shape == "m5.large") | {replicasPerNode, nodes, uneven, additions: [.additions[] | {zone, pool, count, replicasPerNode}]}] == [{"replicasPerNode":7,"nodes":1,"uneven":true,"additions":[{"zone":"eu-west-1c","pool":"web-ng","count":1,"replicasPerNode":2}]}]'
expect "capacity: the tainted GPU pool cannot take one" '[.nodesNeeded[] | select(.shape == "g4dn.xlarge") | [.nodes, .replicasPerNode, (.additions | length)]] == [[null,0,0]]'
check "capacity table: web's 12 replicas (exit 1)" 1 "$bin" capacity -q -S "$zones" --from deployment/web -n shop --replicas 12
contains "capacity table: the addition with its zone and maxSkew's replicas" "  1 node of shape m5.large in zone eu-west-1c (pool web-ng), 2 replicas per node; uneven across zones" out
contains "capacity table: the GPU pool's taint" "  g4dn.xlarge: a new node cannot hold one (node(s) had untolerated taint {nvidia.com/gpu: true})" out
# a cluster that starts skewed (issue 20): n1's web pod makes it reject the first replica, but
# once zone b holds one the minimum moves and n1 takes replicas again: 39 + 40, not 40
skewed="$data/zone-spread-skewed.yaml"
check "capacity: a skewed start, 79 replicas (all fit)" 0 "$bin" capacity -q -S "$skewed" -f "$data/zone-spread-skewed-shape.yaml" --replicas 79 -o json
expect "capacity: 79 by cpu, 39 on the node skewed at first, 40 on the other" '.capacity == 79 and .limitedBy == "resources" and .pending == 0 and [.nodes[] | [.fits, .placed]] == [[39,39],[40,40]]'
check "capacity table: a skewed start" 0 "$bin" capacity -q -S "$skewed" -f "$data/zone-spread-skewed-shape.yaml" --replicas 79
contains "capacity table: n1 takes 39, held by cpu" "n1     39     39       Insufficient cpu" out
contains "capacity table: 79 in all" "79 replicas fit in all (limited by resources)." out
lacks "capacity table: no new nodes for replicas that fit" "New nodes" out
# minDomains above the zones there are (issue 20): the minimum stays 0, one replica a zone
few="$data/zone-spread-min-domains.yaml"
check "capacity: minDomains 3 over 2 zones" 0 "$bin" capacity -q -S "$few" --from deployment/web -o json
expect "capacity: 2 fit, one a node, held by topology spread" '.capacity == 2 and .limitedBy == "topology spread" and [.nodes[] | .fits] == [1,1]'
check "capacity table: minDomains 3 over 2 zones" 0 "$bin" capacity -q -S "$few" --from deployment/web
contains "capacity table: n1 held by the spread, not cpu" "n1     1      node(s) didn't match pod topology spread constraints" out
lacks "capacity table: no Insufficient cpu beside 3.9 cpu free" "Insufficient cpu" out
check "plan: minDomains 3 over 2 zones (exit 1)" 1 "$bin" plan -q -S "$few" deployment/web
contains "plan: the Pending message names topology spread" "The target point leaves 4 replicas Pending: 0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints." out
lacks "plan: not Insufficient cpu" "Insufficient cpu" out

# ---- every sentence true: hvpa, plan and capacity (issue 16, bullet 7) ----
# each block names the template it pins, on a scenario where it is printed
kafka="$data/plan/kafka-anti-affinity.yaml" gpu="$data/plan/gpu-nowhere.yaml"
# capacity "WHY NOT MORE": a node that takes one replica is held by the replicas' anti-affinity, not resources
check "sentences: capacity --from statefulset/kafka" 0 "$bin" capacity -q -S "$kafka" --from statefulset/kafka -n data
contains "capacity WHY NOT MORE: anti-affinity on a node with 8 cpu free" "a      1      node(s) didn't match pod anti-affinity rules" out
lacks "capacity WHY NOT MORE: no Insufficient cpu" "Insufficient" out
# capacity "N replica(s) fit(s) in all (limited by X)"
contains "capacity total: 2 fit, limited by anti-affinity" "2 replicas fit in all (limited by pod anti-affinity)." out
# capacity "The workload's N existing pod(s) on nodes is/are not counted"
contains "capacity: the replaced pods" "The workload's 2 existing pods on nodes are not counted: the replicas replace them." out
# capacity "Free on the N node(s) this shape may use": not the node its taint keeps it from
contains "capacity free: the tainted node is not one the shape may use" "Free on the 2 nodes this shape may use:" out
# capacity "X in total": an overcommitted node has nothing free and takes nothing from the others
check "sentences: capacity on an overcommitted node" 0 "$bin" capacity -q -S "$data/overcommitted.yaml" --request cpu=1500m,memory=1Gi
contains "capacity in total: 2 cpu on b and c, a's -1 not summed" "cpu     2 in total, 1 at most on one node; one replica asks 1500m  <- room in total, not in one piece" out
check "sentences: capacity -o json on an overcommitted node" 0 "$bin" capacity -q -S "$data/overcommitted.yaml" --request cpu=1500m,memory=1Gi -o json
expect "capacity freeTotal: no negative free summed" '.fragmentation.freeTotal.cpu == "2" and .fragmentation.largestFree.cpu == "1"'
# capacity free lines: every requested resource, GPUs and ephemeral-storage too (bullet 5)
check "sentences: capacity --from a 5-GPU workload" 1 "$bin" capacity -q -S "$gpu" --from deployment/train -n ml --replicas 2
contains "capacity free: the GPU line, not enough in total" "nvidia.com/gpu 1 in total, 1 at most on one node; one replica asks 5  <- not enough in total" out
lacks "capacity free: no room in total for GPUs that do not exist" "room in total, not in one piece" out
contains "capacity Shape: the GPU in the effective request" "effective request cpu=1,memory=2Gi,nvidia.com/gpu=5" out
# capacity "--replicas N: ...; X placed, Y would stay Pending." and the new-node lines
contains "capacity --replicas: none placed" "--replicas 2: they do not all fit; 0 placed, 2 would stay Pending." out
contains "capacity new nodes: the header counts the Pending" "New nodes for the 2 Pending replicas (cluster-autoscaler's estimate, per existing node shape, packed with the pod's filters):" out
contains "capacity new nodes: a shape that cannot hold one" "  g4dn.xlarge: a new node cannot hold one (Insufficient nvidia.com/gpu)" out
check "sentences: capacity with ephemeral-storage" 0 "$bin" capacity -q -S "$gpu" --request cpu=100m,ephemeral-storage=1Gi
contains "capacity Shape: ephemeral-storage in the effective request" "effective request cpu=100m,ephemeral-storage=1Gi" out
check "sentences: capacity -o json for 5 GPUs" 1 "$bin" capacity -q -S "$gpu" --from deployment/train -n ml --replicas 2 -o json
expect "capacity json: the GPU in freeTotal and largestFree" '.fragmentation.freeTotal["nvidia.com/gpu"] == "1" and .fragmentation.largestFree["nvidia.com/gpu"] == "1" and .nodesNeeded[0].nodes == null'
# capacity "(limited by node filters)" and "No node this shape may use": every node tainted, room everywhere
check "sentences: capacity where every node is tainted" 1 "$bin" capacity -q -S "$data/tainted-only.yaml" --request cpu=1 --replicas 2
contains "capacity total: not limited by resources" "0 replicas fit in all (limited by node filters)." out
contains "capacity free: no node it may use" "No node this shape may use: each rejects it by a filter other than NodeResourcesFit (the table above)." out
lacks "capacity free: no 'not enough in total'" "not enough in total" out
# capacity table: the nodes a long list leaves out are counted
check "sentences: capacity on 22 nodes, 21 tainted" 0 "$bin" capacity -q -S "$data/many-tainted.yaml" --request cpu=1
contains "capacity table: says what it leaves out" "(and 21 nodes that reject it for another reason than room; -o wide lists them)" out
# plan "VPA target for C: cpu X, memory Y[ (lowerBound Z)]." (--vpa-target gives no bound: none printed)
check "sentences: plan with --vpa-target" 1 "$bin" plan -q -S "$kafka" statefulset/kafka -n data --vpa-target kafka:cpu=1 --vpa-weight 1
contains "plan: the target without a bound" "VPA target for kafka: cpu 1, memory 4Gi." out
contains "plan reason: none of 50 pairs, 2 of 3 schedule" "None of the 50 pairs evaluated schedules every replica: the workload stays as it is, and 2 of its 3 replicas schedule." out
# plan "Rollout: RollingUpdate, one pod at a time (maxUnavailable N) ...": a StatefulSet has no maxSurge
check "sentences: plan a StatefulSet's new requests" 0 "$bin" plan -q -S "$data/plan/db-statefulset.yaml" statefulset/db -n data --vpa-target db:cpu=2 --vpa-weight 1
contains "plan rollout: one pod at a time" "Rollout: RollingUpdate, one pod at a time (maxUnavailable 1) completes in 4 controller syncs." out
lacks "plan rollout: no maxSurge for a StatefulSet" "maxSurge" out
# plan and capacity first: "The scheduler recorded for pod NS/NAME: MSG" / "Its reasons include ..., which the answer below does not count"
# (a StatefulSet's claims come from its volumeClaimTemplates, which fitscale does not read)
pvc="$data/plan/db-unbound-pvc.yaml"
check "sentences: plan a StatefulSet whose pod waits for its claim" 0 "$bin" plan -q -S "$pvc" statefulset/db -n data
contains "plan: the recorded verdict first" 'The scheduler recorded for pod data/db-0: 0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.' out
contains "plan: the reason not modelled" 'Its reasons include "pod has unbound immediate PersistentVolumeClaims", which the answer below does not count (docs/filters.md, "Not modelled").' out
contains "plan reason: scheduled here may stay Pending" 'The scheduler recorded for db-0 a reason this plan does not count ("pod has unbound immediate PersistentVolumeClaims"): replicas counted here as scheduled may stay Pending.' out
if head -1 "$tmp/out" | grep -q '^The scheduler recorded'; then ok "plan: the note is the first line"; else not_ok "plan: the note is the first line"; fi
check "sentences: plan -o json, the claim not modelled" 0 "$bin" plan -q -S "$pvc" statefulset/db -n data -o json
expect "plan json: unmodelledReasons and the recorded message" '.unmodelledReasons == ["pod has unbound immediate PersistentVolumeClaims"] and (.recordedMessage | startswith("0/1 nodes are available: pod has unbound"))'
check "sentences: capacity --from the StatefulSet whose pod waits for its claim" 0 "$bin" capacity -q -S "$pvc" --from statefulset/db -n data
contains "capacity: the reason not modelled, first" 'Its reasons include "pod has unbound immediate PersistentVolumeClaims", which the answer below does not count' out
check "sentences: capacity -o json, the claim not modelled" 0 "$bin" capacity -q -S "$pvc" --from statefulset/db -n data -o json
expect "capacity json: unmodelledReasons" '.unmodelledReasons == ["pod has unbound immediate PersistentVolumeClaims"]'
check "sentences: capacity of a shape reads no recorded verdict" 0 "$bin" capacity -q -S "$pvc" --request cpu=1 -o json
expect "capacity json: none without a workload" '.unmodelledReasons == [] and .recordedMessage == null'
# capacity with no node: "(limited by no nodes)", "The snapshot holds no node.", no estimate to make
check "sentences: capacity on a snapshot without nodes" 1 "$bin" capacity -q -S "$fixtures/eks-arm64-podlist.json" --request cpu=1 --replicas 1
contains "capacity total: limited by no nodes" "0 replicas fit in all (limited by no nodes)." out
contains "capacity free: no node" "The snapshot holds no node." out
contains "capacity new nodes: none to copy" "  none: the snapshot holds no node to copy" out
# capacity "--replicas 1: it fits / it does not fit; ..."
check "sentences: capacity --replicas 1 of a 5-GPU pod" 1 "$bin" capacity -q -S "$gpu" --from deployment/train -n ml --replicas 1
contains "capacity --replicas 1: it does not fit" "--replicas 1: it does not fit; 0 placed, 1 would stay Pending." out
check "sentences: capacity --replicas 1 that fits" 0 "$bin" capacity -q -S "$gpu" --request cpu=1 --replicas 1
contains "capacity --replicas 1: it fits" "--replicas 1: it fits; 1 placed, 0 would stay Pending." out
# plan SERVED: Pending replicas serve nothing
check "sentences: plan statefulset/kafka" 1 "$bin" plan -q -S "$kafka" statefulset/kafka -n data
contains "plan SERVED: 2 of 3 scheduled is 66 %, not 100 %" "target point   3          kafka:cpu=2,memory=4Gi   2     1         66%      0.000" out
lacks "plan: no HPA and no VPA, neither named" "HPA/VPA point" out
# plan reason, infeasible with some replicas scheduled
contains "plan reason: how many schedule" "The one pair evaluated does not schedule every replica: the workload stays as it is, and 2 of its 3 replicas schedule." out
lacks "plan reason: not \"Not one replica\"" "Not one replica" out
# plan "N new node(s) of shape S would hold it/them (K replica(s) a node)."
contains "plan new nodes: one node holds the one Pending replica" "  New nodes that would hold it: 1 node of shape m5.2xlarge in zone z1, 1 replica per node" out
# plan "Rollout: none; nothing changes."
contains "plan rollout: nothing changes" "Rollout: none; nothing changes." out
# several shapes that would each hold them are alternatives: one header, "or" before the second
check "plan new nodes: two shapes (infeasible)" 1 "$bin" plan -q -S "$data/pod-slots.yaml" deployment/web -n shop
headers=$(grep -c "New nodes that would hold" "$tmp/out")
if [ "$headers" = 1 ]; then ok "plan new nodes: one header for two shapes"; else echo "# $headers headers" ; not_ok "plan new nodes: one header for two shapes"; fi
contains "plan new nodes: the header says they are alternatives" "  New nodes that would hold it, one of these:" out
contains "plan new nodes: the first shape" "    1 node of shape cpu=8,memory=16Gi,pods=3, 1 replica per node" out
contains "plan new nodes: the second, an alternative" "    or 1 node of shape cpu=8,memory=16Gi,pods=4, 1 replica per node" out
check "capacity --replicas 5: two shapes" 1 "$bin" capacity -q -S "$data/pod-slots.yaml" --from deployment/web -n shop --replicas 5
contains "capacity new nodes: the header says they are alternatives" "packed with the pod's filters), one of these:" out
contains "capacity new nodes: the second, an alternative" "  or 1 node of shape cpu=8,memory=16Gi,pods=4, 1 replica per node" out
lacks "capacity new nodes: the first is no alternative to anything" "  or 1 node of shape cpu=8,memory=16Gi,pods=3" out
check "sentences: plan -o json statefulset/kafka" 1 "$bin" plan -q -S "$kafka" statefulset/kafka -n data -o json
expect "plan servedFraction: 2 of 3" '.hvpa.servedFraction == 0.6667 and .current.servedFraction == 0.6667 and .hvpa.pending == 1'
# plan reason when not one replica schedules; SERVED 0 %, not -0 %
check "sentences: plan of a 5-GPU workload" 1 "$bin" plan -q -S "$gpu" deployment/train -n ml
contains "plan reason: not one of them schedules" "the workload stays as it is, and not one of its 2 replicas schedules." out
contains "plan SERVED: 0 %" "current        2          main:cpu=1,memory=2Gi   0     2         0%       0.000" out
lacks "plan SERVED: no -0 %" "-0%" out
lacks "plan new nodes: no shape holds a 5-GPU replica, none offered" "would hold" out
# plan reason, adjusted: "of the N pairs evaluated, M do"
check "sentences: plan on the example" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production
contains "plan reason: the pairs that serve, counted apart from those evaluated" "of the 250 pairs evaluated, 9 do, and it is the closest" out
contains "plan rollout: controller syncs" "stops after 2 controller syncs with 2 old and 2 new pods available, 4 new Pending" out
check "sentences: plan -o json on the example" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production -o json
expect "plan json: 250 pairs evaluated, P* serves 2 of 6" '.candidates == 250 and .hvpa.servedFraction == 0.3333 and .plan.servedFraction == 1'
# plan "Rollout: none; the requests stay, so no pod is replaced: pods are only added/removed."
check "sentences: plan scales edge down" 0 "$bin" plan -q -S "$hostport" -S "$data/hostport-hpa.yaml" deployment/edge -n web
contains "plan rollout: a scale, no replacement" "Rollout: none; the requests stay, so no pod is replaced: pods are only removed." out
# the point is named after what exists: an HPA and no VPA is the "HPA point"
contains "plan: an HPA and no VPA, the HPA point" "HPA point   3          proxy:cpu=100m,memory=128Mi" out
contains "plan reason: the HPA point" "The HPA point is 3 x (cpu=100m,memory=128Mi)" out
lacks "plan: no VPA named where there is none" "HPA/VPA" out
check "plan: a VPA and no HPA" 0 "$bin" plan -q -S "$data/resize/vpa-in-place.yaml" deployment/web -n shop --vpa-weight 1
contains "plan: the VPA point" "The VPA point is 3 x (cpu=1500m,memory=2Gi)" out
lacks "plan: no HPA point where there is no HPA" "HPA point" out
lacks "plan: no HPA/VPA point either" "HPA/VPA" out
# --apply-patch, infeasible: one short comment line, not the outcome paragraph
check "plan --apply-patch, infeasible" 1 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:memory=12Gi --vpa-weight 1 --apply-patch
contains "plan patch: one short line for infeasible" "# infeasible: no pair that schedules serves the whole demand; this one serves the most, 33 %." out
lacks "plan patch: not the reason paragraph" "The HPA/VPA point is" out
check "plan --apply-patch, nothing schedules" 1 "$bin" plan -q -S "$kafka" statefulset/kafka -n data --apply-patch
contains "plan patch: one short line when no pair schedules" "# infeasible: no pair schedules every replica; this is the workload as it runs." out
lacks "plan patch: not the reason paragraph there either" "point is" out
# plan reason, an update that stops: "before it completes", pods "available"
check "sentences: plan with overrides" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --hpa-desired 4 --vpa-target rag-api:memory=3Gi --vpa-weight 1
contains "plan reason: the update stops before it completes" "its final state fits, but its rolling update stops before it completes. Its rolling update (maxSurge 2, maxUnavailable 1) stops with 2 old and 2 new pods available" out
# hvpa "blocked: ...": amounts as quantities
check "sentences: hvpa blocked" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --now 2026-12-02T12:00:00Z
contains "hvpa blocked: 100m -> 160m, not 100 -> 160" "blocked: MinChange (requests): resource-consumer/cpu 100m -> 160m" out
contains "hvpa header and stage" "Stage 2 of 3 (replicas 3..7), vpaWeight 0.60: replicas 5 (weighted 5)." out
# hvpa "No stage covers N replica(s), so vpaWeight 0"
check "sentences: hvpa with a gap in its stages" 0 "$bin" hvpa -q -S "$data/hvpa-gap/hvpa.yaml" -S "$data/hvpa-design/cluster.yaml" default/hvpa-sample --now 2026-12-02T12:00:00Z
contains "hvpa: no stage" "No stage covers 4 replicas, so vpaWeight 0: replicas 6 (weighted 6)." out
# plan "Hvpa NAME: no stage covers N replica(s), so vpaWeight W." (it said "stage 0")
check "sentences: plan with a gap in the Hvpa's stages" 0 "$bin" plan -q -S "$data/hvpa-gap/hvpa.yaml" -S "$data/hvpa-design/cluster.yaml" -S "$data/plan/tight-nodes.yaml" hvpa/hvpa-sample
contains "plan: no stage" "Hvpa hvpa-sample: no stage covers 4 replicas, so vpaWeight 0.00." out
contains "plan rollout: a scale up, no replacement" "Rollout: none; the requests stay, so no pod is replaced: pods are only added." out
# hvpa "Stage ... (this stage's own is W; ...)": a 100 stage lends another's weight
check "sentences: hvpa a stage of 100" 0 "$bin" hvpa -q -S "$data/hvpa-gap/hvpa-100.yaml" -S "$data/hvpa-design/cluster.yaml" default/hvpa-sample --now 2026-12-02T12:00:00Z --semantics hvpa
contains "hvpa: the weight a 100 stage lends" "Stage 2 of 3 (replicas 4..5), vpaWeight 0.60 (this stage's own is 1.00; the HPA wants more, so that of the next stage below 1.00)" out
# hvpa --curve STAGE: numbered as "Stage 2 of 3 (replicas 3..7)" is, from 1
check "sentences: hvpa --curve stages" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --curve
contains "hvpa curve: replicas 3 are stage 2" "3          2       0.60         160m" out
check "sentences: hvpa --curve with a gap" 0 "$bin" hvpa -q -S "$data/hvpa-gap/hvpa.yaml" -S "$data/hvpa-design/cluster.yaml" default/hvpa-sample --curve
contains "hvpa curve: no stage is -" "4          -       0.00         100m" out
# hvpa "The Hvpa is invalid: ..."
check "sentences: hvpa invalid under the controller's rules" 0 "$bin" hvpa -q -S "$data/hvpa-design" default/hvpa-sample --semantics hvpa
contains "hvpa: invalid, and why" "The Hvpa is invalid: interval 1: vpaWeight 0.6 is not an integer percent (0..100)" out

# negative resource amounts are refused as the API server refuses them (issue 17)
check "nodes: a pod requesting -1 cpu" 2 "$bin" nodes -q -S "$data/negative-amounts.yaml"
contains "nodes: names the pod and the field" '(Pod default/minus): field spec.containers[0].resources.requests.cpu: Invalid value: "-1": must be greater than or equal to 0' err

check "plan: a template without containers" 2 "$bin" plan -q -S "$data/no-containers.yaml" deployment/empty
contains "plan: names the field" 'field spec: template.spec.containers: Required value: a pod has at least one container' err

# -o yaml quotes strings a YAML reader would take for dates, numbers or booleans (issue 17)
if python3 -c 'import yaml' 2>/dev/null; then
  check "nodes -o yaml with typed-looking names" 0 "$bin" nodes -q -S "$data/typed-names.yaml" -o yaml
  cp "$tmp/out" "$tmp/typed.yaml"
  "$bin" nodes -q -S "$data/typed-names.yaml" -o json >"$tmp/typed.json" 2>/dev/null
  if python3 -c 'import json, sys, yaml; sys.exit(0 if yaml.safe_load(open(sys.argv[1])) == json.load(open(sys.argv[2])) else 1)' "$tmp/typed.yaml" "$tmp/typed.json"; then
    ok "-o yaml read by a YAML 1.1 reader equals -o json"
  else
    not_ok "-o yaml read by a YAML 1.1 reader equals -o json"
  fi
else
  skip "-o yaml round trip" "python3 yaml not installed"
fi

# tables escape control characters from the cluster (issue 17)
check "nodes: a name with an escape sequence" 0 "$bin" nodes -q -S "$data/escape-name.yaml"
contains "nodes: ESC as ^[, CR as \\r, ^A" 'evil^[[31mred\rx^A' out
if grep -q "$(printf '\033')" "$tmp/out"; then not_ok "nodes: no raw ESC reaches the terminal"; else ok "nodes: no raw ESC reaches the terminal"; fi

check "why: a recorded message with an escape sequence" 0 "$bin" why -q -S "$data/escape-message.yaml" default/web
contains "why: the recorded message escaped" 'The scheduler recorded: 0/1 nodes are available: ^[[2J1 Insufficient cpu.' out
if grep -q "$(printf '\033')" "$tmp/out"; then not_ok "why: no raw ESC from a recorded message"; else ok "why: no raw ESC from a recorded message"; fi

# names in sentences (issue 17): a snapshot read from files is not validated as the API server
# validates names, so a pod, node, namespace or container may be named with an escape sequence,
# a CR, a newline or another control; every sentence prints them escaped as table cells are,
# and -o json still carries the exact name
cat >"$tmp/evil.py" <<'PY'
import json, sys, yaml
subs = [(a, b.encode().decode("unicode_escape")) for a, b in (x.split("=", 1) for x in sys.argv[1].split("|"))]
def walk(v):
    if isinstance(v, str):
        for a, b in subs:
            v = v.replace(a, b)
        return v
    if isinstance(v, list):
        return [walk(x) for x in v]
    if isinstance(v, dict):
        return {k: walk(x) for k, x in v.items()}
    return v
items = []
for f in sys.argv[2:]:
    for doc in yaml.safe_load_all(open(f)):
        if doc is not None:
            items += doc["items"] if "items" in doc else [doc]
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": walk(items)}))
PY
if python3 -c 'import yaml' 2>/dev/null; then
  python3 "$tmp/evil.py" 'production=prod\x1b[31m\r\x01uction|rag-api=rag\x1b]0;pwned\x07-api|.ec2.internal=.ec2\x1b[2J\n.internal' \
    "$ex"/*.json >"$tmp/evil.json"
  python3 "$tmp/evil.py" 'default=def\x1b[31m\r\x01ault|hvpa-sample=hvpa\x1b]0;x\x07-sample|resource-consumer=res\x1b[2J\ncons' \
    "$data"/hvpa-design/*.yaml >"$tmp/evil-hvpa.json"
  ens=$'prod\e[31m\r\001uction' epod=$'rag\e]0;pwned\a-api-7948f7fb7-dc5k8' edep=$'deployment/rag\e]0;pwned\a-api'
  # printable NAME: no control character but the newline in $tmp/out or $tmp/err, and no line
  # broken by a newline from a name (a line ending where the name's newline was)
  printable() {
    if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$tmp/out" "$tmp/err" || grep -qE '(ec2|cons)$' "$tmp/out" "$tmp/err"
    then LC_ALL=C grep -n $'[\x01-\x09\x0b-\x1f\x7f]' "$tmp/out" "$tmp/err" | head -3 | cat -v | comment; not_ok "$1"
    else ok "$1"; fi
  }
  check "escaped names: why" 0 "$bin" why -S "$tmp/evil.json" "$ens/$epod"
  printable "escaped names: why, every sentence"
  contains "escaped names: why's first sentence" 'Pod prod^[[31m\r^Auction/rag^[]0;pwned^G-api-7948f7fb7-dc5k8 is Pending' out
  contains "escaped names: why's fixes" 'it fits on ip-10-0-1-23.ec2^[[2J^J.internal' out
  check "escaped names: why --all" 0 "$bin" why -S "$tmp/evil.json" --all
  printable "escaped names: why --all"
  check "escaped names: nodes -o wide" 0 "$bin" nodes -o wide -S "$tmp/evil.json"
  printable "escaped names: nodes"
  check "escaped names: capacity" 1 "$bin" capacity -S "$tmp/evil.json" --from "$edep" -n "$ens" --replicas 10
  printable "escaped names: capacity"
  contains "escaped names: capacity's shape line" 'Shape: deployment/rag^[]0;pwned^G-api (namespace prod^[[31m\r^Auction)' out
  check "escaped names: plan" 1 "$bin" plan -S "$tmp/evil.json" "$edep" -n "$ens" --curve
  printable "escaped names: plan --curve"
  contains "escaped names: plan's header" 'Deployment prod^[[31m\r^Auction/rag^[]0;pwned^G-api:' out
  check "escaped names: plan --apply-patch" 1 "$bin" plan -S "$tmp/evil.json" "$edep" -n "$ens" --apply-patch
  printable "escaped names: plan --apply-patch"
  contains "escaped names: the patch command quotes the names" "kubectl patch deployment 'rag^[]0;pwned^G-api' -n 'prod^[[31m\\r^Auction'" out
  check "escaped names: hpa" 0 "$bin" hpa -S "$tmp/evil.json" "$ens/rag"$'\e]0;pwned\a'"-api-hpa"
  printable "escaped names: hpa, and its warnings on stderr"
  check "escaped names: hvpa" 0 "$bin" hvpa -S "$tmp/evil-hvpa.json" $'def\e[31m\r\001ault/hvpa\e]0;x\a-sample' --curve --now 2026-12-02T12:00:00Z
  printable "escaped names: hvpa --curve"
  contains "escaped names: hvpa's first sentence" 'Hvpa def^[[31m\r^Aault/hvpa^[]0;x^G-sample (design semantics) scales res^[[2J^Jcons' out
  check "escaped names: why -o json" 0 "$bin" why -q -S "$tmp/evil.json" "$ens/$epod" -o json
  if jq -e --arg ns "$ens" --arg pod "$epod" --arg node $'ip-10-0-1-23.ec2\e[2J\n.internal' \
       '.namespace == $ns and .pod == $pod and ([.nodes[].name] | index($node) != null)' "$tmp/out" >/dev/null
  then ok "escaped names: -o json carries the exact names"; else not_ok "escaped names: -o json carries the exact names"; fi
else
  skip "escaped names in sentences" "python3 yaml not installed"
fi
# in-place resize (issue 21): tests/data/resize/ (the numbers worked out at the top of each file)
rs="$data/resize"
check "plan in place: the VPA's InPlaceOrRecreate" 0 "$bin" plan -q -S "$rs/vpa-in-place.yaml" deployment/web -n shop --vpa-weight 1 -o json
expect "plan in place: a recreate schedules every replica" '.outcome == "unchanged" and .plan.containers[0].requests == {"cpu":"1500m","memory":"2Gi"}'
expect "plan in place: web-a and web-b resize where they run, web-c evicted" '.resize.counts == {"unchanged":0,"inPlace":2,"deferred":0,"evicted":1,"restarts":2,"unplaced":0} and [.resize.pods.inPlace[].name] == ["web-a","web-b"] and [.resize.pods.evicted[].name] == ["web-c"]'
expect "plan in place: web-c is Deferred behind the batch pod, recreated on a or b" '.resize.pods.evicted[0].reason == "Deferred" and .resize.pods.evicted[0].message == "Node didn'"'"'t have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000" and (.resize.pods.evicted[0].placedOn | IN("node-a","node-b"))'
expect "plan in place: the largest requests every pod takes in place" '.resize.largestInPlace.containers[0].requests.cpu == "1" and .resize.largestInPlace.weight < 0.51'
check "plan in place: table" 0 "$bin" plan -q -S "$rs/vpa-in-place.yaml" deployment/web -n shop --vpa-weight 1
contains "plan in place: table counts" "In place (the VPA's updateMode InPlaceOrRecreate): 2 resized, 0 Deferred, 1 evicted, 0 unchanged; 2 container restarts" out
check "plan in place: resize patches" 0 "$bin" plan -q -S "$rs/vpa-in-place.yaml" deployment/web -n shop --vpa-weight 1 --apply-patch
contains "plan in place: one resize patch per pod" "kubectl patch pod web-a -n shop --subresource resize --type strategic -p '{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\"1500m\",\"memory\":\"2Gi\"}}}]}}'" out
if grep -q "kubectl patch deployment" "$tmp/out"; then not_ok "plan in place: no template patch"; else ok "plan in place: no template patch"; fi
check "plan --update recreate: no resize section" 0 "$bin" plan -q -S "$rs/vpa-in-place.yaml" deployment/web -n shop --vpa-weight 1 --update recreate -o json
expect "plan --update recreate: resize null" '.resize == null'
check "plan in place: at equal distance, the pair that evicts fewer" 0 "$bin" plan -q -S "$rs/tie-break.yaml" deployment/web -n shop --vpa-weight 0 -o json
expect "plan in place: 4 x 1510m resizes both pods in place, 3 x 2 would evict web-1" '.plan.replicas == 4 and .plan.containers[0].requests.cpu == "1510m" and .resize.counts.evicted == 0 and .resize.counts.inPlace == 2 and (.reason | test("In place it is preferred to 3 x \\(cpu=2,memory=2Gi\\), as close \\(distance 0.000, within 0.01\\), which would evict 1 pod and restart 1 container where this evicts 0 and restarts 2[.]"))'
check "plan --update recreate: the ranking alone, 3 x 2" 0 "$bin" plan -q -S "$rs/tie-break.yaml" deployment/web -n shop --vpa-weight 0 --update recreate -o json
expect "plan --update recreate: 3 x 2, no in-place sentence" '.plan.replicas == 3 and .plan.containers[0].requests.cpu == "2" and (.reason | test("In place") | not)'
check "plan --update: a bad mode" 2 "$bin" plan -q -S "$rs/vpa-in-place.yaml" deployment/web -n shop --update sideways
contains "plan --update: names the flag" "--update is in-place or recreate" err
check "why: a Deferred resize" 0 "$bin" why -q -S "$rs/why-resize.yaml" app/api-0 -o json
expect "why Deferred: shortfall, holders and the pod to move" '.resize.verdict == "Deferred" and .resize.shortfall == {"cpu":"2"} and [.resize.holders[].pod] == ["app/cache-0","app/log-0"] and .resize.fixes == [{"kind":"MovePod","pod":"app/cache-0","to":"node-f"}]'
check "why: an Infeasible resize" 0 "$bin" why -q -S "$rs/why-resize.yaml" app/big-0
contains "why Infeasible: never on its node" "It can never fit node node-e: Node didn't have enough capacity: cpu, requested: 3000, capacity: 2000." out
contains "why Infeasible: where a replacement fits" "nodes whose allocatable holds it: node-d, node-f." out
check "nodes: a resize in progress counts at its larger size" 0 "$bin" nodes -q -S "$rs/why-resize.yaml" -o json
expect "nodes: grow-0 counts 3 cpu, big-0 (Infeasible) its allocated 1, api-0 (Deferred) its desired 3" '[.nodes[] | {(.name): .requested.cpu}] | add == {"node-d":"6","node-e":"1","node-f":"3"}'
check "why: a Pending pod kept off by a resize in progress" 0 "$bin" why -q -S "$rs/why-resize.yaml" app/newcomer -o json
expect "why: node-f has 2 cpu free, not 4: 500m short" '.fits == false and ([.nodes[] | select(.name == "node-f")][0].short.cpu == "500m")'
# names in the resize sentences and patches are escaped and quoted too (issue 17)
if python3 -c 'import yaml' 2>/dev/null; then
  python3 "$tmp/evil.py" 'web-a=web\x1b[2J-a|node-b=node\x1b]0;x\x07-b|shop=sh\rop' "$rs/vpa-in-place.yaml" >"$tmp/evil-resize.json"
  check "escaped names: plan in place --apply-patch" 0 "$bin" plan -S "$tmp/evil-resize.json" deployment/web -n $'sh\rop' --vpa-weight 1 --apply-patch
  printable "escaped names: resize patches"
  contains "escaped names: the resize patch quotes the pod" "kubectl patch pod 'web^[[2J-a' -n 'sh\\rop' --subresource resize" out
  check "escaped names: plan in place" 0 "$bin" plan -S "$tmp/evil-resize.json" deployment/web -n $'sh\rop' --vpa-weight 1
  printable "escaped names: the in-place table"
  python3 "$tmp/evil.py" 'node-f=node\x1b[2J-f|cache-0=cache\x1b]0;x\x07-0' "$rs/why-resize.yaml" >"$tmp/evil-why-resize.json"
  check "escaped names: why a Deferred resize" 0 "$bin" why -S "$tmp/evil-why-resize.json" app/api-0
  printable "escaped names: why a Deferred resize"
  contains "escaped names: the pod to move" 'Fix: moving app/cache^[]0;x^G-0 off the node makes room; it fits on node^[[2J-f.' out
else
  skip "escaped names in resize sentences" "python3 yaml not installed"
fi


# ---- nodes --sort and --group-by (issue 20): tests/data/nodes-pools.yaml, worked out at its top
np="$data/nodes-pools.yaml"
for sorted in "name a1,a2,b1,b2,c1" "cpu a1,a2,b1,c1,b2" "memory a2,a1,b1,c1,b2" "pods c1,a1,a2,b1,b2" \
              "free-cpu b2,b1,a2,c1,a1" "free-memory b2,b1,a1,c1,a2"; do
  key=${sorted%% *} order=${sorted#* }
  check "nodes --sort $key" 0 "$bin" nodes -q -S "$np" --sort "$key" -o json
  expect "nodes --sort $key: $order (ties by name)" "[.nodes[].name] | join(\",\") == \"$order\""
done
check "nodes --sort memory: the table" 0 "$bin" nodes -q -S "$np" --sort memory
if [ "$(awk 'NR > 1 && NF { print $1 }' "$tmp/out" | head -6 | paste -sd,)" = "*,a2,a1,b1,c1,b2" ]; then
  ok "nodes --sort memory: the total row first, then the fullest"
else not_ok "nodes --sort memory: the total row first, then the fullest"; fi
check "nodes --sort: an unknown key" 2 "$bin" nodes -q -S "$np" --sort mem
contains "nodes --sort mem: the keys and the closest" "--sort mem: not a sort key; give name, cpu, memory, pods, free-cpu or free-memory (did you mean memory?)" err
check "nodes --sort: a key far from every key" 2 "$bin" nodes -q -S "$np" --sort zzzzzz
lacks "nodes --sort zzzzzz: no suggestion" "did you mean" err
check "nodes: the footer without --group-by" 0 "$bin" nodes -q -S "$np"
grep -E '^(Free in total|No node|Pods:)' "$tmp/out" >"$tmp/footer"
check "nodes --group-by a Karpenter NodePool" 0 "$bin" nodes -q -S "$np" --group-by karpenter.sh/nodepool
contains "group-by: the column named as kubectl -L names it" "NODEPOOL   STATUS                           CPU REQUESTS     CPU FREE   MEMORY REQUESTS    MEMORY FREE   PODS    LARGEST FREE PIECE" out
contains "group-by: the total row" "*          5/5 Ready,1 SchedulingDisabled   6500m/26 (25%)   19.5       27Gi/104Gi (25%)   77Gi          8/444   cpu=6,memory=24Gi" out
contains "group-by: batch's largest piece leaves the cordoned b2 out" "batch      2/2 Ready,1 SchedulingDisabled   2/16 (12%)       14         8Gi/64Gi (12%)     56Gi          1/220   cpu=6,memory=24Gi" out
contains "group-by: web" "web        2/2 Ready                        4/8 (50%)        4          18Gi/32Gi (56%)    14Gi          5/220   cpu=3,memory=12Gi" out
contains "group-by: the nodes without the label under <none>, no usable node" "<none>     1/1 Ready                        500m/2 (25%)     1500m      1Gi/8Gi (12%)      7Gi           2/4     -" out
lacks "group-by: no row per node" "a1 " out
if grep -E '^(Free in total|No node|Pods:)' "$tmp/out" | cmp -s - "$tmp/footer"; then ok "group-by: the footer unchanged"
else not_ok "group-by: the footer unchanged"; fi
check "nodes --group-by --sort cpu" 0 "$bin" nodes -q -S "$np" --group-by karpenter.sh/nodepool --sort cpu
if [ "$(awk 'NR > 1 && NF { print $1 }' "$tmp/out" | head -4 | paste -sd,)" = "*,web,<none>,batch" ]; then
  ok "group-by --sort cpu: the groups by share requested"
else not_ok "group-by --sort cpu: the groups by share requested"; fi
check "nodes --group-by -o json" 0 "$bin" nodes -q -S "$np" --group-by karpenter.sh/nodepool -o json
expect "group-by -o json: the groups as a list, <none> as null, the sums per group" '.groupBy == "karpenter.sh/nodepool" and [.groups[].value] == ["batch","web",null] and (.groups[0] | .nodes == 2 and .readyNodes == 2 and .cordonedNodes == 1 and .usableNodes == 1 and .requested.cpu == "2" and .usableLargestFree.cpu == "6" and .usableLargestFree.memory == "24Gi" and .largestFree.cpu == "8") and .groups[2].usableNodes == 0 and .groups[2].requested.pods == "2" and ([.nodes[].name] | length) == 5 and .total.podsPending == 0'
check "nodes -o json without --group-by: no groups" 0 "$bin" nodes -q -S "$np" -o json
expect "no --group-by: no groupBy, no groups" 'has("groups") or has("groupBy") | not'
check "nodes --group-by -o yaml" 0 "$bin" nodes -q -S "$np" --group-by karpenter.sh/nodepool -o yaml
contains "group-by -o yaml: the groups" "groupBy: karpenter.sh/nodepool" out
contains "group-by -o yaml: <none> as null" "- value: null" out
check "nodes --group-by zone -l -o wide" 0 "$bin" nodes -q -S "$np" --group-by topology.kubernetes.io/zone -l karpenter.sh/nodepool -o wide
contains "group-by -o wide: the wide columns, the piece last" "ZONE         STATUS                           CPU REQUESTS   CPU FREE   MEMORY REQUESTS   MEMORY FREE   PODS    EPHEMERAL FREE   EXTENDED   LARGEST FREE PIECE" out
contains "group-by -l: eu-west-1b without c1" "eu-west-1b   2/2 Ready,1 SchedulingDisabled   2/16 (12%)     14         8Gi/64Gi (12%)    56Gi          1/220   0                -          cpu=6,memory=24Gi" out
lacks "group-by -l: no <none>" "<none>" out
check "nodes --group-by: not a label key" 2 "$bin" nodes -q -S "$np" --group-by 'node pool'
contains "group-by 'node pool': named" '--group-by "node pool": not a label key' err
check "nodes --group-by on the real DigitalOcean fixture" 0 "$bin" nodes -q -S "$fixtures/mixed-doks-ec2gpu-7nodes.json" --group-by doks.digitalocean.com/node-pool -o wide
contains "group-by doks: the pool of three" "pool-yd23sqk7u   3/3 Ready   0/6 (0%)       6          0/9330Mi (0%)     9330Mi        0/330" out
contains "group-by doks: the GPU node among <none>, the GPU in its piece" "cpu=8,memory=29.3Gi,nvidia.com/gpu=1" out
check "nodes --group-by on the real EKS node group" 0 "$bin" nodes -q -S "$fixtures/eks-arm64-2node-tainted-nodes.json" -S "$fixtures/eks-arm64-podlist.json" --group-by eks.amazonaws.com/nodegroup
contains "group-by eks: one group, tainted: no piece" "custom-1    2/2 Ready   450m/15.82 (2%)   15.37      200Mi/59.4Gi (0%)   59.2Gi        11/116   -" out

# ---- issue 20 (helper ib): pod slots agree, --apply-patch units, fixes without a command,
# SERVED and the HVPA stages ----
slots="$data/pod-slots.yaml"
check "pod slots: nodes" 0 "$bin" nodes -q -S "$slots" -o json
expect "pod slots: nodes counts the terminating and the bound Pending pods, not Succeeded/Failed" '[.nodes[] | [.name, .pods, .free.pods]] == [["n1",3,"1"],["n2",2,"1"]]'
nodes_free=$(jq -c '[.nodes[] | {(.name): (.free.pods | tonumber)}] | add' "$tmp/out")
check "pod slots: capacity of a small shape" 0 "$bin" capacity -q -S "$slots" --request cpu=100m -o json
expect "pod slots: capacity places as many per node as nodes has slots free" --argjson free "$nodes_free" '([.nodes[] | {(.name): .fits}] | add) == $free and .capacity == ($free | add) and .fragmentation.freeTotal.pods == (($free | add) | tostring)'
cp "$tmp/out" "$tmp/slots-capacity.json"
check "pod slots: capacity table" 0 "$bin" capacity -q -S "$slots" --request cpu=100m
contains "pod slots: the table's free pods, as nodes counts them" "pods    2 in total, 1 at most on one node; one replica takes 1" out
check "pod slots: why" 0 "$bin" why -q -S "$slots" shop/web-7c9-c -o json
expect "pod slots: why's free room counts the same slots" '.fits == true and .freeTotal.pods == "2" and .largestFree.pods == "1"'
expect "pod slots: why says the room takes 2 of the owner's 3 Pending pods, and what stops the third" '.roomFor == 2 and .pendingOfOwner == 3 and .roomLimit == "pods" and ([.fixes[].type] == ["AddNodes","LowerReplicas"]) and .fixes[1].replicas == 4'
check "pod slots: why's text" 0 "$bin" why -q -S "$slots" shop/web-7c9-c
contains "pod slots: why says how many stay Pending" "The nodes have room now for 2 of the 3 Pending pods of its owner: 1 stays Pending (the limit: pods)." out
contains "pod slots: the fixes are for the ones left" "Fixes for the ones left Pending, each checked against the snapshot:" out
contains "pod slots: scale down by the one left, not all three" "scale deployment/web from 5 to 4 replicas: 1 of the 3 Pending ones does not fit" out
check "pod slots: why --all" 0 "$bin" why -q -S "$slots" --all -A
contains "pod slots: the summary counts only what the room takes as fitting" "3 Pending in 1 owner: 2 fit now, 1 pod slots." out
# a node whose pods request an extended resource beyond the 16 it lists: nodes refuses, naming the node
python3 - "$tmp/ext17.yaml" <<'PY'
import sys
ext = ", ".join("example.com/r%02d: '1'" % i for i in range(16))
open(sys.argv[1], "w").write(f"""kind: List
items:
- kind: Node
  metadata: {{name: n1}}
  status: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '10', {ext}}}}}
- kind: Pod
  metadata: {{name: p, namespace: d}}
  spec: {{nodeName: n1, containers: [{{name: c, resources: {{requests: {{cpu: '1', example.com/zz: '1'}}}}}}]}}
  status: {{phase: Running}}
""")
PY
check "nodes: 17 extended resources on one node" 2 "$bin" nodes -q -S "$tmp/ext17.yaml"
contains "nodes: the limit's error names the node and the resource" 'fitscale nodes: node n1: resource "example.com/zz": more than 16 extended resources in one resource list' err
# a RuntimeClass that cannot be read fails no snapshot (nor a live cache's batches): its templates are warned
python3 - "$tmp/rc-bad.yaml" <<'PY'
import sys
ext = ", ".join("example.com/r%02d: '1'" % i for i in range(17))
open(sys.argv[1], "w").write(f"""kind: List
items:
- {{kind: Node, metadata: {{name: n1}}, status: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '10'}}}}}}
- {{apiVersion: node.k8s.io/v1, kind: RuntimeClass, metadata: {{name: bad}}, handler: x, overhead: {{podFixed: {{{ext}}}}}}}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {{name: web, namespace: d}}
  spec: {{replicas: 1, selector: {{matchLabels: {{a: b}}}}, template: {{metadata: {{labels: {{a: b}}}}, spec: {{runtimeClassName: bad, containers: [{{name: c, resources: {{requests: {{cpu: 100m}}}}}}]}}}}}}
""")
PY
check "capacity: a RuntimeClass with 17 extended resources of overhead" 0 "$bin" capacity -S "$tmp/rc-bad.yaml" --from deployment/web -n d
contains "capacity: the class that cannot be read is named, the answer still given" "run in RuntimeClass bad, which cannot be read (resource \"example.com/r16\": more than 16 extended resources in one resource list)" err
# pods of one owner with two specs (a StatefulSet mid-rollout) are two questions, both counted
cat >"$tmp/two-specs.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: '8', memory: 16Gi, pods: '10'}, conditions: [{type: Ready, status: 'True'}]}
- kind: Pod
  metadata: {name: db-0, namespace: shop, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, controller: true}]}
  spec: {containers: [{name: db, resources: {requests: {cpu: '1'}}}]}
  status: {phase: Pending}
- kind: Pod
  metadata: {name: db-1, namespace: shop, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, controller: true}]}
  spec: {containers: [{name: db, resources: {requests: {cpu: '2'}}}]}
  status: {phase: Pending}
- kind: Pod
  metadata: {name: db-0, namespace: staging, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, controller: true}]}
  spec: {containers: [{name: db, resources: {requests: {cpu: '1'}}}]}
  status: {phase: Pending}
YAML
check "why --all: an owner's two specs" 0 "$bin" why -q -S "$tmp/two-specs.yaml" --all -A
contains "why --all: both specs answered and counted, one owner per namespace" "3 Pending in 2 owners: 3 fit now." out
contains "why --all: the second spec has its own answer" "Pod shop/db-1 is Pending" out
contains "why --all: the owner of the same name in another namespace has its own answer" "Pod staging/db-0 is Pending" out
lacks "why --all: no pod of another namespace counted as the same" "more Pending pod" out
check "pod slots: capacity replacing web's pods" 1 "$bin" capacity -q -S "$slots" --from deployment/web -n shop --replicas 5 -o json
expect "pod slots: 2 + 2 replicas fit" '.capacity == 4 and .pending == 1 and ([.nodes[] | .fits] == [2,2])'
check "pod slots: plan" 1 "$bin" plan -q -S "$slots" deployment/web -n shop --hpa-desired 5 -o json
expect "pod slots: plan finds the same 4 of 5" '.plan.capacity == 4 and .plan.pending == 1'
"$bin" serve --listen 127.0.0.1:0 -S "$slots" >"$tmp/slots-serve.port" 2>"$tmp/slots-serve.log" &
pids+=($!)
wait_port "$tmp/slots-serve.port"
printf '{"request":"cpu=100m"}' >"$tmp/slots-request.json"
if curl -s -o "$tmp/out" -X POST -H 'Content-Type: application/json' --data-binary "@$tmp/slots-request.json" "http://127.0.0.1:$port/v1/capacity" \
   && [ "$(jq -S 'del(.snapshot)' "$tmp/out")" = "$(jq -S 'del(.snapshot)' "$tmp/slots-capacity.json")" ]; then
  ok "pod slots: serve's /v1/capacity answers as the CLI"
else
  not_ok "pod slots: serve's /v1/capacity answers as the CLI"
fi
# full nodes: no slot free, so no "room in total" whatever cpu is free
sed "s/pods: '4'}/pods: '3'}/; s/pods: '3'}\$/pods: '2'}/" "$slots" >"$tmp/slots-full.yaml"
check "pod slots: why on full nodes" 0 "$bin" why -q -S "$tmp/slots-full.yaml" shop/web-7c9-c -o json
expect "pod slots: no room in total when no slot is free" '.fits == false and .roomInTotal == false and .freeTotal.pods == "0" and ([.nodes[].reasons] == [["Too many pods"],["Too many pods"]])'
check "pod slots: why's table on full nodes" 0 "$bin" why -q -S "$tmp/slots-full.yaml" shop/web-7c9-c
lacks "pod slots: no 'room in total' sentence" "Room in total" out
contains "pod slots: n2's slots" "pods: 2 of 2 used" out

# --apply-patch: a VPA target in bytes is written in the manifest's unit only when rounding up
# still fits; else exact, in its most readable exact unit
check "apply-patch units: rag-api's VPA target in bytes" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:memory=3476363000 --vpa-weight 1 --apply-patch
contains "apply-patch units: 3476363000 rounded up to the manifest's Mi" '"requests":{"cpu":"500m","memory":"3316Mi"}' out
lacks "apply-patch units: no raw bytes" '3476363000' out
contains "apply-patch units: says it rounded, and checked" "# memory requests rounded up to the units the manifest wrote: checked, as many replicas fit." out
pu="$data/plan/patch-units.yaml"
check "apply-patch units: a node with nothing to spare" 0 "$bin" plan -q -S "$pu" deployment/api -n shop --vpa-target api:memory=1073742848 --vpa-weight 1 -o json
expect "apply-patch units: the plan fits all 4 at 1Gi + 1Ki" '.plan.capacity == 4 and .plan.pending == 0 and .plan.containers[0].requests.memory == "1048577Ki"'
expect "apply-patch units: the patch keeps it exact (1025Mi would leave one Pending)" '(.commands.apply | contains("\"memory\":\"1048577Ki\"")) and (.commands.apply | contains("1025Mi") | not)'
check "apply-patch units: 1025Mi fits only 3" 0 "$bin" plan -q -S "$pu" deployment/api -n shop --vpa-target api:memory=1025Mi --vpa-weight 1 -o json
expect "apply-patch units: 3 of 4 at 1025Mi" '.hvpa.capacity == 3'
check "apply-patch units: --apply-patch on it" 0 "$bin" plan -q -S "$pu" deployment/api -n shop --vpa-target api:memory=1073742848 --vpa-weight 1 --apply-patch
contains "apply-patch units: says why exact" "# memory requests exact, not rounded to the units the manifest wrote" out
sed 's/4194308Ki/8Gi/' "$pu" >"$tmp/patch-units-8gi.yaml"
check "apply-patch units: room to round" 0 "$bin" plan -q -S "$tmp/patch-units-8gi.yaml" deployment/api -n shop --vpa-target api:memory=1073742848 --vpa-weight 1 -o json
expect "apply-patch units: 1025Mi on an 8Gi node" '.plan.capacity >= 4 and (.commands.apply | contains("\"memory\":\"1025Mi\""))'

# why: a request that init containers set comes down in the app containers and the init
# containers together, as PodRequests sums and maxes them
check "why fixes: init containers" 0 "$bin" why -q -S "$data/why-fixes-init.yaml" default/web-1-a
contains "why fixes: the app container and the init container both come down" "lower the request to cpu 2 or less: it fits on n1; by container app: cpu 1, and init container init: cpu 2" out
contains "why fixes: one patch, the init container under initContainers" '"containers":[{"name":"app","resources":{"requests":{"cpu":"1"}}}],"initContainers":[{"name":"init","resources":{"requests":{"cpu":"2"}}}]' out
sed 's/cpu: "1500m"/cpu: "1"/; s/- {name: side, image: x, resources: {requests: {cpu: "1"}}}//' "$data/why-fixes-init.yaml" >"$tmp/why-init-only.yaml"
check "why fixes: the init container alone sets the request" 0 "$bin" why -q -S "$tmp/why-init-only.yaml" default/web-1-a
contains "why fixes: kubectl set resources -c names the init container" "kubectl set resources -n default deployment/web -c init --requests=cpu=2" out
check "plan: containers that request cpu only" 1 "$bin" plan -q -S "$data/why-fixes-init.yaml" deployment/web
contains "plan: a resource not requested is left out of REQUESTS, not written '-'" "current        1          app:cpu=1500m side:cpu=1" out
lacks "plan: no '=-'" "=-" out
# why: fixes that had no command (a bare pod, several containers, new nodes by provider)
wfc="$data/why-fixes-containers.yaml"
check "why fixes: a bare pod" 0 "$bin" why -q -S "$wfc" shop/bare-0 -o json
expect "why fixes: the bare pod is recreated with the lower request" '.fixes[0].type == "LowerRequest" and (.fixes[0].text | test("has no owner")) and .fixes[0].command == "kubectl get pod -n shop bare-0 -o json | kubectl patch --local -f - --type=strategic -p '"'"'{\"spec\":{\"containers\":[{\"name\":\"job\",\"resources\":{\"requests\":{\"cpu\":\"500m\"}}}]}}'"'"' -o json | kubectl replace --force -f -"'
if command -v kubectl >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
  python3 -c 'import json, sys, yaml
for item in yaml.safe_load(open(sys.argv[1]))["items"]:
    if item["metadata"]["name"] == "bare-0":
        item["apiVersion"] = "v1"; print(json.dumps(item))' "$wfc" >"$tmp/bare-0.json"
  patch_part=$(jq -r '.fixes[0].command | split(" | ")[1]' "$tmp/out")
  if sh -c "$patch_part" <"$tmp/bare-0.json" >"$tmp/bare-0-patched.json" 2>"$tmp/err" \
     && jq -e '.spec.containers[0].resources.requests == {"cpu":"500m","memory":"1Gi"} and .metadata.name == "bare-0"' "$tmp/bare-0-patched.json" >/dev/null; then
    ok "why fixes: kubectl patch --local applies the bare pod's patch"
  else
    not_ok "why fixes: kubectl patch --local applies the bare pod's patch"
  fi
else
  skip "why fixes: kubectl patch --local applies the bare pod's patch" "kubectl or python3 yaml missing"
fi
check "why fixes: a bare pod, as text" 0 "$bin" why -q -S "$wfc" shop/bare-0
contains "why fixes: the text says how a bare pod changes" "the pod has no owner, so its requests change only in a new pod" out
contains "why fixes: the pipeline under it" "kubectl get pod -n shop bare-0 -o json | kubectl patch --local -f -" out
check "why fixes: two containers, one changes" 0 "$bin" why -q -S "$wfc" shop/multi-6b7-a -o json
expect "why fixes: app, the larger, gives up the 500m" '.fixes[0].command == "kubectl set resources -n shop deployment/multi -c app --requests=cpu=300m" and (.fixes[0].text | test("by container app: cpu 300m"))'
check "why fixes: two containers, both change" 0 "$bin" why -q -S "$wfc" shop/mixed-6b7-a -o json
expect "why fixes: one patch naming app (cpu) and log (memory)" '.fixes[0].command == "kubectl patch deployment -n shop mixed --type=strategic -p '"'"'{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\"300m\"}}},{\"name\":\"log\",\"resources\":{\"requests\":{\"memory\":\"1Gi\"}}}]}}}}'"'"'"'
expect "why fixes: the patched requests fit the node's 500m and 2Gi" '(.fixes[0].command | split(" -p ")[1] | .[1:-1] | fromjson | .spec.template.spec.containers) as $c | ($c[0].resources.requests.cpu == "300m") and ($c[1].resources.requests.memory == "1Gi")'
check "why fixes: new nodes, no provider" 0 "$bin" why -q -S "$wfc" shop/bare-0 -o json
expect "why fixes: no command, says what to do" '(.fixes[] | select(.type == "AddNodes") | .command == null and .provider == "none" and (.text | test("no node autoscaler or node group found")))'
check "why fixes: new nodes in an EKS node group" 0 "$bin" why -q -S "$data/zone-spread.yaml" shop/web-7c9f8d6b5-p9 -o json
expect "why fixes: EKS, no cluster name: no command, the tools named" '(.fixes[] | select(.type == "AddNodes") | .command == null and .provider == "eks-nodegroup" and (.text | test("eksctl scale nodegroup")))'
sed 's|^\(    \)eks.amazonaws.com/nodegroup: \(.*\)$|\1eks.amazonaws.com/nodegroup: \2\n\1alpha.eksctl.io/cluster-name: prod|' "$data/zone-spread.yaml" >"$tmp/zone-spread-eksctl.yaml"
check "why fixes: an eksctl node group" 0 "$bin" why -q -S "$tmp/zone-spread-eksctl.yaml" shop/web-7c9f8d6b5-p9 -o json
expect "why fixes: eksctl scale nodegroup to its 3 nodes + 1" '(.fixes[] | select(.type == "AddNodes") | .command == "eksctl scale nodegroup --cluster prod --name web-ng --nodes 4")'
printf -- '---\napiVersion: v1\nkind: Pod\nmetadata: {name: cluster-autoscaler-0, namespace: kube-system, labels: {app: cluster-autoscaler}}\nspec: {nodeName: ip-10-1-1-10.eu-west-1.compute.internal, containers: [{name: ca, image: x}]}\nstatus: {phase: Running}\n' >>"$tmp/zone-spread-eksctl.yaml"
check "why fixes: Cluster Autoscaler runs" 0 "$bin" why -q -S "$tmp/zone-spread-eksctl.yaml" shop/web-7c9f8d6b5-p9 -o json
expect "why fixes: it adds nodes itself: the maximum to raise, no command" '(.fixes[] | select(.type == "AddNodes") | .command == null and .provider == "cluster-autoscaler" and (.text | test("raise that maximum")))'

# plan: no SERVED 100% beside Pending pods; the HVPA header's stage as --curve numbers it
check "SERVED: current 6 x 6Gi, VPA target 2Gi" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:cpu=100m,memory=2Gi --vpa-weight 1 -o json
expect "SERVED: 2 x 6Gi carry the 12Gi demanded, yet 4 Pending: 2/6, not 1" '.current.pending == 4 and .current.servedFraction < 0.34 and .current.servedFraction > 0.33'
check "SERVED: the table" 0 "$bin" plan -q -S "$ex" deployment/rag-api -n production --vpa-target rag-api:cpu=100m,memory=2Gi --vpa-weight 1
if awk '$1 == "current" && $5 != "0" && $6 == "100%" { bad = 1 } END { exit bad ? 0 : 1 }' "$tmp/out"; then
  not_ok "SERVED: no row with Pending pods says 100%"
else ok "SERVED: no row with Pending pods says 100%"; fi
contains "SERVED: current is 33%" "current         6          rag-api:cpu=500m,memory=6Gi   2     4         33%" out
check "stages: plan --curve of an Hvpa with a 100 stage" 0 "$bin" plan -q -S "$data/hvpa-gap/hvpa-100.yaml" -S "$data/hvpa-design/cluster.yaml" -S "$data/plan/tight-nodes.yaml" hvpa/hvpa-sample --semantics hvpa --curve
contains "stages: the header names the stage, its replicas and its own weight" "Hvpa hvpa-sample: stage 2 of 3 (replicas 4..5), vpaWeight 0.60 (this stage's own is 1.00)." out
header_stage=$(sed -n 's/^Hvpa hvpa-sample: stage \([0-9]*\) of.*/\1/p' "$tmp/out")
curve_stage=$(awk '$1 == "REPLICAS" && $NF == "STAGE" { t = 1; next } t && $1 == "4" { print $NF; exit }' "$tmp/out")
if [ -n "$header_stage" ] && [ "$header_stage" = "$curve_stage" ]; then ok "stages: --curve's STAGE of the 4 current replicas is the header's"
else echo "# header $header_stage, curve $curve_stage"; not_ok "stages: --curve's STAGE of the 4 current replicas is the header's"; fi
if awk '$1 == "REPLICAS" && $NF == "STAGE" { t = 1; next } t && $1 == "6" { found = ($NF == "3") ; exit } END { exit found ? 0 : 1 }' "$tmp/out"; then
  ok "stages: 6 replicas are stage 3, not the header's 2"
else not_ok "stages: 6 replicas are stage 3, not the header's 2"; fi
check "stages: hvpa --curve numbers them the same" 0 "$bin" hvpa -q -S "$data/hvpa-gap/hvpa-100.yaml" -S "$data/hvpa-design/cluster.yaml" default/hvpa-sample --semantics hvpa --curve --now 2026-12-02T12:00:00Z
contains "stages: hvpa says stage 2 of 3 (replicas 4..5)" "Stage 2 of 3 (replicas 4..5)" out

tap_end

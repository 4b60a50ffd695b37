#!/usr/bin/env bash
# End-to-end: fitscale serve on the bundled example (files) and on the fake API server (live):
# every documented example (docs/api/*.request.json) posted and its answer compared with the
# CLI's and with docs/api/*.response.json; health, readiness and metrics; bad input of every
# kind, including thousands of random and truncated bodies (every answer a 4xx, the server
# still serving); SIGTERM ends it with status 0.  Speaks TAP for automake's driver.
set -u
. "${FS_SRCDIR:-.}/tests/lib.sh"
api="$src/docs/api"
export KUBECONFIG="$tmp/none" FS_RETRY_BASE_MS=1

# start NAME ARGS...: fitscale serve ARGS on a free port; $url, $serve_pid
start() {
  local name=$1; shift
  "$bin" serve --listen 127.0.0.1:0 "$@" >"$tmp/$name.port" 2>"$tmp/$name.log" &
  serve_pid=$!
  pids+=($serve_pid)
  wait_port "$tmp/$name.port"
  url="http://127.0.0.1:$port"
}
# post NAME PATH FILE [CONTENT-TYPE]: status in $code, body in $tmp/out
post() {
  code=$(curl -s -o "$tmp/out" -w '%{http_code}' -X POST -H "Content-Type: ${4:-application/json}" \
              --data-binary "@$3" "$url$2")
}
get() { code=$(curl -s -o "$tmp/out" -w '%{http_code}' "$url$1"); }
is() { if [ "$code" = "$2" ]; then ok "$1"; else echo "# HTTP $code, wanted $2"; not_ok "$1"; fi; }
# same_json NAME FILE: $tmp/out without .snapshot equals FILE (both sorted)
same_json() {
  if [ "$(jq -S 'del(.snapshot)' "$tmp/out")" = "$(jq -S 'del(.snapshot)' "$2")" ]; then ok "$1"
  else diff <(jq -S 'del(.snapshot)' "$2") <(jq -S 'del(.snapshot)' "$tmp/out") | head -10 | comment; not_ok "$1"; fi
}

start files -S "$ex" -v 2
get /healthz; is "healthz" 200
get /livez; is "livez" 200
get /readyz; is "readyz once the snapshot is loaded" 200
code=$(curl -s -I -o "$tmp/out" -w '%{http_code}' "$url/healthz"); is "HEAD /healthz" 200
code=$(curl -s -I -o "$tmp/out" -w '%{http_code}' "$url/readyz"); is "HEAD /readyz" 200
post "plan" /v1/plan "$api/plan.request.json"; is "POST /v1/plan" 200
expect "plan: the snapshot's resourceVersion and age" '.snapshot.resourceVersion == "48250509" and (.snapshot.ageSeconds | type) == "number"'
"$bin" plan -q -S "$ex" deployment/rag-api -n production -o json >"$tmp/cli-plan.json"
same_json "plan: the CLI's document" "$tmp/cli-plan.json"
same_json "plan: docs/api/plan.response.json" "$api/plan.response.json"
post "plan with overrides" /v1/plan "$api/plan-overrides.request.json"; is "POST /v1/plan with overrides" 200
"$bin" plan -q -S "$ex" deployment/rag-api -n production --hpa-desired 4 --vpa-target rag-api:memory=3Gi --vpa-weight 1 -o json >"$tmp/cli-plan2.json"
same_json "plan with overrides: the CLI's document" "$tmp/cli-plan2.json"
same_json "plan with overrides: docs/api/plan-overrides.response.json" "$api/plan-overrides.response.json"
post "capacity" /v1/capacity "$api/capacity.request.json"; is "POST /v1/capacity" 200
"$bin" capacity -q -S "$ex" --from deployment/rag-api -n production --replicas 6 -o json >"$tmp/cli-capacity.json"
same_json "capacity: the CLI's document" "$tmp/cli-capacity.json"
same_json "capacity: docs/api/capacity.response.json" "$api/capacity.response.json"
post "capacity of a shape" /v1/capacity "$api/capacity-shape.request.json"; is "POST /v1/capacity (a shape)" 200
same_json "capacity of a shape: docs/api/capacity-shape.response.json" "$api/capacity-shape.response.json"
get /v1/why/production/rag-api-7948f7fb7-dc5k8; is "GET /v1/why" 200
"$bin" why -q -S "$ex" production/rag-api-7948f7fb7-dc5k8 -o json >"$tmp/cli-why.json"
same_json "why: the CLI's document" "$tmp/cli-why.json"
same_json "why: docs/api/why.response.json" "$api/why.response.json"

# bad input
get /v1/why/production/nope; is "why: an unknown pod is 404" 404
expect "404: a Status naming the pod" '.kind == "Status" and .code == 404 and (.message | test("nope"))'
get /v1/why/production; is "why: no pod is 404" 404
get /v1/why/production/rag-api-7948f7fb7-dc5k8%00x; is "why: a NUL in the pod's name names no pod (404)" 404
get /nope; is "an unknown path is 404" 404
code=$(curl -s -o "$tmp/out" -w '%{http_code}' -X DELETE "$url/v1/plan"); is "DELETE /v1/plan is 405" 405
post "plan as text" /v1/plan "$api/plan.request.json" text/plain; is "a body that is not JSON by type is 415" 415
post "plan as application/jsonx" /v1/plan "$api/plan.request.json" application/jsonx; is "application/jsonx is not JSON: 415" 415
post "plan as APPLICATION/JSON" /v1/plan "$api/plan.request.json" 'APPLICATION/JSON; charset=utf-8'; is "media types match without regard to case" 200
# strict bodies (issue 17): each error a one-line Status that parses, naming the byte
printf '{"kind":"deployment","name":"rag-api","namespace":"production","namespace":"other"}' >"$tmp/dup.json"
post "duplicate key" /v1/plan "$tmp/dup.json"; is "a duplicate field is 400" 400
expect "400: names the duplicate field" '.message == "duplicate field \"namespace\""'
printf '{"kind":"deployment","name":"rag\377api"}' >"$tmp/utf8.json"
post "invalid UTF-8" /v1/plan "$tmp/utf8.json"; is "invalid UTF-8 is 400" 400
expect "400: the byte offset, valid JSON" '.message == "the body is not UTF-8 at byte 32"'
printf '{"kind":"deployment","name":"rag-api"\000,"x":1}' >"$tmp/nul.json"
post "a NUL byte" /v1/plan "$tmp/nul.json"; is "a NUL byte is 400" 400
expect "400: names where" '.message == "the body holds a NUL byte at byte 37"'
printf '{"request":""}' >"$tmp/empty-request.json"
post "capacity, an empty request" /v1/capacity "$tmp/empty-request.json"; is "an empty request is refused" 422
expect "422: says it is empty" '.message | startswith("an empty request")'
printf '{"request":"cpu=1,cpu=2"}' >"$tmp/twice.json"
post "capacity, cpu twice" /v1/capacity "$tmp/twice.json"; is "a resource given twice is refused" 422
expect "422: names it" '.message == "cpu is given twice (\"cpu=1\" and \"cpu=2\")"'
printf '{"kind":"deployment","name":"rag-api",,}' >"$tmp/syntax.json"
post "a syntax error" /v1/plan "$tmp/syntax.json"; is "a syntax error is 400" 400
expect "400: one line, the offset, no quoted body" '(.message | test("^the body is not JSON at byte [0-9]+: ")) and (.message | contains("rag-api") | not) and (.message | contains("\n") | not)'
printf '{"kind":"deployment","name":"rag-api","namespace":"production","replica":3}' >"$tmp/unknown.json"
post "unknown field" /v1/plan "$tmp/unknown.json"; is "an unknown field is 400" 400
expect "400: names the field" '.message == "unknown field \"replica\""'
printf '{"namespace":"production"}' >"$tmp/missing.json"
post "missing" /v1/plan "$tmp/missing.json"; is "no kind and name is 422" 422
printf '{"kind":"deployment","name":"rag-api","namespace":"production","hpaDesiredReplicas":"six"}' >"$tmp/type.json"
post "wrong type" /v1/plan "$tmp/type.json"; is "a field of the wrong type is 422" 422
expect "422: names the field" '.message | test("hpaDesiredReplicas")'
printf '{"kind":"deployment","name":"rag-api","namespace":"production","hpaFrom":"statuss"}' >"$tmp/from.json"
post "unknown hpaFrom" /v1/plan "$tmp/from.json"; is "an hpaFrom other than status or metrics is 422" 422
expect "422: a Status naming hpaFrom" '.kind == "Status" and .reason == "Invalid" and .code == 422 and .message == "field hpaFrom: status or metrics"'
printf '{"kind":"deployment","name":"nope","namespace":"production"}' >"$tmp/absent.json"
post "absent workload" /v1/plan "$tmp/absent.json"; is "an absent workload is 404" 404
python3 -c 'print("[" * 100 + "]" * 100)' >"$tmp/deep.json"
post "deep" /v1/plan "$tmp/deep.json"; is "deep nesting is 400" 400
head -c 2000000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
post "big" /v1/plan "$tmp/big.json"; is "a body over 1 MiB is 413" 413
python3 - "$url" "$api/plan.request.json" >"$tmp/fuzz.out" <<'PY'
import http.client, random, sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1]); valid = open(sys.argv[2], "rb").read().strip()
random.seed(7); bad = 0; total = 2000
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
for i in range(total):
    if i % 2:
        body = valid[: random.randrange(len(valid))]
    else:
        body = bytes(random.randrange(256) for _ in range(random.randrange(1, 200)))
    path = random.choice(["/v1/plan", "/v1/capacity"])
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    r = conn.getresponse(); r.read()
    if not 400 <= r.status < 500:
        bad += 1; print("status", r.status, body[:60])
print("non-4xx", bad, "of", total)
PY
if grep -q '^non-4xx 0 of 2000$' "$tmp/fuzz.out"; then ok "2000 random and truncated bodies: every answer a 4xx"; else head -5 "$tmp/fuzz.out" | comment; not_ok "random bodies"; fi
get /healthz; is "still serving after them" 200
get /metrics; is "GET /metrics" 200
contains "metrics: requests by endpoint and code" 'fitscale_http_requests_total{endpoint="plan",code="200"} 3' out
contains "metrics: latency histogram" 'fitscale_http_request_duration_seconds_bucket{endpoint="plan",code="200",le="+Inf"} 3' out
contains "metrics: plans by outcome" 'fitscale_plans_total{outcome="adjusted"} 2' out
contains "metrics: snapshot objects" 'fitscale_snapshot_objects{kind="Pod"} 22' out
kill -TERM "$serve_pid"; wait "$serve_pid"; status=$?
if [ "$status" = 0 ]; then ok "SIGTERM: exit 0"; else not_ok "SIGTERM: exit $status"; fi
if grep -q '"msg":"request"' "$tmp/files.log" && jq -e . "$tmp/files.log" >/dev/null 2>&1; then ok "logs: one JSON object per line"; else not_ok "logs: JSON lines"; fi

# more requests at once than --max-in-flight: 503 with Retry-After
FS_SERVE_TEST_DELAY_MS=500 start busy -S "$ex" --max-in-flight 1 --threads 4
curl -s -o /dev/null "$url/healthz" &
slow=$!
sleep 0.1
code=$(curl -s -D "$tmp/headers" -o "$tmp/out" -w '%{http_code}' "$url/livez")
is "over --max-in-flight: 503" 503
contains "503: Retry-After" "Retry-After: 1" headers
wait "$slow"
kill -TERM "$serve_pid"; wait "$serve_pid"

# NodePorts: hostPort 80 taken on every node (tests/data/hostport.yaml)
start hostport -S "$src/tests/data/hostport.yaml"
get /v1/why/web/edge-6d5f7c9b8-d4; is "hostport: GET /v1/why" 200
expect "hostport: why says NodePorts on every node" '.fits == false and .agrees == true and (.nodes | all(.reasons == ["node(s) didn'"'"'t have free ports for the requested pod ports"]))'
"$bin" why -q -S "$src/tests/data/hostport.yaml" web/edge-6d5f7c9b8-d4 -o json >"$tmp/cli-why-ports.json"
same_json "hostport: why, the CLI's document" "$tmp/cli-why-ports.json"
printf '{"namespace": "web", "from": "deployment/edge"}' >"$tmp/edge.json"
post "hostport: capacity" /v1/capacity "$tmp/edge.json"; is "hostport: POST /v1/capacity" 200
expect "hostport: one per node, limited by host ports" '.capacity == 3 and .limitedBy == "host ports (NodePorts)"'
kill -TERM "$serve_pid"; wait "$serve_pid"

# bound pods and dynamic resource allocation (issue 16): the service answers as the CLI does
start bound -S "$src/tests/data/why-bound.yaml" -S "$src/tests/data/dra.yaml"
get /v1/why/shop/web-0; is "bound: GET /v1/why of a bound pod" 200
expect "bound: where it is bound and what it waits for, no scheduling answer" '.bound.node == "a" and .bound.waitingFor == "ImagePull" and has("fits") == false'
"$bin" why -q -S "$src/tests/data/why-bound.yaml" -S "$src/tests/data/dra.yaml" shop/web-0 -o json >"$tmp/cli-why-bound.json"
same_json "bound: why, the CLI's document" "$tmp/cli-why-bound.json"
get /v1/why/ml/infer-0; is "DRA: GET /v1/why of a pod with a resource claim" 200
expect "DRA: unmodelledFilters" '.unmodelledFilters == ["DynamicResources"]'
expect "DRA: why warns first that DynamicResources is not modelled" '[.warnings[].reason] | index("UnmodelledFilter") != null'
printf '{"namespace": "ml", "from": "deployment/infer"}' >"$tmp/infer.json"
post "DRA: capacity" /v1/capacity "$tmp/infer.json"; is "DRA: POST /v1/capacity" 200
expect "DRA: capacity warns first" '[.warnings[] | select(.reason == "UnmodelledFilter") | .message] | length == 1'
printf '{"namespace": "ml", "kind": "deployment", "name": "infer"}' >"$tmp/infer-plan.json"
post "DRA: plan" /v1/plan "$tmp/infer-plan.json"; is "DRA: POST /v1/plan" 200
expect "DRA: plan warns first" '[.warnings[] | select(.reason == "UnmodelledFilter")] | length == 1'
kill -TERM "$serve_pid"; wait "$serve_pid"

# scheduling gates and RuntimeClasses (issue 20): the service answers and warns as the CLI does
start gated -S "$src/tests/data/why-gated.yaml"
get /v1/why/shop/gated-big; is "gated: GET /v1/why of a gated pod" 200
expect "gated: its gates, whether it fits once ungated, no fix" '.gated == true and .schedulingGates == ["example.com/wait","example.com/quota"] and .fitsOnceUngated == false and has("fixes") == false'
printf '{"namespace": "shop", "from": "deployment/gated-web"}' >"$tmp/gated-web.json"
post "gated: capacity" /v1/capacity "$tmp/gated-web.json"; is "gated: POST /v1/capacity" 200
expect "gated: capacity warns SchedulingGated" '[.warnings[] | select(.reason == "SchedulingGated")] | length == 1'
printf '{"namespace": "shop", "kind": "deployment", "name": "ghost"}' >"$tmp/ghost-plan.json"
post "gated: plan" /v1/plan "$tmp/ghost-plan.json"; is "gated: POST /v1/plan" 200
expect "gated: plan warns RuntimeClassMissing" '[.warnings[] | select(.reason == "RuntimeClassMissing")] | length == 1'
printf '{"namespace": "shop", "from": "deployment/web"}' >"$tmp/kata-web.json"
post "kata: capacity" /v1/capacity "$tmp/kata-web.json"; is "kata: POST /v1/capacity" 200
expect "kata: the overhead counted, 1 fits" '.capacity == 1'
kill -TERM "$serve_pid"; wait "$serve_pid"

# in-place resize (issue 21): POST /v1/plan takes update, GET /v1/why covers resizes
start resize -S "$src/tests/data/resize/vpa-in-place.yaml" -S "$src/tests/data/resize/why-resize.yaml"
printf '{"namespace": "shop", "kind": "deployment", "name": "web", "vpaWeight": 1, "update": "in-place"}' >"$tmp/resize-plan.json"
post "resize: plan in place" /v1/plan "$tmp/resize-plan.json"; is "resize: POST /v1/plan with update in-place" 200
"$bin" plan -q -S "$src/tests/data/resize/vpa-in-place.yaml" -S "$src/tests/data/resize/why-resize.yaml" deployment/web -n shop --vpa-weight 1 --update in-place -o json >"$tmp/cli-resize-plan.json"
same_json "resize: plan, the CLI's document" "$tmp/cli-resize-plan.json"
expect "resize: two in place, one evicted" '.resize.counts.inPlace == 2 and .resize.counts.evicted == 1'
printf '{"namespace": "shop", "kind": "deployment", "name": "web", "update": "sideways"}' >"$tmp/resize-bad.json"
post "resize: a bad update" /v1/plan "$tmp/resize-bad.json"; is "resize: update sideways is a 422" 422
expect "resize: the field named" '.message | test("update: in-place or recreate")'
get /v1/why/app/api-0; is "resize: GET /v1/why of a Deferred resize" 200
expect "resize: why's resize part" '.resize.verdict == "Deferred" and .resize.fixes[0].kind == "MovePod"'
kill -TERM "$serve_pid"; wait "$serve_pid"

# slow clients (issue 17): a body sent a byte at a time is cut off at --client-timeout, and
# clients from one address cannot hold every slot while a probe from another gets in
start slow -S "$ex" --client-timeout 5 --max-in-flight 4
python3 - "$port" "$tmp/slow.held" >"$tmp/slow.out" 2>&1 <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
conns = []
for _ in range(20):  # more than the 16 slots: without a per-address limit they would hold them all
    try:
        c = socket.create_connection(("127.0.0.1", port))
        c.sendall(b"POST /v1/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        conns.append(c)
    except OSError:
        pass
open(sys.argv[2], "w").write("held\n")
cut = 0
for _ in range(14):
    time.sleep(0.5)
    for c in list(conns):
        try:
            c.sendall(b" ")
        except OSError:
            conns.remove(c); cut += 1
print("open", len(conns), "cut", cut)
PY
slow_pid=$!
for _ in $(seq 100); do [ -s "$tmp/slow.held" ] && break; sleep 0.05; done
code=$(curl -s --interface 127.0.0.2 -o "$tmp/out" -w "%{http_code}" -m 2 "$url/healthz"); is "a probe from another address gets in past the slow clients" 200
wait "$slow_pid"
if grep -q '^open 0 ' "$tmp/slow.out"; then ok "every slow body cut off at --client-timeout"; else comment "$tmp/slow.out"; not_ok "every slow body cut off at --client-timeout"; fi
get /metrics
if grep -q '^fitscale_http_slow_clients_total [1-9]' "$tmp/out"; then ok "metrics: slow clients counted"; else not_ok "metrics: slow clients counted"; fi
kill -TERM "$serve_pid"; wait "$serve_pid"

# slow headers (issue 17): a client that sends one header byte every half second resets any
# idle timer; it is still cut off --client-timeout after it connected, and the health probes,
# from its own address and from another, are answered meanwhile
start slowhead -S "$ex" --client-timeout 3 --max-in-flight 4
python3 - "$port" "$tmp/slowhead.held" >"$tmp/slowhead.out" 2>&1 <<'PY' &
import select, socket, sys, time
port = int(sys.argv[1])
head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
conns = [[socket.create_connection(("127.0.0.1", port)), 0, None] for _ in range(6)]
open(sys.argv[2], "w").write("held\n")
start = time.monotonic()
while time.monotonic() - start < 9 and any(c[2] is None for c in conns):
    for c in conns:
        if c[2] is not None:
            continue
        try:
            c[0].sendall(head[c[1]:c[1] + 1]); c[1] += 1
            if select.select([c[0]], [], [], 0)[0] and c[0].recv(100) == b"":
                c[2] = time.monotonic() - start
        except OSError:
            c[2] = time.monotonic() - start
    time.sleep(0.5)
print("cut after", " ".join("never" if c[2] is None else "%.1f" % c[2] for c in conns))
PY
slowhead_pid=$!
for _ in $(seq 100); do [ -s "$tmp/slowhead.held" ] && break; sleep 0.05; done
sleep 1
code=$(curl -s -o "$tmp/out" -w "%{http_code}" -m 2 "$url/healthz"); is "slow headers: a probe from their address is answered" 200
code=$(curl -s --interface 127.0.0.2 -o "$tmp/out" -w "%{http_code}" -m 2 "$url/healthz"); is "slow headers: a probe from another address is answered" 200
wait "$slowhead_pid"
if python3 -c 'import sys; t = sys.stdin.read().split()[2:]; sys.exit(not (len(t) == 6 and all(x != "never" and 2.5 <= float(x) <= 5.5 for x in t)))' <"$tmp/slowhead.out"
then ok "slow headers: every connection cut --client-timeout (3 s) after it opened, though it kept sending"
else comment "$tmp/slowhead.out"; not_ok "slow headers: cut at --client-timeout"; fi
get /metrics
if grep -q '^fitscale_http_slow_clients_total 6$' "$tmp/out"; then ok "slow headers: each counted once"; else grep slow_clients "$tmp/out" | comment; not_ok "slow headers: each counted once"; fi
kill -TERM "$serve_pid"; wait "$serve_pid"

# errors libmicrohttpd would answer with an HTML page (issue 17): a URI over 8 KiB, header
# fields over 16 KiB and a Content-Length over --max-body are refused here, from the head alone,
# as Status JSON; a head past libmicrohttpd's 64 KiB, and requests it cannot parse, it refuses
# itself (docs/api.md says which): the status code is still the right one, the server serves on,
# its messages become JSON log lines and the requests are counted
start heads -S "$ex" -v 2
# raw BYTES: the Python bytes expression sent as it is; status in $code, body in $tmp/out
raw() {
  code=$(python3 - "$port" "$1" "$tmp/out" <<'PY'
import socket, sys
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
c.sendall(eval(sys.argv[2]))
answer = b""
try:
    while True:
        chunk = c.recv(65536)
        if not chunk:
            break
        answer += chunk
except OSError:
    pass
head, _, body = answer.partition(b"\r\n\r\n")
open(sys.argv[3], "wb").write(body)
print(head.split(b" ")[1].decode() if head.startswith(b"HTTP/1.1 ") else "none")
PY
)
}
# status_json NAME CODE: the body is one line of valid UTF-8, a Status with that code
status_json() {
  if python3 -c 'import json, sys; b = open(sys.argv[1], "rb").read(); d = json.loads(b.decode("utf-8")); sys.exit(not (b"\n" not in b.rstrip(b"\n") and d["kind"] == "Status" and d["code"] == int(sys.argv[2]) and d["status"] == "Failure"))' "$tmp/out" "$2" 2>/dev/null
  then ok "$1"; else head -c 300 "$tmp/out" | comment; not_ok "$1"; fi
}
raw 'b"GET /v1/why/production/" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"'; is "a URI of 9000 bytes is 414" 414
status_json "414: a one-line Status" 414
expect "414: says how long" '.message == "the URI is 9019 bytes long, over 8192"'
raw 'b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: %s\r\n" % (i, b"v" * 8000) for i in range(3)) + b"\r\n"'
is "24 KB of header fields is 431" 431
status_json "431: a one-line Status" 431
raw 'b"POST /v1/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n"'
is "a Content-Length over --max-body is 413 before any body is sent" 413
status_json "413 (Content-Length): a one-line Status" 413
head -c 2000000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
code=$(curl -s -o "$tmp/out" -w '%{http_code}' -X POST -H "Content-Type: application/json" -H "Transfer-Encoding: chunked" \
            --data-binary "@$tmp/big.json" "$url/v1/plan")
is "a chunked body over --max-body is 413" 413
status_json "413 (chunked): a one-line Status" 413
raw 'b"GET /v1/why/production/" + b"a" * 200000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"'; is "a URI past libmicrohttpd's memory: still 414" 414
raw 'b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: %s\r\n" % (i, b"v" * 8000) for i in range(30)) + b"\r\n"'
is "header fields past libmicrohttpd's memory: still 431" 431
raw 'b"GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"'; is "a header line without a colon: libmicrohttpd's 400" 400
raw 'b"GET /healthz HTTP/x.y\r\nHost: x\r\n\r\n"'; is "a malformed HTTP version: libmicrohttpd's 400" 400
get /healthz; is "heads: still serving" 200
get /metrics
contains "heads: libmicrohttpd's refusals counted (400)" 'fitscale_http_requests_total{endpoint="unparsed",code="400"} 2' out
contains "heads: libmicrohttpd's refusals counted (414)" 'fitscale_http_requests_total{endpoint="unparsed",code="414"} 1' out
contains "heads: our 414 counted under its endpoint" 'fitscale_http_requests_total{endpoint="why",code="414"} 1' out
kill -TERM "$serve_pid"; wait "$serve_pid"
if jq -e . "$tmp/heads.log" >/dev/null 2>&1 && grep -q '"msg":"libmicrohttpd"' "$tmp/heads.log"; then ok "heads: libmicrohttpd's messages are JSON log lines"
else grep -v '^{' "$tmp/heads.log" | head -3 | comment; not_ok "heads: JSON log lines"; fi
if [ "$(awk 'length > 1000' "$tmp/heads.log" | wc -l)" = 0 ]; then ok "heads: the logged paths are cut"; else not_ok "heads: the logged paths are cut"; fi

# SIGTERM while a body is still arriving: the request is finished, then the server exits 0
start term -S "$ex"
python3 - "$port" "$api/plan.request.json" "$tmp/term.sent" >"$tmp/term.out" 2>&1 <<'PY' &
import socket, sys, time
port, body = int(sys.argv[1]), open(sys.argv[2], "rb").read()
c = socket.create_connection(("127.0.0.1", port))
c.sendall(b"POST /v1/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
c.sendall(body[:10])
open(sys.argv[3], "w").write("sent\n")
time.sleep(1.0)
c.sendall(body[10:])
answer = b""
while True:
    chunk = c.recv(65536)
    if not chunk:
        break
    answer += chunk
print(answer.split(b"\r\n", 1)[0].decode())
PY
term_client=$!
for _ in $(seq 100); do [ -s "$tmp/term.sent" ] && break; sleep 0.05; done
sleep 0.2
kill -TERM "$serve_pid"
wait "$term_client"
wait "$serve_pid"; status=$?
if grep -q '^HTTP/1.1 200' "$tmp/term.out"; then ok "SIGTERM mid-body: the request still answered 200"; else comment "$tmp/term.out"; not_ok "SIGTERM mid-body: the request still answered 200"; fi
if [ "$status" = 0 ]; then ok "SIGTERM mid-body: exit 0"; else not_ok "SIGTERM mid-body: exit $status"; fi

check "serve -o json: refused, not ignored" 2 "$bin" serve -o json -S "$ex" --listen 127.0.0.1:0
contains "serve -o: says why" '-o does not apply: the service answers JSON' err

# --listen on an IPv6 address, in brackets (issue 17)
if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
  "$bin" serve --listen '[::1]:0' -S "$ex" >"$tmp/v6.port" 2>"$tmp/v6.log" &
  v6_pid=$!
  pids+=($v6_pid)
  wait_port "$tmp/v6.port"
  code=$(curl -s -g -o "$tmp/out" -w '%{http_code}' "http://[::1]:$port/healthz"); is "--listen [::1]:0 serves on IPv6" 200
  kill -TERM "$v6_pid"; wait "$v6_pid"
else
  skip "--listen [::1]:0" "no IPv6 loopback here"
fi
check "--listen [::1 without its bracket" 2 "$bin" serve --listen '[::1:0' -S "$ex"
contains "--listen: says how to write IPv6" 'write an IPv6 one in brackets' err

# live, on the fake API server, logging what it is asked for
fake_api fake "$ex"/*.json
fake_port=$port
# --scheduler-config (issue 22): the service judges each pod by its profile, as the CLI does
sc="$src/tests/data/scheduler-config"
start sched -S "$sc/cluster.yaml" --scheduler-config "$sc/config.yaml"
get /v1/why/shop/widget; is "scheduler-config: GET /v1/why" 200
expect "scheduler-config: example.com ignored, it fits" '.fits == true'
get /v1/why/shop/stray; is "scheduler-config: GET /v1/why of a pod no profile schedules" 200
expect "scheduler-config: reported, not judged" '.unknownScheduler == "my-scheduler" and has("fits") == false'
printf '{"request": "cpu=1,example.com/widget=1", "namespace": "shop"}' >"$tmp/sc-capacity.json"
post "scheduler-config: capacity" /v1/capacity "$tmp/sc-capacity.json"; is "scheduler-config: POST /v1/capacity" 200
expect "scheduler-config: 4 on general-a" '.capacity == 4'
kill -TERM "$serve_pid"; wait "$serve_pid"
start sched-live --server "http://127.0.0.1:$fake_port" --watch-timeout 1 --scheduler-config "$sc/spread-config.yaml"
get /readyz; is "scheduler-config: live, the configuration read and the cache listed" 200
kill -TERM "$serve_pid"; wait "$serve_pid"

start live --server "http://127.0.0.1:$fake_port" --watch-timeout 1
get /readyz; is "live: ready after the first list" 200
post "live plan" /v1/plan "$api/plan.request.json"; is "live: POST /v1/plan" 200
same_json "live: the same plan as on the files" "$tmp/cli-plan.json"
kill -TERM "$serve_pid"; wait "$serve_pid"
start live-adjust --server "http://127.0.0.1:$fake_port" --watch-timeout 1 --admission-mode adjust
get /readyz; is "live, adjust: ready after the first list" 200
post "live: an HPA's scale write to 6" /v1/admit "$src/tests/data/admission/scale-up.json"; is "live: POST /v1/admit" 200
expect "live: the scale to 6 comes back adjusted to the 2 that schedule" \
  '.response.allowed and (.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/replicas", "value": 2}]
   and .response.auditAnnotations == {"verdict": "adjusted", "mode": "adjust"}
   and (.response.warnings[0] | endswith("adjusted: Deployment replicas 6 -> 2, what schedules at the current requests"))'
# the HPA asks again on its next sync (the Scale at 2 now): the same answer, the write a no-op
jq '.request.oldObject.spec.replicas = 2 | .request.uid = "live-again"' "$src/tests/data/admission/scale-up.json" >"$tmp/live-again.json"
post "live: the HPA's next write to 6" /v1/admit "$tmp/live-again.json"; is "live: POST /v1/admit again" 200
expect "live: adjusted again to 2 (the HPA keeps asking, the scale stays at what schedules)" \
  '.response.uid == "live-again" and (.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/replicas", "value": 2}]'
jq '.request.object.spec.replicas = 2 | .request.oldObject.spec.replicas = 6' "$src/tests/data/admission/scale-up.json" >"$tmp/live-down.json"
post "live: a scale to the 2 that schedule" /v1/admit "$tmp/live-down.json"; is "live: POST /v1/admit of 2" 200
expect "live: 2 replicas pass untouched" '.response.allowed and .response.patch == null and .response.auditAnnotations.verdict == "fits"'
sleep 1.5
get /metrics
contains "live: API server requests counted" "fitscale_apiserver_requests_total" out
if grep -q 'watch=1' "$tmp/fake.log"; then ok "live: the cache watches"; else not_ok "live: the cache watches"; fi
kill -TERM "$serve_pid"; wait "$serve_pid"; status=$?
if [ "$status" = 0 ]; then ok "live: SIGTERM, exit 0"; else not_ok "live: SIGTERM, exit $status"; fi
if command -v kubectl >/dev/null; then
  check "deploy/: kubectl create --dry-run=client reads every manifest" 0 \
    kubectl --server "http://127.0.0.1:$fake_port" create --dry-run=client --validate=false -o json \
    -f "$src/deploy/fitscale.yaml" -f "$src/deploy/servicemonitor.yaml"
  jq -s . "$tmp/out" >"$tmp/manifests.json" && cp "$tmp/manifests.json" "$tmp/out"
  expect "deploy/: every kind the issue lists" '[.[].kind] | sort == ["ClusterRole","ClusterRoleBinding","Deployment","NetworkPolicy","PodDisruptionBudget","Service","ServiceAccount","ServiceMonitor"]'
  expect "deploy/: hardened pod" '(.[] | select(.kind == "Deployment") | .spec.template.spec) as $p | $p.securityContext.runAsNonRoot and $p.containers[0].securityContext.readOnlyRootFilesystem and $p.containers[0].securityContext.allowPrivilegeEscalation == false and $p.containers[0].securityContext.capabilities.drop == ["ALL"] and $p.securityContext.seccompProfile.type == "RuntimeDefault"'
else
  skip "deploy/: manifests read by kubectl" "kubectl not installed"
fi
# every request the server made is one the deployed ClusterRole allows
if [ -f "$src/deploy/fitscale.yaml" ]; then
  grep -E '[?&](limit|watch)=' "$tmp/fake.log" | sed -n 's|^GET \(/apis\{0,1\}/[^?]*\).*|\1|p' | sort -u >"$tmp/paths"
  missing=0
  while read -r path; do
    resource=${path##*/}
    case $path in /api/*) group='""' ;; *) group=$(echo "$path" | cut -d/ -f3) ;; esac
    grep -q "resources:.*\b$resource\b" "$src/deploy/fitscale.yaml" || { echo "# $path: $resource not in the ClusterRole"; missing=1; }
  done <"$tmp/paths"
  if [ "$missing" = 0 ]; then ok "RBAC: the ClusterRole covers every resource the server listed and watched"; else not_ok "RBAC coverage"; fi
fi

# ---- admission (issue 19): POST /v1/admit, the fixtures of tests/data/admission ----
adm="$src/tests/data/admission"
# admit NAME FILE: POST FILE to /v1/admit (HTTP status checked: 200); the patch, decoded, in $tmp/patch.json
admit() {
  post "$1" /v1/admit "$2"; is "$1: HTTP 200" 200
  jq '.response.patch // empty | @base64d | fromjson' "$tmp/out" >"$tmp/patch.json" 2>/dev/null
}
# reinvoke NAME FILE: applies the patch in $tmp/patch.json to FILE's request.object (RFC 6902, python3-jsonpatch)
# as the API server does, checks the object is still a valid one of its kind (kubectl, when there is one) and
# posts the review again: it must pass untouched (verdict fits: every replica schedules)
reinvoke() {
  if ! python3 -c 'import jsonpatch' 2>/dev/null; then skip "$1" "python3-jsonpatch not installed"; return; fi
  python3 - "$2" "$tmp/patch.json" >"$tmp/again.json" <<'PY'
import json, sys, jsonpatch
review = json.load(open(sys.argv[1]))
review["request"]["object"] = jsonpatch.apply_patch(review["request"]["object"], json.load(open(sys.argv[2])))
json.dump(review, sys.stdout)
PY
  if command -v kubectl >/dev/null; then
    jq '.request.object' "$tmp/again.json" >"$tmp/again-object.json"
    check "$1: the patched object decodes (kubectl --local)" 0 kubectl annotate --local -f "$tmp/again-object.json" x=y -o name
  fi
  post "$1" /v1/admit "$tmp/again.json"
  expect "$1: called again, the patched write passes untouched" \
    '.response.allowed and .response.patch == null and .response.auditAnnotations.verdict == "fits"'
}
pending='fitscale: 4 of 6 replicas of 6Gi would stay Pending: 0/2 nodes are available: 2 Insufficient memory; the plan is 6 x 3917Mi'

start admit-warn -S "$ex"
for review in "$adm"/*.json; do
  admit "admit $(basename "$review")" "$review"
  expect "admit $(basename "$review"): an AdmissionReview, the uid echoed" \
    --arg uid "$(jq -r .request.uid "$review")" '.apiVersion == "admission.k8s.io/v1" and .kind == "AdmissionReview" and .response.uid == $uid'
  if ! jq -e '.request.object.metadata.annotations["fitscale.io/admission"]' "$review" >/dev/null; then
    expect "admit $(basename "$review"): warn never patches" '.response.allowed and .response.patch == null and .response.patchType == null'
  fi
done
admit "warn: an HPA's scale to 6" "$adm/scale-up.json"
expect "warn: allowed, the Pending replicas and the plan in the warning" --arg w "$pending" \
  '.response.allowed and .response.warnings == [$w] and .response.auditAnnotations == {"verdict": "warned", "mode": "warn"}'
admit "warn: a scale down" "$adm/scale-down.json"
expect "warn: a scale that schedules passes without a word" '.response.allowed and .response.warnings == null and .response.auditAnnotations.verdict == "fits"'
admit "warn: a label changed" "$adm/deployment-label-only.json"
expect "warn: a write that leaves replicas and requests is not judged" '.response.allowed and .response.warnings == null and .response.auditAnnotations.verdict == "unchanged"'
admit "annotation adjust: a new Deployment" "$adm/deployment-create.json"
expect "a CREATE is planned from its object; where nothing schedules, not adjusted" \
  '.response.allowed and .response.patch == null and .response.warnings == ["fitscale: 2 of 2 replicas of cpu=500m,memory=6Gi would stay Pending: 0/2 nodes are available: 2 Insufficient memory; no replica count and no request the planner tried schedules (not adjusted)"]'
admit "warn: a StatefulSet's scale to 8" "$adm/statefulset-scale-up.json"
expect "warn: a StatefulSet without an HPA, planned over the replicas written" \
  '.response.warnings == ["fitscale: 3 of 8 replicas of cpu=500m,memory=2Gi would stay Pending: 0/2 nodes are available: 2 Insufficient memory; the plan is 5 x cpu=500m,memory=2Gi (it serves 62 % of the demand: no pair that schedules serves all)"]'
# pods/resize (in-place resizes): judged as the pod's kubelet admits them (model/resize.c)
admit "warn: a resize that fits beside the node's other pods" "$adm/pod-resize-fits.json"
expect "warn: a resize the kubelet allocates passes without a word" '.response.allowed and .response.warnings == null and .response.auditAnnotations.verdict == "fits"'
resize_deferred="fitscale: the resize of Pod production/rag-api-7948f7fb7-hq8lq to memory=12Gi would be Deferred on ip-10-0-1-23.ec2.internal: Node didn't have enough resource: memory, requested: 12884901888, used: 2871001088, capacity: 15569256448; the largest that fits now is memory=12110Mi"
admit "warn: a resize the kubelet would defer" "$adm/pod-resize-deferred.json"
expect "warn: Deferred, the kubelet's message and the largest that fits now" --arg w "$resize_deferred" \
  '.response.allowed and .response.patch == null and .response.warnings == [$w] and .response.auditAnnotations == {"verdict": "warned", "mode": "warn"}'
admit "warn: a resize above the node's allocatable" "$adm/pod-resize-infeasible.json"
expect "warn: Infeasible, with the kubelet's message" \
  '.response.allowed and .response.patch == null and .response.warnings == ["fitscale: the resize of Pod production/rag-api-7948f7fb7-hq8lq to memory=16Gi would be Infeasible on ip-10-0-1-23.ec2.internal: Node didn'"'"'t have enough capacity: memory, requested: 17179869184, capacity: 15569256448; the largest that fits now is memory=12110Mi"]'
jq '.request.object.metadata.name = "rag-api-7948f7fb7-dc5k8" | .request.name = "rag-api-7948f7fb7-dc5k8" | .request.object.spec.nodeName = null' "$adm/pod-resize-deferred.json" >"$tmp/review.json"
admit "warn: a resize of a Pending pod" "$tmp/review.json"
expect "warn: a pod on no node is not judged (the scheduler places it at its new requests)" \
  '.response.allowed and .response.warnings == ["fitscale: not judged: Pod \"rag-api-7948f7fb7-dc5k8\" is on no node in namespace \"production\" of the snapshot"] and .response.auditAnnotations.verdict == "not-judged"'
jq '.request.subResource = "status" | .request.requestSubResource = "status"' "$adm/pod-resize-deferred.json" >"$tmp/review.json"
admit "warn: a pods/status write" "$tmp/review.json"
expect "warn: other pod writes are ignored" '.response.allowed and .response.warnings == null and .response.auditAnnotations.verdict == "ignored"'
admit "annotation deny" "$adm/deployment-update-deny.json"
expect "annotation deny: refused with the reason and the plan, a 403 Status" \
  '(.response.allowed | not) and .response.status.code == 403 and .response.status.reason == "Forbidden" and (.response.status.message | test("^fitscale denied Deployment production/rag-api \\(fitscale.io/admission: deny\\): 4 of 6 replicas of cpu=750m,memory=6Gi would stay Pending: .*; the plan is 6 x cpu=500m,memory=3917Mi$"))'
admit "annotation adjust" "$adm/deployment-update-adjust.json"
expect "annotation adjust: a JSON Patch of the plan's requests and scaled limits" \
  '.response.allowed and .response.patchType == "JSONPatch" and .response.auditAnnotations.verdict == "adjusted"'
if [ "$(jq -c . "$tmp/patch.json")" = '[{"op":"add","path":"/spec/template/spec/containers/0/resources/requests/cpu","value":"500m"},{"op":"add","path":"/spec/template/spec/containers/0/resources/requests/memory","value":"3917Mi"},{"op":"add","path":"/spec/template/spec/containers/0/resources/limits/cpu","value":"2"},{"op":"add","path":"/spec/template/spec/containers/0/resources/limits/memory","value":"5476363000"}]' ]
then ok "annotation adjust: the patch"; else comment "$tmp/patch.json"; not_ok "annotation adjust: the patch"; fi
reinvoke "annotation adjust, reinvoked" "$adm/deployment-update-adjust.json"
get /metrics
contains "metrics: reviews by verdict and mode (the loop and the case above)" 'fitscale_admission_reviews_total{verdict="denied",mode="deny"} 2' out
contains "metrics: the warnings counted" 'fitscale_admission_reviews_total{verdict="adjusted",mode="adjust"} 2' out
# bad reviews: a 400 Status naming the field
printf '{"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{}}' >"$tmp/review.json"
post "review v1beta1" /v1/admit "$tmp/review.json"; is "admit: a v1beta1 review is 400" 400
expect "admit v1beta1: says to ask for v1" '.kind == "Status" and (.message | test("admissionReviewVersions"))'
jq '.request.surprise = 1' "$adm/scale-up.json" >"$tmp/review.json"
post "review with an unknown field" /v1/admit "$tmp/review.json"; is "admit: an unknown field is 400" 400
expect "admit: names the unknown field" '.message == "request: unknown field \"surprise\""'
jq 'del(.request.uid)' "$adm/scale-up.json" >"$tmp/review.json"
post "review without uid" /v1/admit "$tmp/review.json"; is "admit: no uid is 400" 400
expect "admit: names the missing uid" '.message == "request.uid: required"'
jq '.request.object.spec.replicas = "6"' "$adm/scale-up.json" >"$tmp/review.json"
post "scale of a string" /v1/admit "$tmp/review.json"; is "admit: a Scale's replicas as a string is 400" 400
expect "admit: names spec.replicas" '.message | startswith("request.object.spec.replicas")'
jq '.request.dryRun = "yes"' "$adm/scale-up.json" >"$tmp/review.json"
post "dryRun of a string" /v1/admit "$tmp/review.json"; is "admit: dryRun as a string is 400" 400
jq '.request.object.spec.template.spec.containers[0].resources.requests.memory = "6 Gi"' "$adm/deployment-update.json" >"$tmp/review.json"
post "a bad quantity" /v1/admit "$tmp/review.json"; is "admit: an object the decoders refuse is 400" 400
expect "admit: the decoder's message, naming the object's field" '.message | test("request.object") and test("memory")'
kill -TERM "$serve_pid"; wait "$serve_pid"

start admit-adjust -S "$ex" --admission-mode adjust --admission-exempt-user jane@example.com
admit "adjust: an HPA's scale to 6" "$adm/scale-up.json"
expect "adjust: the replicas that schedule at the current requests" \
  '.response.allowed and .response.patchType == "JSONPatch" and (.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/replicas", "value": 2}] and (.response.warnings[0] | endswith("adjusted: Deployment replicas 6 -> 2, what schedules at the current requests"))'
reinvoke "adjust: the scale, reinvoked" "$adm/scale-up.json"
admit "adjust: a StatefulSet's scale to 8" "$adm/statefulset-scale-up.json"
expect "adjust: the StatefulSet's Scale set to the 5 that schedule" '(.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/replicas", "value": 5}]'
reinvoke "adjust: the StatefulSet's scale, reinvoked" "$adm/statefulset-scale-up.json"
admit "adjust: a Deployment's new requests" "$adm/deployment-update.json"
expect "adjust: patched to the plan" '.response.allowed and .response.patchType == "JSONPatch"'
reinvoke "adjust: the Deployment, reinvoked" "$adm/deployment-update.json"
admit "adjust: a dry run" "$adm/scale-up-dry-run.json"
expect "adjust: a dry run is only warned about" --arg w "$pending" \
  '.response.allowed and .response.patch == null and .response.warnings == ["fitscale: a dry run: the mode adjust only warns", $w]'
admit "adjust: a resize the kubelet would defer" "$adm/pod-resize-deferred.json"
expect "adjust: the resize patched to the largest the kubelet allocates now" --arg w "$resize_deferred; adjusted to it" \
  '.response.allowed and (.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/containers/0/resources/requests/memory", "value": "12110Mi"}] and .response.warnings == [$w] and .response.auditAnnotations.verdict == "adjusted"'
reinvoke "adjust: the deferred resize, reinvoked" "$adm/pod-resize-deferred.json"
admit "adjust: an Infeasible resize" "$adm/pod-resize-infeasible.json"
expect "adjust: a limit equal to its request follows it (the QoS class stays)" \
  '(.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/containers/0/resources/requests/memory", "value": "12110Mi"}, {"op": "add", "path": "/spec/containers/0/resources/limits/memory", "value": "12110Mi"}]'
reinvoke "adjust: the infeasible resize, reinvoked" "$adm/pod-resize-infeasible.json"
jq '.request.object.spec.containers[0].resources = {"requests": {"cpu": "500m", "memory": "15Gi"}, "limits": {"cpu": "2", "memory": "16Gi"}} | .request.object.spec.containers[0].resources.requests.cpu = "4"' \
  "$adm/pod-resize-deferred.json" >"$tmp/review.json"
admit "adjust: a resize short of cpu and memory" "$tmp/review.json"
expect "adjust: both taken back as far as needed: cpu to what is free, memory to the MiB below" \
  '(.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/containers/0/resources/requests/cpu", "value": "2340m"}, {"op": "add", "path": "/spec/containers/0/resources/requests/memory", "value": "12110Mi"}]'
reinvoke "adjust: the cpu and memory resize, reinvoked" "$tmp/review.json"
# three containers, two of them grown: the same fraction of each increase taken back, named per container
jq --slurpfile pods "$ex/pods.json" '($pods[0].items[] | select(.metadata.name == "ebs-csi-node-549gf")) as $p
  | .request.name = $p.metadata.name | .request.namespace = $p.metadata.namespace | .request.oldObject = $p
  | .request.object = ($p | .spec.containers[0].resources = {"requests": {"cpu": "10m", "memory": "8Gi"}, "limits": {"memory": "8Gi"}}
                         | .spec.containers[1].resources = {"requests": {"cpu": "10m", "memory": "4Gi"}, "limits": {"memory": "4Gi"}})' \
  "$adm/pod-resize-deferred.json" >"$tmp/multi.json"
admit "adjust: a resize of two containers of three" "$tmp/multi.json"
expect "adjust: both containers named, both taken back by the same fraction, to what is free" \
  '(.response.warnings[0] | test("to ebs-plugin:memory=8Gi,node-driver-registrar:memory=4Gi would be Deferred on ip-10-0-1-23.ec2.internal: .*; the largest that fits now is ebs-plugin:memory=4024Mi,node-driver-registrar:memory=2022Mi; adjusted to it$"))
   and (.response.patch | @base64d | fromjson) == [{"op": "add", "path": "/spec/containers/0/resources/requests/memory", "value": "4024Mi"}, {"op": "add", "path": "/spec/containers/0/resources/limits/memory", "value": "4024Mi"}, {"op": "add", "path": "/spec/containers/1/resources/requests/memory", "value": "2022Mi"}, {"op": "add", "path": "/spec/containers/1/resources/limits/memory", "value": "2022Mi"}]'
reinvoke "adjust: the two containers' resize, reinvoked" "$tmp/multi.json"
jq '.request.dryRun = true' "$adm/pod-resize-deferred.json" >"$tmp/review.json"
admit "adjust: a dry-run resize" "$tmp/review.json"
expect "adjust: a dry-run resize is only warned about" --arg w "$resize_deferred" \
  '.response.allowed and .response.patch == null and .response.warnings == ["fitscale: a dry run: the mode adjust only warns", $w]'
jq '.request.userInfo.username = "jane@example.com"' "$adm/scale-up.json" >"$tmp/review.json"
admit "adjust: an exempt user" "$tmp/review.json"
expect "adjust: an exempt user's write passes untouched" '.response.allowed and .response.patch == null and .response.warnings == null and .response.auditAnnotations.verdict == "exempt"'
kill -TERM "$serve_pid"; wait "$serve_pid"

# the namespace's label sets the mode; a node autoscaler makes every mode warn
cat >"$tmp/ns.json" <<'JSON'
{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "production", "labels": {"fitscale.io/admission": "deny"}}}
JSON
start admit-ns -S "$ex" -S "$tmp/ns.json"
admit "namespace label deny" "$adm/scale-up.json"
expect "namespace label deny: the Scale refused" '(.response.allowed | not) and (.response.status.message | test("the plan is 6 x 3917Mi$"))'
admit "namespace label, annotation adjust" "$adm/deployment-update-adjust.json"
expect "the workload's annotation wins over its namespace's label" '.response.allowed and .response.patchType == "JSONPatch"'
kill -TERM "$serve_pid"; wait "$serve_pid"
start admit-karpenter -S "$ex" --admission-mode deny --node-autoscaler karpenter
admit "deny with Karpenter" "$adm/scale-up.json"
expect "deny with Karpenter: only a warning (Pending is its signal)" --arg w "$pending" \
  '.response.allowed and .response.patch == null and .response.warnings[1] == $w and (.response.warnings[0] | test("karpenter is the node autoscaler"))'
admit "deny with Karpenter: a resize the kubelet would defer" "$adm/pod-resize-deferred.json"
expect "deny with Karpenter: a Deferred resize is refused (no Pending pod for a node autoscaler to see)" --arg m "$resize_deferred" \
  '(.response.allowed | not) and .response.status.code == 403 and .response.status.message == "fitscale denied (fitscale.io/admission: deny) " + ($m | ltrimstr("fitscale: "))'
kill -TERM "$serve_pid"; wait "$serve_pid"
check "--admission-mode must be a mode" 2 "$bin" serve --admission-mode block -S "$ex"
check "--node-autoscaler must be known" 2 "$bin" serve --node-autoscaler keda -S "$ex"

# a snapshot older than --admission-max-age: allowed, with a warning, in any mode
start admit-stale -S "$ex" --admission-mode deny --admission-max-age 0.001
admit "stale snapshot" "$adm/scale-up.json"
expect "stale snapshot: allowed unjudged, with a warning" \
  '.response.allowed and .response.patch == null and (.response.warnings[0] | test("^fitscale: not judged: the snapshot is [0-9.]+ s old \\(over --admission-max-age 0.001 s\\)$")) and .response.auditAnnotations.verdict == "not-judged"'
kill -TERM "$serve_pid"; wait "$serve_pid"

# docs/admission.md: each answer shown after a line "<!-- admit: SERVE-FLAGS: FIXTURE -->" is
# the one a server with those flags gives to tests/data/admission/FIXTURE
doc_answers=0 collecting=0 in_block=0
while IFS= read -r line; do
  case $line in
    '<!-- admit: '*)
      spec=${line#<!-- admit: }; spec=${spec% -->}
      doc_flags=${spec%%: *} doc_fixture=${spec#*: } collecting=1
      : >"$tmp/doc-answer.json"
      continue ;;
  esac
  [ "$collecting" = 1 ] || continue
  if [ "$in_block" = 0 ]; then [ "$line" = '```json' ] && in_block=1; continue; fi
  if [ "$line" != '```' ]; then printf '%s\n' "$line" >>"$tmp/doc-answer.json"; continue; fi
  collecting=0 in_block=0 doc_answers=$((doc_answers + 1))
  # shellcheck disable=SC2086
  start "doc-admit-$doc_answers" -S "$ex" $doc_flags
  post "docs/admission.md: $doc_flags: $doc_fixture" /v1/admit "$adm/$doc_fixture"
  same_json "docs/admission.md: the answer shown to $doc_fixture ($doc_flags)" "$tmp/doc-answer.json"
  kill -TERM "$serve_pid"; wait "$serve_pid"
done <"$src/docs/admission.md"
if [ "$doc_answers" -ge 5 ]; then ok "docs/admission.md: $doc_answers answers checked"; else not_ok "docs/admission.md: only $doc_answers answers found"; fi

# deploy/webhook.yaml and deploy/webhook-certs.sh (issue 19)
python3 - "$src/deploy/webhook.yaml" >"$tmp/out" <<'PY'
import json, sys, yaml
print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))
PY
expect "webhook.yaml: opt-in, Equivalent, Ignore, 2 s, no side effects, IfNeeded, cert-manager's CA" \
  '(.[] | select(.kind == "MutatingWebhookConfiguration")) as $c | $c.webhooks[0] as $w
   | $c.metadata.annotations["cert-manager.io/inject-ca-from"] == "fitscale/fitscale-serving"
   and $w.namespaceSelector.matchExpressions[0].key == "fitscale.io/admission" and $w.matchPolicy == "Equivalent"
   and $w.failurePolicy == "Ignore" and $w.timeoutSeconds == 2 and $w.sideEffects == "None"
   and $w.reinvocationPolicy == "IfNeeded" and $w.admissionReviewVersions == ["v1"]
   and $w.clientConfig.service.path == "/v1/admit"
   and ([$w.rules[].resources[]] | sort) == ["deployments", "deployments/scale", "pods/resize", "statefulsets", "statefulsets/scale"]
   and ($w.rules[] | select(.resources == ["pods/resize"])) == {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["UPDATE"], "resources": ["pods/resize"], "scope": "Namespaced"}
   and ((.[] | select(.kind == "Certificate")).spec.secretName == "fitscale-tls")'
check "webhook-certs.sh --dry-run: openssl makes the CA and the certificate" 0 "$src/deploy/webhook-certs.sh" --dry-run --dir "$tmp/certs"
python3 -c 'import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(sys.stdin))))' <"$tmp/out" >"$tmp/webhook.json" && cp "$tmp/webhook.json" "$tmp/out"
expect "webhook-certs.sh: the webhook alone, its caBundle the CA" --arg ca "$(base64 <"$tmp/certs/ca.crt" | tr -d '\n')" \
  'length == 1 and .[0].kind == "MutatingWebhookConfiguration" and .[0].webhooks[0].clientConfig.caBundle == $ca and .[0].metadata.annotations == null'
check "webhook-certs.sh: the certificate names the Service" 0 openssl x509 -in "$tmp/certs/tls.crt" -noout -ext subjectAltName
contains "webhook-certs.sh: DNS fitscale.fitscale.svc" "DNS:fitscale.fitscale.svc" out

# ---- snapshot completeness (issue 16, bullet 3): warnings first in every answer ----
start warn -S "$src/tests/fixtures/real/k3s-1node-nodes.json" -S "$src/tests/fixtures/real/k3s-1node-pods-default-pending.json"
printf '{"request":"cpu=100m,memory=128Mi"}' >"$tmp/small.json"
post "warnings: capacity" /v1/capacity "$tmp/small.json"; is "warnings: POST /v1/capacity" 200
expect "capacity: warnings first" 'keys_unsorted[0] == "warnings"'
expect "capacity: NamespacesMissing, naming default" '[.warnings[].reason] == ["NamespacesMissing"] and (.warnings[0].message | test("\\(default\\)"))'
pod=$(jq -r '.items[] | select(.status.phase == "Pending") | .metadata.name' "$src/tests/fixtures/real/k3s-1node-pods-default-pending.json" | head -1)
get "/v1/why/default/$pod"; is "warnings: GET /v1/why" 200
expect "why: warnings first, the same" 'keys_unsorted[0] == "warnings" and [.warnings[].reason] == ["NamespacesMissing"]'
kill -TERM "$serve_pid"; wait "$serve_pid"
# live: the API server goes away after the first list; the watch fails, the answers say so
fake_api stale "$ex"/*.json
stale_pid=${pids[${#pids[@]}-1]}
start stale --server "http://127.0.0.1:$port" --watch-timeout 1 --max-staleness 1
get /v1/why/production/rag-api-7948f7fb7-dc5k8; is "stale: GET /v1/why while the watch works" 200
expect "stale: no warning yet" '.warnings == []'
kill "$stale_pid"; wait "$stale_pid" 2>/dev/null
for _ in $(seq 150); do  # --max-staleness 1: well within 15 s, also under ASan on a busy machine
  get /v1/why/production/rag-api-7948f7fb7-dc5k8
  jq -e '.warnings | length > 0' "$tmp/out" >/dev/null 2>&1 && break
  sleep 0.1
done
expect "stale: SnapshotStale, with the watch's error" '[.warnings[].reason] == ["SnapshotStale"] and (.warnings[0].message | test("the watch of the cluster has failed since"))'
post "stale: an HPA's scale write" /v1/admit "$src/tests/data/admission/scale-up.json"; is "stale: POST /v1/admit" 200
expect "stale: the write allowed unjudged, with a warning naming the resource" \
  '.response.allowed and .response.patch == null and (.response.warnings[0] | startswith("fitscale: not judged: the snapshot is not current: ")) and .response.auditAnnotations.verdict == "not-judged"'
kill -TERM "$serve_pid"; wait "$serve_pid"

tap_end

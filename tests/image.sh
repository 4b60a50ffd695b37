#!/usr/bin/env bash
# The container image (deploy/build-image): built twice, the same bytes; an OCI archive that
# loads as podman load and docker load read it; exactly the files and the configuration it is
# meant to hold; deploy/Containerfile's last stage gives the same image on the same files; and,
# run from the loaded archive with its root file system read-only, as its user 65532 with no
# capabilities: fitscale --version, nodes -S on the bundled example (mounted read-only) as the
# release build answers here, and serve answering /readyz and POST /v1/plan on loopback, then
# SIGTERM ending it with status 0.  Where buildah cannot run (not root, no apt-get to install
# it, no mount namespaces) the whole suite is one SKIP that says why.  Not in make check: it
# builds _build/release and the image (a minute or two); ./check runs it.  Speaks TAP.
set -u
cd "$(dirname "$0")/.." || exit 1
# a mount namespace of its own: the read-only bind of the container's root (below) goes with it
if [ -z "${FS_IMAGE_NS:-}" ] && [ "$(id -u)" = 0 ] && unshare --mount true 2>/dev/null; then
  FS_IMAGE_NS=1 exec unshare --mount --propagation private "$BASH" "$PWD/tests/image.sh" "$@"
fi
export FS_SRCDIR=$PWD FS_BUILDDIR=$PWD/_build/release
. tests/lib.sh
archive=_build/fitscale-image.tar
work=$PWD/_build/image
export BUILDAH_ISOLATION=chroot KUBECONFIG="$tmp/none"
unset FS_IMAGE
bt() { buildah --root "$work/test-storage" --runroot "$work/test-run" --storage-driver vfs "$@"; }
mnt=""
finish() {
  cleanup
  [ -z "$mnt" ] || { umount "$mnt/run"; umount "$mnt"; } 2>/dev/null
  if command -v buildah >/dev/null; then
    bt rm --all >/dev/null 2>&1; bt rmi --all --force >/dev/null 2>&1
  fi
}
trap finish EXIT
# has NAME FILE JQ_FILTER [jq options]: the JSON in FILE satisfies the filter
has() {
  local name=$1 file=$2 filter=$3; shift 3
  if jq -e "$@" "$filter" "$file" >/dev/null 2>&1; then ok "$name"
  else jq -c . "$file" 2>&1 | head -c 600 | sed 's/^/# /'; echo; not_ok "$name"; fi
}
# same_lists NAME EXPECTED ACTUAL: two sorted lists (files) are equal
same_lists() {
  if diff "$2" "$3" >"$tmp/diff"; then ok "$1"; else sed 's/^/# /' "$tmp/diff" | head -20; not_ok "$1"; fi
}

# ---- the build --------------------------------------------------------------------------
deploy/build-image >"$tmp/build.out" 2>"$tmp/build.err"
status=$?
if [ "$status" = 77 ]; then
  echo "1..0 # SKIP $(tail -1 "$tmp/build.err")"
  exit 0
fi
if [ "$status" != 0 ]; then
  echo "# deploy/build-image: exit $status"; tail -20 "$tmp/build.err" | sed 's/^/# /'
  not_ok "deploy/build-image builds $archive"; tap_end; exit 1
fi
ok "deploy/build-image builds $archive"
sed -n '1,6s/^/# /p' "$tmp/build.out"
sha=$(sha256sum "$archive" | cut -d' ' -f1)
if deploy/build-image >/dev/null 2>"$tmp/build.err" && [ "$(sha256sum "$archive" | cut -d' ' -f1)" = "$sha" ]; then
  ok "built again: the same bytes (sha256 $sha)"
else
  tail -5 "$tmp/build.err" | sed 's/^/# /'; not_ok "built again: the same bytes"
fi

# ---- the archive ------------------------------------------------------------------------
version=$("$bin" --version | awk '{ print $2 }')
image=ghcr.io/fitscale/fitscale:$version
oci=$tmp/oci
mkdir "$oci" && tar -xf "$archive" -C "$oci"
blob() { echo "$oci/blobs/sha256/${1#sha256:}"; }
has "an OCI layout" "$oci/oci-layout" '.imageLayoutVersion == "1.0.0"'
has "index.json: one image, named $image for podman load and containerd" "$oci/index.json" \
  '.manifests | length == 1 and (.[0].annotations | ."org.opencontainers.image.ref.name" == $i and ."io.containerd.image.name" == $i)' --arg i "$image"
manifest=$(blob "$(jq -r '.manifests[0].digest' "$oci/index.json")")
config_digest=$(jq -r '.config.digest' "$manifest")
config=$(blob "$config_digest")
layer_digest=$(jq -r '.layers[0].digest' "$manifest")
layer=$(blob "$layer_digest")
has "manifest.json (docker load before Docker 25): the same config and layer, tagged $image" "$oci/manifest.json" \
  '. == [{Config: ("blobs/sha256/" + ($c | ltrimstr("sha256:"))), RepoTags: [$i], Layers: ["blobs/sha256/" + ($l | ltrimstr("sha256:"))]}]' \
  --arg c "$config_digest" --arg l "$layer_digest" --arg i "$image"
for f in "$manifest" "$config" "$layer"; do
  [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$(basename "$f")" ] || echo "# $f: not its digest" >>"$tmp/digests"
done
if [ -s "$tmp/digests" ]; then cat "$tmp/digests"; not_ok "every blob is its digest"; else ok "every blob is its digest"; fi
has "config: user 65532, entrypoint /usr/bin/fitscale, command serve --listen :8443, port 8443" "$config" \
  '.config | .User == "65532:65532" and .Entrypoint == ["/usr/bin/fitscale"] and .Cmd == ["serve","--listen",":8443"] and .ExposedPorts == {"8443/tcp":{}}'
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
has "labels: source, version $version, revision ${revision:0:12}, licenses; no others" "$config" \
  '.config.Labels | (keys | map(ltrimstr("org.opencontainers.image.")) == ["licenses","revision","source","version"])
     and .["org.opencontainers.image.version"] == $v and (.["org.opencontainers.image.revision"] | startswith($r))' \
  --arg v "$version" --arg r "$revision"
has "created at SOURCE_DATE_EPOCH (the last commit's time), no history" "$config" \
  '(.created | fromdateiso8601) == ($e | tonumber) and (has("history") | not)' \
  --arg e "${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}"
size=$(stat -c %s "$layer")
if [ "$(jq '.layers | length' "$manifest")" = 1 ] && [ "$size" -lt 15000000 ]; then
  ok "one layer, $size bytes compressed: under 15 MB"
else not_ok "one layer under 15 MB compressed ($size bytes)"; fi
if grep -qx "        image: $image" deploy/fitscale.yaml; then ok "deploy/fitscale.yaml runs $image"
else not_ok "deploy/fitscale.yaml runs $image"; fi

# ---- the layer: exactly the files it should hold -----------------------------------------
tar -tvzf "$layer" >"$tmp/layer.list"
# each library ldd lists and the loader, at the path the loader finds it by (through /lib -> usr/lib)
here() { echo "$(realpath "$(dirname "$1")")/$(basename "$1")" | sed 's|^/||'; }
{
  for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do here "$lib"; done
  here "$(readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')"
  printf '%s\n' usr/bin/fitscale etc/ssl/certs/ca-certificates.crt etc/passwd etc/group etc/nsswitch.conf
} | sort -u >"$tmp/want"
awk '$1 ~ /^-/ { print $6 }' "$tmp/layer.list" | sed 's|^\./||' | sort >"$tmp/got"
same_lists "files: fitscale, the libraries and loader it links, the CA bundle, passwd, group, nsswitch.conf; nothing else" "$tmp/want" "$tmp/got"
awk '$1 ~ /^-..x/ { print $6 }' "$tmp/layer.list" | sed 's|^\./||' | sort >"$tmp/got"
{ echo usr/bin/fitscale; here "$(readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')"; } | sort >"$tmp/want"
same_lists "programs: fitscale and the loader; no shell, no package manager" "$tmp/want" "$tmp/got"
if awk '$2 != "0/0" || ($1 !~ /^l/ && $1 ~ /^.....w|^........w/) { bad = 1; print "# " $0 } END { exit bad }' "$tmp/layer.list"; then
  ok "every file and directory is root's, writable by root only"
else not_ok "every file and directory is root's, writable by root only"; fi
{ tar -xzOf "$layer" etc/passwd; tar -xzOf "$layer" etc/group; } >"$tmp/out" 2>&1
if [ "$(cut -d: -f3,4 "$tmp/out" | tr '\n' ' ')" = "65532:65532 65532: " ]; then ok "passwd and group: 65532 only"
else not_ok "passwd and group: 65532 only"; fi

# ---- deploy/Containerfile: its last stage on these files is this image -------------------
bt rm --all >/dev/null 2>&1; bt rmi --all --force >/dev/null 2>&1
sed -n '/^FROM scratch/,$p' deploy/Containerfile | sed 's|^COPY --from=build /rootfs/ /$|COPY rootfs/ /|' >"$work/Containerfile.last"
label_revision=$(jq -r '.config.Labels["org.opencontainers.image.revision"]' "$config")
if grep -qx "COPY rootfs/ /" "$work/Containerfile.last" && grep -qx "ARG VERSION=$version" "$work/Containerfile.last" \
   && id=$(bt bud --quiet --identity-label=false --omit-history --timestamp "$(jq -r '.created | fromdateiso8601' "$config")" \
             --build-arg REVISION="$label_revision" -f "$work/Containerfile.last" "$work" 2>"$tmp/err") \
   && [ "sha256:$id" = "$config_digest" ]; then
  ok "deploy/Containerfile (FROM scratch, COPY the rootfs, ARG VERSION=$version): the same image, ${config_digest:0:19}"
else
  echo "# built ${id:-nothing}, wanted $config_digest"; not_ok "deploy/Containerfile's last stage gives the same image"
fi

# ---- loaded from the archive ---------------------------------------------------------------
bt rmi --all --force >/dev/null 2>&1
if id=$(bt pull --quiet "docker-archive:$archive" 2>"$tmp/err") && [ "sha256:$id" = "$config_digest" ]; then
  ok "loads as a docker archive: $image"
else sed 's/^/# /' "$tmp/err"; not_ok "loads as a docker archive"; fi
bt rmi --all --force >/dev/null 2>&1
if id=$(bt pull --quiet "oci-archive:$archive" 2>"$tmp/err") && [ "sha256:$id" = "$config_digest" ] \
   && bt inspect --type image "$image" >/dev/null 2>&1; then
  ok "loads as an OCI archive (as podman load reads it): $image"
else sed 's/^/# /' "$tmp/err"; not_ok "loads as an OCI archive"; fi

# ---- run -------------------------------------------------------------------------------
ctr=$(bt from --quiet --pull-never --name fitscale-smoke "$image" 2>"$tmp/err") || { cat "$tmp/err"; not_ok "a container of $image"; tap_end; exit 1; }
# the first run, read-write, leaves the mount points buildah needs (/dev, /proc, /ex ...)
check "fitscale --version" 0 bt run -v "$ex:/ex:ro" "$ctr" -- /usr/bin/fitscale --version
contains "fitscale --version: $version" "fitscale $version" out
# from here the root is read-only; buildah writes and removes /run/.containerenv, so /run is a
# tmpfs (root's, 0755: not the container user's either)
mnt=$(bt mount "$ctr") && mount --bind "$mnt" "$mnt" && mount -o remount,bind,ro "$mnt" \
  && mount -t tmpfs -o mode=0755,size=1m tmpfs "$mnt/run" \
  || { not_ok "the container's root read-only"; tap_end; exit 1; }
brun() { bt run -v "$ex:/ex:ro" "$ctr" -- /usr/bin/fitscale "$@"; }
check "read-only root: fitscale nodes -S /ex (the example, mounted read-only)" 0 brun nodes -S /ex
"$bin" nodes -S "$ex" >"$tmp/want"
same_lists "nodes -S: the release build's answer here" "$tmp/want" "$tmp/out"

brun serve --listen 127.0.0.1:0 -S /ex >"$tmp/serve.port" 2>"$tmp/serve.log" &
serve_pid=$!
pids+=("$serve_pid")
for _ in $(seq 200); do [ -s "$tmp/serve.port" ] || ! kill -0 "$serve_pid" 2>/dev/null && break; sleep 0.1; done
port=$(head -1 "$tmp/serve.port")
url=http://127.0.0.1:$port
# fitscale itself: the process named fitscale under buildah run's (its parents from /proc)
fitscale_under() {
  local f line pid rest q
  declare -A parent=()
  for f in /proc/[0-9]*/stat; do
    { read -r line <"$f"; } 2>/dev/null || continue
    pid=${line%% *} rest=${line##*) }; rest=${rest#* }; parent[$pid]=${rest%% *}
  done
  for pid in "${!parent[@]}"; do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = fitscale ] || continue
    q=$pid
    while [ -n "${parent[$q]:-}" ] && [ "$q" != "$1" ] && [ "$q" -gt 1 ]; do q=${parent[$q]}; done
    [ "$q" = "$1" ] && { echo "$pid"; return; }
  done
}
fpid=$(fitscale_under "$serve_pid")
if [ -n "$port" ] && [ -n "$fpid" ]; then
  pids+=("$fpid")
  ok "serve: listening on 127.0.0.1:$port (pid $fpid)"
else
  sed 's/^/# /' "$tmp/serve.log"; not_ok "serve: listening"; tap_end; exit 1
fi
code=$(curl -s --max-time 10 -o "$tmp/out" -w '%{http_code}' "$url/readyz")
if [ "$code" = 200 ]; then ok "serve: /readyz 200"; else echo "# HTTP $code"; not_ok "serve: /readyz"; fi
code=$(curl -s --max-time 10 -o "$tmp/out" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
            --data-binary "@$src/docs/api/plan.request.json" "$url/v1/plan")
if [ "$code" = 200 ] && [ "$(jq -S 'del(.snapshot)' "$tmp/out")" = "$(jq -S 'del(.snapshot)' "$src/docs/api/plan.response.json")" ]; then
  ok "serve: POST /v1/plan 200, docs/api/plan.response.json"
else echo "# HTTP $code"; head -c 300 "$tmp/out" | sed 's/^/# /'; echo; not_ok "serve: POST /v1/plan"; fi
if grep -qx $'Uid:\t65532\t65532\t65532\t65532' "/proc/$fpid/status" && grep -qx $'Gid:\t65532\t65532\t65532\t65532' "/proc/$fpid/status" \
   && grep -qx $'CapEff:\t0000000000000000' "/proc/$fpid/status"; then
  ok "serve: runs as 65532:65532 (the image's USER), no capabilities"
else grep -E '^(Uid|Gid|CapEff)' "/proc/$fpid/status" | sed 's/^/# /'; not_ok "serve: runs as 65532:65532, no capabilities"; fi
if awk '$5 == "/" { o = $6 } END { exit !(o ~ /^ro(,|$)/) }' "/proc/$fpid/mountinfo"; then
  ok "serve: its root file system is read-only"
else awk '$5 == "/"' "/proc/$fpid/mountinfo" | sed 's/^/# /'; not_ok "serve: its root file system is read-only"; fi
kill -TERM "$fpid"
for _ in $(seq 100); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$serve_pid" 2>/dev/null; then
  kill -KILL "$fpid" 2>/dev/null; not_ok "serve: SIGTERM ends it within 10 s"
else
  wait "$serve_pid"; status=$?
  if [ "$status" = 0 ]; then ok "serve: SIGTERM ends it, status 0"; else sed 's/^/# /' "$tmp/serve.log"; not_ok "serve: SIGTERM ends it, status 0 (got $status)"; fi
fi
tap_end

# fitscale — shared set-up for ./demo and ./check (sourced, not run).
# Installs what is missing (Debian 12, as root, with apt-get), then configures and builds
# in _build/NAME.  Usage: fs_bootstrap NAME [configure options...]

FS_PACKAGES="autoconf automake libtool pkg-config make gcc libc6-dev
 libcurl4-openssl-dev libyajl-dev libglib2.0-dev libcmocka-dev libyaml-dev
 libmicrohttpd-dev libgnutls28-dev libgmp-dev jq time python3 python3-yaml python3-jsonpatch openssl"

fs_missing_packages() {
  local missing="" pkg
  for pkg in $FS_PACKAGES; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $pkg"
  done
  echo "$missing"
}

fs_install_packages() {
  local missing
  missing=$(fs_missing_packages)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "fitscale: missing packages:$missing" >&2
    echo "fitscale: install them (apt-get install$missing) or run this as root" >&2
    return 1
  fi
  echo "fitscale: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >&2
}

fs_bootstrap() {
  local name=$1; shift
  fs_install_packages || return 1
  if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
    autoreconf -fi >&2 || return 1
  fi
  mkdir -p "_build/$name"
  if [ ! -f "_build/$name/Makefile" ] || [ configure -nt "_build/$name/Makefile" ]; then
    (cd "_build/$name" && ../../configure --quiet "$@" >&2) || return 1
  fi
  make -s -C "_build/$name" -j"$(nproc 2>/dev/null || echo 2)" >&2
}

#!/usr/bin/env bash
# Builds hopsim's Debian package, installs it, uses it as a user would, removes it and checks
# that nothing of it is left (docs/install.md, "The Debian package").
#
#   scripts/check_deb.sh [BUILD_DIR]    BUILD_DIR defaults to build-deb
#
# Needs root (apt-get). The build is a Release build for the prefix /usr without tests and
# benchmarks, with ccache when there is one; the package is BUILD_DIR/hopsim_<version>_amd64.deb
# and stays there. Installed, it must give `hopsim` on PATH, `import hopsim` for /usr/bin/python3,
# and the headers and CMake package of an outside C++ program; `apt-get purge` must then remove
# every file it brought. Refuses to run when dpkg knows a hopsim package already. Packages that
# the .deb's Depends pull in are purged with it, so the machine is left as it was.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-deb}

step() { printf '\n== check_deb.sh: %s\n' "$*"; }
fail() {
  echo "check_deb.sh: FAILED: $*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (apt-get install and purge): run it as root or with sudo"
if dpkg -s hopsim >/dev/null 2>&1; then
  fail "dpkg knows a hopsim package already ($(dpkg-query -W -f='${Version} ${Status}' hopsim)):" \
    "purge it first (apt-get purge hopsim)"
fi

step "building $build/ and the package"
# shellcheck source=scripts/common.sh
source scripts/common.sh
hopsim_install_packages
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DHOPSIM_TESTS=OFF -DHOPSIM_BENCH=OFF -DHOPSIM_PYTHON=ON "${launcher[@]}" >/dev/null
cmake --build "$build" -j 2
rm -f "$build"/hopsim_*.deb
(cd "$build" && cpack -G DEB)
debs=("$build"/hopsim_*_amd64.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  fail "cpack wrote no $build/hopsim_*_amd64.deb"
fi
deb=$(realpath "${debs[0]}")
version=$(dpkg-deb --field "$deb" Version)
[ "$(basename "$deb")" = "hopsim_${version}_amd64.deb" ] || fail "$deb is not named for $version"

step "what $deb holds"
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
depends=$(dpkg-deb --field "$deb" Depends)
for needed in python3-numpy "python3 (>= " libeigen3-dev libsundials-dev libfcl-dev \
  libyaml-cpp-dev libmuparser-dev libhdf5-dev libsundials-cvode libhdf5-103 libstdc++6; do
  [[ $depends == *"$needed"* ]] || fail "Depends has no '$needed': $depends"
done
work=$(mktemp -d /tmp/hopsim-check-deb.XXXXXX)
# The package's paths, as installed: /usr/bin/hopsim, ... (directories without a trailing /).
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/\?$' \
  >"$work/paths"
for path in /usr/bin/hopsim /usr/lib/python3/dist-packages/hopsim/__init__.py \
  /usr/lib/python3/dist-packages/hopsim/_build_info.py /usr/include/hopsim/core/version.h \
  /usr/lib/x86_64-linux-gnu/cmake/hopsim/hopsimConfig.cmake \
  /usr/lib/x86_64-linux-gnu/libhopsim_core.a /usr/share/doc/hopsim/examples/lander.yaml; do
  grep -qx "$path" "$work/paths" || fail "the package has no $path"
done
grep -q '^/usr/lib/python3/dist-packages/hopsim/_hopsim\..*\.so$' "$work/paths" ||
  fail "the package has no compiled module /usr/lib/python3/dist-packages/hopsim/_hopsim.*.so"
outside=$(grep -v '^/usr\(/\|$\)' "$work/paths" || true)
[ -z "$outside" ] || fail "the package installs outside /usr: $outside"
# What exists before the install (shared directories such as /usr/bin): purging must leave
# exactly that.
while read -r path; do
  [ ! -e "$path" ] || echo "$path"
done <"$work/paths" | sort >"$work/before"

step "installing $deb"
# Packages the Depends bring in are purged again at the end.
brought=$(apt-get install -s "$deb" | awk '/^Inst / && $2 != "hopsim" { print $2 }' | tr '\n' ' ')
[ -z "$brought" ] || echo "the package's Depends bring in: $brought"
remove() {
  if dpkg -s hopsim >/dev/null 2>&1; then
    step "purging hopsim $brought"
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq hopsim $brought >/dev/null
  fi
}
trap 'remove; rm -rf "$work"' EXIT
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
# postinst byte-compiled the package; prerm must remove that again (checked at the end).
compgen -G "/usr/lib/python3/dist-packages/hopsim/__pycache__/*.pyc" >/dev/null ||
  fail "postinst compiled no bytecode into /usr/lib/python3/dist-packages/hopsim/__pycache__"

step "the installed hopsim program"
[ "$(command -v hopsim)" = /usr/bin/hopsim ] ||
  fail "hopsim on PATH is '$(command -v hopsim)', not /usr/bin/hopsim"
program_version=$(hopsim --version)
echo "$program_version"
[[ $program_version == "hopsim $version"* ]] || fail "hopsim --version: '$program_version'"
examples=/usr/share/doc/hopsim/examples
(cd "$work" && hopsim run $examples/lander_touchdown.yaml --out touchdown.csv --view touchdown.html)
[ "$(wc -l <"$work/touchdown.csv")" -gt 10 ] || fail "hopsim run wrote no samples"
[ "$(stat -c %s "$work/touchdown.html")" -gt 100000 ] || fail "hopsim run wrote no replay page"
if /usr/bin/python3 -c 'import pandas, matplotlib' 2>/dev/null; then
  hopsim plot "$work/touchdown.csv" -o "$work/touchdown.png"
else
  echo "(hopsim plot not tried: /usr/bin/python3 lacks pandas or matplotlib, the Recommends)"
fi

step "import hopsim with /usr/bin/python3"
# Isolated (-I: no PYTHONPATH, no user site; -S: no site directories, so that a development
# hopsim-dev.pth in /usr/local cannot mask the package), with Debian's directory added as the
# interpreter adds it; that directory is on the interpreter's own path.
/usr/bin/python3 -I -c 'import sys; assert "/usr/lib/python3/dist-packages" in sys.path, sys.path'
python_version=$(cd "$work" && /usr/bin/python3 -I -S -c '
import site
site.addsitedir("/usr/lib/python3/dist-packages")
import hopsim
assert hopsim.__file__ == "/usr/lib/python3/dist-packages/hopsim/__init__.py", hopsim.__file__
sim = hopsim.Simulation(io_step_size=0.5)
sim.add_signal("wave")
sim.add_model("SineWave", "sine", {"frequency": 0.25})
sim.tie("sine", "y", "wave")
sim.lock()
sim.advance_time_to(1.0)
assert abs(sim.get("signals.wave") - 1.0) < 1e-15, sim.get("signals.wave")
print(hopsim.__version__)')
[ "$python_version" = "$version" ] ||
  fail "hopsim.__version__ is '$python_version', the package's version $version"
echo "hopsim $python_version from /usr/lib/python3/dist-packages/hopsim"

step "an outside C++ program against the installed CMake package"
cmake -S tests/install -B "$work/outside" -G Ninja -DHOPSIM_EXAMPLES=$examples \
  "${launcher[@]}" | grep -- "-- hopsim $version from /usr/lib/x86_64-linux-gnu/cmake/hopsim" ||
  fail "configuring tests/install did not find hopsim $version in /usr"
cmake --build "$work/outside"
"$work/outside/custom_model"
"$work/outside/rocket"

remove
trap 'rm -rf "$work"' EXIT
step "what the package left behind"
dpkg -s hopsim >/dev/null 2>&1 && fail "dpkg still knows hopsim after apt-get purge"
while read -r path; do
  [ ! -e "$path" ] || echo "$path"
done <"$work/paths" | sort >"$work/after"
left=$(comm -13 "$work/before" "$work/after")
[ -z "$left" ] || fail "left behind after apt-get purge: $left"
echo "nothing"
step "ok: built, installed, used and removed $deb"

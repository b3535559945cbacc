# Shared by run.sh and test.sh: install missing Debian packages, configure and build.
# Sourced, not run.

# Debian 12 packages the build and tests need (DESIGN.md section 1). ccache is optional: where it
# is installed, a rebuild of sources this build directory has compiled before is a cache hit.
HOPSIM_PACKAGES=(cmake g++ ninja-build ccache libeigen3-dev libcli11-dev doctest-dev
  libbenchmark-dev libsundials-dev libyaml-cpp-dev libmuparser-dev libfcl-dev pybind11-dev
  python3-dev python3-numpy python3-pytest python3-pandas python3-matplotlib graphviz libhdf5-dev
  python3-h5py chromium python3-scipy python3-distributed clang-format)

hopsim_install_packages() {
  local missing=()
  for package in "${HOPSIM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  # The replay viewer's build (viewer/web) needs Node.js and npm: Debian's, unless the machine
  # has them already (a Node.js from elsewhere brings its own npm, which Debian's would clash
  # with).
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# hopsim_build DIR [-DNAME=VALUE...] [--target NAME...]: configure when DIR is new or when a
# -DNAME=VALUE option differs from DIR's cache (an option whose default changed since DIR was
# configured, say), then build the named targets (all without one) incrementally with 2 jobs.
# With ccache installed, compilations go through it, with paths inside the checkout hashed
# relative to it (sources that use a precompiled header still miss in another clone: the .gch
# differs with the clone's path).
hopsim_build() {
  local dir=$1
  shift
  local options=() targets=()
  while [ $# -gt 0 ]; do
    if [ "$1" = "--target" ]; then
      targets+=(--target "$2")
      shift 2
    else
      options+=("$1")
      shift
    fi
  done
  if command -v ccache >/dev/null; then
    options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="$PWD"
    # The precompiled headers (HOPSIM_PRECOMPILED_HEADERS) are cacheable only with these.
    export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
  else
    options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
  fi
  local configure=0 option name value
  [ -f "$dir/build.ninja" ] || configure=1
  for option in "${options[@]}"; do
    [[ $option == -D*=* ]] || continue
    option=${option#-D}
    name=${option%%=*}
    name=${name%%:*}
    value=${option#*=}
    [ "$(grep -m1 "^$name:" "$dir/CMakeCache.txt" 2>/dev/null | cut -d= -f2-)" = "$value" ] ||
      configure=1
  done
  if [ "$configure" -eq 1 ]; then
    cmake -S . -B "$dir" -G Ninja "${options[@]}"
  fi
  cmake --build "$dir" -j 2 "${targets[@]}"
  hopsim_python_path "$dir"
}
# hopsim_python_path DIR [SITE]: makes `import hopsim` find DIR's Python package from anywhere,
# without PYTHONPATH, by a development .pth file (hopsim-dev.pth, holding the absolute path of
# DIR/python) in SITE, by default the system interpreter's first site directory
# (/usr/local/lib/python3.11/dist-packages on Debian 12). Only for a build with the module and
# without the sanitizers (an instrumented module cannot be loaded by /usr/bin/python3). Writes
# only when the content changes; without write permission it prints how to set PYTHONPATH.
hopsim_python_path() {
  local dir=$1 site=${2:-}
  compgen -G "$dir/python/hopsim/_hopsim*.so" >/dev/null || return 0
  grep -q "^HOPSIM_SANITIZE:BOOL=ON" "$dir/CMakeCache.txt" 2>/dev/null && return 0
  local package
  package=$(cd "$dir/python" && pwd)
  if [ -z "$site" ]; then
    [ -x /usr/bin/python3 ] || return 0
    site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')
  fi
  local pth="$site/hopsim-dev.pth"
  [ "$(cat "$pth" 2>/dev/null)" = "$package" ] && return 0
  if { [ -d "$site" ] || mkdir -p "$site" 2>/dev/null; } && [ -w "$site" ] &&
    printf '%s\n' "$package" >"$pth" 2>/dev/null; then
    echo "hopsim: $pth makes 'import hopsim' use $package"
    # A package installed in the site directory itself comes before the .pth's entry.
    [ -e "$site/hopsim" ] && echo "hopsim: note: the installed $site/hopsim takes precedence"
  else
    echo "hopsim: to import hopsim from this checkout: export PYTHONPATH=$package"
  fi
  return 0
}

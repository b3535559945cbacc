# Shared by run.sh and test.sh: install missing Debian packages, configure and build.
# Sourced, not run.

# Debian 12 packages the build and tests need (DESIGN.md section 1).
HOPSIM_PACKAGES=(cmake g++ ninja-build libeigen3-dev libcli11-dev doctest-dev libbenchmark-dev
  libsundials-dev libyaml-cpp-dev libmuparser-dev libfcl-dev pybind11-dev python3-dev python3-numpy
  python3-pytest python3-pandas python3-matplotlib)

hopsim_install_packages() {
  local missing=()
  for package in "${HOPSIM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# hopsim_build DIR [cmake options...]: configure when DIR is new or when a -DNAME=VALUE option
# differs from DIR's cache (an option whose default changed since DIR was configured, say), then
# build incrementally with 2 jobs.
hopsim_build() {
  local dir=$1
  shift
  local configure=0 option name value
  [ -f "$dir/build.ninja" ] || configure=1
  for option in "$@"; do
    [[ $option == -D*=* ]] || continue
    option=${option#-D}
    name=${option%%=*}
    name=${name%%:*}
    value=${option#*=}
    [ "$(grep -m1 "^$name:" "$dir/CMakeCache.txt" 2>/dev/null | cut -d= -f2-)" = "$value" ] ||
      configure=1
  done
  if [ "$configure" -eq 1 ]; then
    cmake -S . -B "$dir" -G Ninja "$@"
  fi
  cmake --build "$dir" -j 2
}

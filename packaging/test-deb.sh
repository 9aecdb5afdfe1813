#!/usr/bin/env bash
# Installer smoke test (Debian/Ubuntu, as root): builds the .deb, installs it with apt-get, runs the installed
# `drainboard` command (CLI and console), and removes it again, checking that nothing is left behind.
#
#   packaging/test-deb.sh [--runs N] [--no-build]
#
#   --runs N    start the installed console N times (default 3) and report the median start-up figures
#   --no-build  test the .deb already in packaging/target/installers
#
# The console runs under Xvfb on the embedded demo cluster, each time with a fresh home folder. A run passes when
# the app prints its first-frame and cluster-populated lines, a screenshot of the screen is not blank, and the
# home folder holds no unpacked JavaFX libraries (~/.openjfx). Figures go to stdout (see docs/benchmarks.md).
# DRAINBOARD_DEB_COMPRESSION (default here: zstd, faster to build than the release's xz) is passed on.
set -euo pipefail
trap 'echo "FAIL: packaging/test-deb.sh stopped at line $LINENO" >&2' ERR

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/packaging/target/test-deb"

# --- inside Xvfb: start the console N times ---------------------------------------------------------------
if [ "${1:-}" = --inside-xvfb ]; then
  runs="$2"
  for i in $(seq 1 "$runs"); do
    home="$work/home-$i"
    rm -rf "$home" && mkdir -p "$home"
    log="$work/run-$i.log"
    start=$(date +%s%N)
    HOME="$home" DRAINBOARD_JAVA_OPTS="-Duser.home=$home" drainboard > "$log" 2>&1 &
    pid=$!
    first="" populated=""
    for _ in $(seq 1 3000); do   # up to 60 s
      now=$(date +%s%N)
      [ -z "$first" ] && grep -q "drainboard: first frame" "$log" && first=$(( (now - start) / 1000000 ))
      if grep -q "drainboard: cluster populated" "$log"; then
        populated=$(( (now - start) / 1000000 ))
        # CPU time (user + system, all threads) the app used until then: a figure the machine's load does not inflate.
        cpu_ms=$(awk '{ print ($14 + $15) * 10 }' "/proc/$pid/stat")
        break
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.02
    done
    if [ -z "$populated" ]; then
      kill "$pid" 2>/dev/null || true
      echo "FAIL run $i: no 'cluster populated' line within 60 s; output:" >&2; cat "$log" >&2; exit 1
    fi
    if [ "$i" = 1 ]; then
      sleep 1   # let the populated tables paint
      import -window root "$work/screenshot.png"
    fi
    kill "$pid"; wait "$pid" 2>/dev/null || true
    own_first=$(sed -n 's/^drainboard: first frame after \([0-9]*\) ms.*/\1/p' "$log")
    own_populated=$(sed -n 's/^drainboard: cluster populated after \([0-9]*\) ms.*/\1/p' "$log")
    echo "run $i: first frame ${own_first} ms, populated ${own_populated} ms (seen by the test: ${first} / ${populated} ms; CPU ${cpu_ms} ms; load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$own_first $own_populated $cpu_ms" >> "$work/times"
    if [ -e "$home/.openjfx" ]; then
      echo "FAIL run $i: JavaFX unpacked its native libraries into the home folder ($home/.openjfx)" >&2; exit 1
    fi
    if sed '/cluster populated/q' "$log" | grep -E "Exception|Unsupported JavaFX configuration|\[warning\]\[(aot|cds)\]" >&2; then
      echo "FAIL run $i: unexpected errors or warnings in the output above ($log)" >&2; exit 1
    fi
  done
  exit 0
fi

runs=3
build=true
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --no-build) build=false; shift ;;
    *) echo "packaging/test-deb.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root (it installs and removes the drainboard package)"
for tool in xvfb-run import identify dpkg-deb fakeroot; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool missing (apt-get install -y xvfb imagemagick fakeroot)"
done
export DEBIAN_FRONTEND=noninteractive
if dpkg -s drainboard >/dev/null 2>&1; then
  echo "==> removing the drainboard package installed before the test"
  apt-get purge -y drainboard >/dev/null
fi

if $build; then
  DRAINBOARD_DEB_COMPRESSION="${DRAINBOARD_DEB_COMPRESSION:-zstd}" "$root/packaging/build.sh" app-image deb
fi
deb="$(ls "$root"/packaging/target/installers/drainboard_*_amd64.deb 2>/dev/null | head -1)"
[ -n "$deb" ] || fail "no .deb in packaging/target/installers"
rm -rf "$work" && mkdir -p "$work"
cleanup() { dpkg -s drainboard >/dev/null 2>&1 && apt-get purge -y drainboard >/dev/null 2>&1; true; }
trap cleanup EXIT

echo "==> apt-get install $(basename "$deb")"
apt-get install -y "$deb" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "apt-get install failed"; }
dpkg -s drainboard 2>/dev/null | grep -q "^Status: install ok installed" || fail "drainboard is not fully installed"
owned=(/usr/bin/drainboard /opt/drainboard/bin/drainboard /usr/share/applications/drainboard.desktop
       /usr/share/icons/hicolor/256x256/apps/drainboard.png /usr/share/icons/hicolor/scalable/apps/drainboard.svg)
for f in "${owned[@]}"; do
  [ -e "$f" ] || fail "$f missing after install"
  dpkg -S "$f" >/dev/null 2>&1 || fail "$f is not owned by the package"
done
grep -q "^Exec=/usr/bin/drainboard" /usr/share/applications/drainboard.desktop \
  && grep -q "^Icon=drainboard" /usr/share/applications/drainboard.desktop || fail "desktop entry lacks Exec or Icon"

echo "==> the drainboard command"
version="$(drainboard --version)"
echo "    $version"
expected="$(sed -n 's/^version=//p' "$root/app/target/maven-archiver/pom.properties" 2>/dev/null || true)"
[ -z "$expected" ] || [ "$version" = "drainboard $expected" ] || fail "--version says '$version', the pom says $expected"
drainboard --help | grep -q "serve" || fail "--help does not list the serve command"
rc=0; drainboard --no-such-option >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a bad option exited with $rc, not 2"
drainboard serve --port 0 --kubeconfig-out "$work/kubeconfig" > "$work/serve.log" 2>&1 &
serve=$!
for _ in $(seq 1 600); do grep -q "^ready" "$work/serve.log" && break; kill -0 "$serve" 2>/dev/null || break; sleep 0.1; done
grep -q "^ready" "$work/serve.log" || { cat "$work/serve.log" >&2; fail "drainboard serve did not print ready"; }
echo "    $(grep '^ready' "$work/serve.log")"
kill "$serve"; wait "$serve" 2>/dev/null || true

echo "==> the console under Xvfb, $runs starts on the embedded demo cluster"
xvfb-run -a -s "-screen 0 1360x900x24" "$0" --inside-xvfb "$runs"
colours="$(identify -format '%k' "$work/screenshot.png")"
[ "$colours" -ge 64 ] || fail "the screenshot is blank ($colours colours): $work/screenshot.png"
echo "    screenshot: $work/screenshot.png ($colours colours)"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
first_median="$(cut -d' ' -f1 "$work/times" | median)"
populated_median="$(cut -d' ' -f2 "$work/times" | median)"
cpu_median="$(cut -d' ' -f3 "$work/times" | median)"
best="$(sort -n -k2 "$work/times" | head -1)"
installed_kb="$(dpkg-query -W -f='${Installed-Size}' drainboard)"
compression="$(head -c 1048576 "$deb" | grep -a -o -m1 "data\.tar[.a-z]*" | sed "s/^data\.tar\.\{0,1\}//" || true)"  # head may get SIGPIPE

echo "==> apt-get purge drainboard"
apt-get purge -y drainboard > "$work/remove.log" 2>&1 || { cat "$work/remove.log" >&2; fail "apt-get purge failed"; }
trap - EXIT
dpkg -s drainboard >/dev/null 2>&1 && fail "drainboard still installed after purge"
for f in "${owned[@]}" /opt/drainboard; do
  [ ! -e "$f" ] || fail "$f left behind after purge"
done

echo "==> figures"
echo "installer: $(basename "$deb") $(( $(stat -c %s "$deb") / 1024 / 1024 )) MiB (data.tar.${compression:-none}); installed size $(( installed_kb / 1024 )) MiB"
echo "start-up, median of $runs: first frame ${first_median} ms, demo cluster populated ${populated_median} ms, CPU until populated ${cpu_median} ms"
echo "start-up, best run: first frame $(echo "$best" | cut -d' ' -f1) ms, populated $(echo "$best" | cut -d' ' -f2) ms, CPU $(echo "$best" | cut -d' ' -f3) ms"
echo "PASS packaging/test-deb.sh"

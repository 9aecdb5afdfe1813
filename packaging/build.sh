#!/usr/bin/env bash
# Builds Drainboard's installers with jpackage from `mvn package` output (app/target/drainboard.jar + app/target/lib).
#
#   packaging/build.sh [--maven] [--no-aot] [TYPE...]
#
#   TYPE      app-image, deb, rpm (Linux), msi (Windows), dmg (macOS). Default: every type this OS can build
#             (Linux: app-image deb, and rpm when rpmbuild is installed).
#   --maven   run `mvn -B -DskipTests package` first (otherwise the jars must be built already).
#   --no-aot  skip the training run that records the AOT cache (faster build, slower app start).
#
# Output: packaging/target/ (app image under image/, installers under installers/).
# Steps: jlink a runtime (JDK + JavaFX modules, JavaFX's native libraries next to the JDK's), jpackage an app
# image with the JVM options baked in, record an AOT cache from one start of the console on the demo cluster,
# then wrap the image into installers. Needs JDK 25 (JAVA_HOME, or /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
pkg="$root/packaging"
out="$pkg/target"

run_maven=false
aot=true
types=()
for arg in "$@"; do
  case "$arg" in
    --maven) run_maven=true ;;
    --no-aot) aot=false ;;
    app-image|deb|rpm|msi|exe|dmg|pkg) types+=("$arg") ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "packaging/build.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=mac ;;
  MINGW*|MSYS*|CYGWIN*) os=windows ;;
  *) echo "packaging/build.sh: unsupported OS $(uname -s)" >&2; exit 1 ;;
esac

if [ -z "${JAVA_HOME:-}" ] && [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
jdk_bin="${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin"
exe=""; [ "$os" = windows ] && exe=".exe"
for tool in java jlink jpackage jar; do
  [ -x "$jdk_bin/$tool$exe" ] || { echo "packaging/build.sh: $jdk_bin/$tool$exe missing; JAVA_HOME must be a full JDK 25" >&2; exit 1; }
done
major="$("$jdk_bin/java$exe" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | cut -d. -f1)"
[ "${major:-0}" -ge 25 ] || { echo "packaging/build.sh: needs JDK 25 or newer, JAVA_HOME=$JAVA_HOME is $major" >&2; exit 1; }

if [ ${#types[@]} -eq 0 ]; then
  case "$os" in
    linux) types=(app-image deb); command -v rpmbuild >/dev/null 2>&1 && types+=(rpm) ;;
    windows) types=(app-image msi) ;;
    mac) types=(app-image dmg) ;;
  esac
fi

if $run_maven; then
  (cd "$root" && mvn -B -DskipTests package)
fi
app_target="$root/app/target"
if [ ! -f "$app_target/drainboard.jar" ] || [ ! -f "$app_target/maven-archiver/pom.properties" ]; then
  echo "packaging/build.sh: build the application first (or pass --maven):" >&2
  echo "  JAVA_HOME=$JAVA_HOME mvn -B -DskipTests package" >&2
  exit 1
fi

# --- identity -------------------------------------------------------------------------------------------
name_for_os() { [ "$os" = linux ] && echo drainboard || echo Drainboard; }
name="$(name_for_os)"                 # Linux: /opt/drainboard/bin/drainboard; elsewhere Drainboard.exe / Drainboard.app
version="$(sed -n 's/^version=//p' "$app_target/maven-archiver/pom.properties")"
app_version="${version%%-*}"          # jpackage wants numbers only: 0.1.0-SNAPSHOT -> 0.1.0
if ! [[ "$app_version" =~ ^[0-9]+(\.[0-9]+){0,2}$ ]]; then
  echo "packaging/build.sh: cannot derive a numeric version from '$version'" >&2; exit 1
fi
if [ "$os" = mac ] && [[ "$app_version" == 0* ]]; then
  # macOS bundle versions must start with a number above zero; 0.x.y is shipped as 1.x.y there (documented).
  app_version="1${app_version#0}"
fi
vendor="The Drainboard authors"
description="Desktop operations console for draining KubeVirt nodes"
licence="Apache-2.0"
copyright="Copyright (c) the Drainboard authors"

echo "==> Drainboard $version (installer version $app_version) for $os: ${types[*]}"
rm -rf "$out/input" "$out/runtime" "$out/image" "$out/installers" "$out/fx-natives" "$out/aot"
mkdir -p "$out/input" "$out/installers" "$out/aot"

# --- application jars: everything but JavaFX, which goes into the runtime as modules ---------------------
cp "$app_target/drainboard.jar" "$out/input/"
fx_jars=()
for jar in "$app_target"/lib/*.jar; do
  base="$(basename "$jar")"
  case "$base" in
    javafx-*-*-*.jar) fx_jars+=("$jar") ;;   # javafx-graphics-25.0.1-linux.jar: classes + natives for this OS
    javafx-*.jar) ;;                          # the classifier-less javafx-*.jar are empty placeholders
    *) cp "$jar" "$out/input/" ;;
  esac
done
[ ${#fx_jars[@]} -ge 3 ] || { echo "packaging/build.sh: JavaFX platform jars missing in $app_target/lib" >&2; exit 1; }
sep=":"; [ "$os" = windows ] && sep=";"
fx_module_path="$(IFS="$sep"; echo "${fx_jars[*]}")"

# --- runtime: jlink the JDK modules the app uses (jdeps --print-module-deps over app/target/lib, plus those
#     loaded reflectively: logging, management, zipfs, EC crypto, charsets) and JavaFX -----------------------
echo "==> jlink runtime"
"$jdk_bin/jlink$exe" \
  --module-path "$fx_module_path" \
  --add-modules java.base,java.compiler,java.desktop,java.logging,java.management,java.naming,java.net.http,java.prefs,java.sql,jdk.charsets,jdk.crypto.ec,jdk.httpserver,jdk.management,jdk.unsupported,jdk.zipfs,javafx.base,javafx.graphics,javafx.controls \
  --strip-debug --no-man-pages --no-header-files --compress=zip-6 \
  --output "$out/runtime"
# (bin/java stays: on Linux the drainboard command starts the JVM with it, see linux/package.sh.)

# JavaFX loads its native libraries from the runtime's library folder when they are there; otherwise it unpacks
# them from the module into ~/.openjfx/cache on first start.
mkdir -p "$out/fx-natives"
for jar in "${fx_jars[@]}"; do
  (cd "$out/fx-natives" && "$jdk_bin/jar$exe" xf "$jar")
done
case "$os" in
  windows) native_dir="$out/runtime/bin" ;;
  *) native_dir="$out/runtime/lib" ;;
esac
find "$out/fx-natives" -maxdepth 1 -type f \( -name '*.so' -o -name '*.dll' -o -name '*.dylib' \) -exec cp {} "$native_dir/" \;
rm -rf "$out/fx-natives"

# --- app image ---------------------------------------------------------------------------------------------
# JVM options: native access for JavaFX and the class path (Netty, Vert.x), sun.misc.Unsafe memory access for
# Netty, and the exports ControlsFX needs when JavaFX is a named module (see ../shared/TOOLCHAIN.md).
java_options=(
  --enable-native-access=javafx.graphics,ALL-UNNAMED
  --sun-misc-unsafe-memory-access=allow
  --add-exports=javafx.base/com.sun.javafx.event=ALL-UNNAMED
  --add-exports=javafx.controls/com.sun.javafx.scene.control.behavior=ALL-UNNAMED
  --add-exports=javafx.controls/com.sun.javafx.scene.control=ALL-UNNAMED
  --add-opens=javafx.controls/javafx.scene.control.skin=ALL-UNNAMED
  --add-opens=javafx.graphics/javafx.scene=ALL-UNNAMED
)
case "$os" in
  linux) icon="$root/icons/png/drainboard-256.png" ;;
  windows) icon="$root/icons/drainboard.ico" ;;
  mac) icon="$root/icons/drainboard.icns" ;;
esac
image_args=(
  --dest "$out/image" --name "$name" --app-version "$app_version"
  --vendor "$vendor" --description "$description" --copyright "$copyright" --icon "$icon"
  --runtime-image "$out/runtime" --input "$out/input"
  --main-jar drainboard.jar --main-class dev.drainboard.app.Main
)
for option in "${java_options[@]}"; do image_args+=(--java-options "$option"); done
if [ "$os" = windows ]; then
  # Drainboard.exe is the windowed launcher; drainboard-cli.exe (a console launcher) runs the CLI in a terminal.
  image_args+=(--add-launcher "drainboard-cli=$pkg/windows/drainboard-cli.properties")
fi
if [ "$os" = mac ]; then
  image_args+=(--mac-package-identifier dev.drainboard.console --mac-package-name Drainboard)
fi
echo "==> jpackage app image"
"$jdk_bin/jpackage$exe" --type app-image "${image_args[@]}"

case "$os" in
  linux) app_dir="$out/image/$name/lib/app"; launcher="$out/image/$name/bin/$name" ;;
  windows) app_dir="$out/image/$name/app"; launcher="$out/image/$name/$name.exe" ;;
  mac) app_dir="$out/image/$name.app/Contents/app"; launcher="$out/image/$name.app/Contents/MacOS/$name" ;;
esac

# --- AOT cache: one start of the console on the demo cluster records the classes it loads and links; the
#     cache makes later starts skip most class loading (see docs/benchmarks.md, Installers) ------------------
if $aot; then
  echo "==> AOT training run (console on the demo cluster, closes itself once the cluster is shown)"
  display_wrapper=()
  if [ "$os" = linux ] && [ -z "${DISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null 2>&1 || { echo "packaging/build.sh: the AOT training run needs a display or xvfb-run (apt-get install -y xvfb), or pass --no-aot" >&2; exit 1; }
    display_wrapper=(xvfb-run -a -s "-screen 0 1360x900x24")
  fi
  conf="$out/aot/drainboard.aotconf"
  train_home="$out/aot/home"   # a fresh home: no recent connections or preferences of the builder
  mkdir -p "$train_home"
  HOME="$train_home" JAVA_TOOL_OPTIONS="-XX:AOTMode=record -XX:AOTConfiguration=$conf -Xlog:aot=error,cds=error -Ddrainboard.exitAfterPopulatedMs=3000 -Duser.home=$train_home" \
    "${display_wrapper[@]}" "$launcher" > "$out/aot/training.log" 2>&1 &
  training=$!
  # The console closes itself 3 s after the cluster is shown; a run that hangs is stopped after 5 minutes.
  for _ in $(seq 1 300); do kill -0 "$training" 2>/dev/null || break; sleep 1; done
  if kill -0 "$training" 2>/dev/null; then
    kill "$training"; wait "$training" || true
    echo "packaging/build.sh: the AOT training run did not end within 5 minutes; its output is in $out/aot/training.log" >&2; exit 1
  fi
  wait "$training" || true
  if ! grep -q "cluster populated" "$out/aot/training.log" || [ ! -s "$conf" ]; then
    echo "packaging/build.sh: the AOT training run failed; its output is in $out/aot/training.log" >&2; exit 1
  fi
  grep -E "first frame|populated" "$out/aot/training.log" | sed 's/^/    training: /'
  HOME="$train_home" JAVA_TOOL_OPTIONS="-XX:AOTMode=create -XX:AOTConfiguration=$conf -XX:AOTCache=$app_dir/drainboard.aot -Xlog:aot=error,cds=error" \
    "$launcher" > "$out/aot/create.log" 2>&1 \
    || { echo "packaging/build.sh: creating the AOT cache failed; see $out/aot/create.log" >&2; exit 1; }
  # The launcher reads its JVM options from the .cfg file; $APPDIR is the folder holding the jars.
  for cfg in "$app_dir"/*.cfg; do
    awk '{ print } /^\[JavaOptions\]/ { print "java-options=-XX:AOTCache=$APPDIR/drainboard.aot" }' "$cfg" > "$cfg.new"
    mv "$cfg.new" "$cfg"
  done
  rm -rf "$out/aot/home"
fi

# --- installers --------------------------------------------------------------------------------------------
for type in "${types[@]}"; do
  case "$type" in
    app-image) echo "==> app image: $out/image" ;;
    deb|rpm) "$pkg/linux/package.sh" "$type" "$out" "$name" "$app_version" "$vendor" "$description" "$licence" "$copyright" ;;
    msi|exe)
      echo "==> jpackage $type"
      "$jdk_bin/jpackage$exe" --type "$type" --app-image "$out/image/$name" --dest "$out/installers" \
        --name "$name" --app-version "$app_version" --vendor "$vendor" --description "$description" \
        --copyright "$copyright" --license-file "$pkg/LICENSE-NOTICE.txt" \
        --win-menu --win-menu-group Drainboard --win-shortcut --win-dir-chooser --win-per-user-install \
        --win-upgrade-uuid 5f0c2b7e-3d1a-4c7e-9a59-8f3e2d6b1c40 ;;
    dmg|pkg)
      echo "==> jpackage $type"
      "$jdk_bin/jpackage$exe" --type "$type" --app-image "$out/image/$name.app" --dest "$out/installers" \
        --name "$name" --app-version "$app_version" --vendor "$vendor" --description "$description" \
        --copyright "$copyright" --license-file "$pkg/LICENSE-NOTICE.txt" ;;
  esac
done
ls -l "$out/installers" 2>/dev/null | sed -n '2,$p'

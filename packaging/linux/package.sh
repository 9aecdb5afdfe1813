#!/usr/bin/env bash
# Linux installers from the app image packaging/build.sh made (called by it; not meant to be run alone):
#   package.sh deb|rpm OUT NAME VERSION VENDOR DESCRIPTION LICENCE COPYRIGHT
# jpackage builds the package from the app image; the files outside /opt/drainboard that make it a desktop
# application (the drainboard command, the .desktop entry, the icons) are added as files the package owns, so
# that removing the package removes them and no maintainer script has to run xdg-utils (jpackage's
# --linux-shortcut does, and fails on a machine without a desktop; see ../shared/TOOLCHAIN.md).
set -euo pipefail
type="$1" out="$2" name="$3" app_version="$4" vendor="$5" description="$6" licence="$7" copyright="$8"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jdk_bin="$JAVA_HOME/bin"
image="$out/image/$name"
release=1

# The desktop integration, laid out as it is installed.
extras="$out/linux-root"
rm -rf "$extras"
install -D -m 755 "$here/drainboard" "$extras/usr/bin/drainboard"
install -D -m 644 "$here/drainboard.desktop" "$extras/usr/share/applications/drainboard.desktop"
for size in 16 24 32 48 64 128 256 512; do
  install -D -m 644 "$root/icons/png/drainboard-$size.png" "$extras/usr/share/icons/hicolor/${size}x${size}/apps/drainboard.png"
done
install -D -m 644 "$root/icons/drainboard.svg" "$extras/usr/share/icons/hicolor/scalable/apps/drainboard.svg"

common=(
  --app-image "$image" --dest "$out/installers" --name "$name" --app-version "$app_version"
  --vendor "$vendor" --description "$description" --copyright "$copyright"
  --license-file "$root/packaging/LICENSE-NOTICE.txt"
  --linux-package-name drainboard --linux-app-release "$release"
)

case "$type" in
  deb)
    echo "==> jpackage deb"
    staging="$out/deb-staging"
    rm -rf "$staging" && mkdir -p "$staging"
    # jpackage's deb is unpacked again below, so it is built uncompressed.
    DPKG_DEB_COMPRESSOR_TYPE=none "$jdk_bin/jpackage" --type deb "${common[@]}" --dest "$staging" \
      --linux-app-category admin --linux-deb-maintainer "drainboard@localhost"
    built="$(ls "$staging"/*.deb)"
    echo "==> adding the drainboard command, desktop entry and icons to $(basename "$built")"
    tree="$staging/tree"
    dpkg-deb -R "$built" "$tree"
    cp -a "$extras/." "$tree/"
    # The AOT cache checks the jars' modification times: keep the app image's (jpackage's copy does not).
    (cd "$image" && find . -type f -print0) | while IFS= read -r -d '' f; do
      touch -r "$image/$f" "$tree/opt/drainboard/$f"
    done
    (cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$tree/DEBIAN/md5sums"
    installed_kb="$(du -sk --exclude=DEBIAN "$tree" | cut -f1)"
    sed -i "s/^Installed-Size:.*/Installed-Size: $installed_kb/" "$tree/DEBIAN/control"
    # xz -6 by default (every dpkg reads it); DRAINBOARD_DEB_COMPRESSION=zstd|gzip|none trades size for build time.
    dpkg-deb --root-owner-group -Z"${DRAINBOARD_DEB_COMPRESSION:-xz}" --build "$tree" "$out/installers/$(basename "$built")" >/dev/null
    rm -rf "$staging"
    echo "    $(ls "$out/installers"/*.deb)"
    ;;
  rpm)
    command -v rpmbuild >/dev/null 2>&1 || { echo "package.sh: rpmbuild missing (Debian: apt-get install -y rpm)" >&2; exit 1; }
    echo "==> jpackage rpm"
    resources="$out/rpm-resources"
    rm -rf "$resources" && mkdir -p "$resources"
    # jpackage fills in its APPLICATION_* tokens; @IMAGE@ and @EXTRAS@ are ours.
    sed -e "s|@IMAGE@|$image|g" -e "s|@EXTRAS@|$extras|g" "$here/drainboard.spec" > "$resources/drainboard.spec"
    "$jdk_bin/jpackage" --type rpm "${common[@]}" --resource-dir "$resources" \
      --linux-rpm-license-type "$licence" --linux-app-category Applications/System
    rm -rf "$resources"
    echo "    $(ls "$out/installers"/*.rpm)"
    ;;
esac

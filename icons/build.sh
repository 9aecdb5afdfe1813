#!/usr/bin/env bash
# Generates the Drainboard icon set from drainboard.svg:
#   png/drainboard-N.png (N = 16 … 1024), drainboard.ico (Windows), drainboard.icns (macOS),
#   and the 256 px copy the JavaFX window uses (ui/src/main/resources/dev/drainboard/ui/icons/).
# Tools (Debian: apt-get install -y librsvg2-bin icoutils icnsutils):
#   rsvg-convert (librsvg2-bin), icotool (icoutils), png2icns (icnsutils).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
svg="$here/drainboard.svg"

missing=()
for tool in rsvg-convert:librsvg2-bin icotool:icoutils png2icns:icnsutils; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "icons/build.sh: missing tools; install them with: apt-get install -y ${missing[*]}" >&2
  exit 1
fi

mkdir -p "$here/png"
for size in 16 24 32 48 64 128 256 512 1024; do
  rsvg-convert --width "$size" --height "$size" "$svg" --output "$here/png/drainboard-$size.png"
done

# Windows: the classic sizes as bitmaps, 256 stored as PNG (--raw) as Windows Vista+ expects.
icotool --create --output "$here/drainboard.ico" \
  "$here"/png/drainboard-{16,24,32,48,64,128}.png --raw="$here/png/drainboard-256.png"

# macOS: png2icns picks the icon type from each PNG's size (16, 32, 48, 128, 256, 512, 1024).
png2icns "$here/drainboard.icns" "$here"/png/drainboard-{16,32,48,128,256,512,1024}.png >/dev/null

# The window icon set: JavaFX picks the best size for the title bar, task bar and switcher.
res="$here/../ui/src/main/resources/dev/drainboard/ui/icons"
mkdir -p "$res"
for size in 16 32 48 64 128 256; do
  cp "$here/png/drainboard-$size.png" "$res/drainboard-$size.png"
done

echo "icons: $(ls "$here/png" | wc -l) PNGs, drainboard.ico, drainboard.icns, window icons in ui resources"

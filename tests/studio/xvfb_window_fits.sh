#!/bin/sh
# Real-window check, run by hand (not a CTest: it needs an X server and a window manager):
# under Xvfb + openbox at each screen size, acsel-studio started with fresh settings opens
# within the screen (its first size is bounded by the screen), and maximised its frame, menu,
# docks and status bar stay on the screen. Saves a screenshot of the screen per size.
#   sh tests/studio/xvfb_window_fits.sh [acsel-studio binary] [output folder]
# Needs: apt-get install xvfb openbox xdotool x11-utils imagemagick
set -eu
bin=${1:-build/release/app/studio/acsel-studio}
out=${2:-/tmp}
for tool in Xvfb openbox xdotool xwininfo import; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "xvfb_window_fits: '$tool' is missing (apt-get install xvfb openbox xdotool x11-utils imagemagick)" >&2
        exit 2
    }
done
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# openbox maximises every window it maps (the second start of each size).
cat >"$home/maximise.xml" <<'XML'
<?xml version="1.0"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <applications><application class="*"><maximized>true</maximized></application></applications>
</openbox_config>
XML
# Starts the window with fresh settings on $display: its process in $app, its id in $win.
start() {
    rm -rf "$home/config" "$home/data"
    DISPLAY=$display HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data \
        "$bin" --workspace datasets/workspace.json >/dev/null 2>&1 &
    app=$!
    win=$(DISPLAY=$display xdotool search --sync --onlyvisible --name 'ACSeL Studio' | head -n 1)
}
status=0
display=:93
for size in 1280x720 1366x768 1600x1000; do
    sw=${size%x*}
    sh=${size#*x}
    Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    sleep 1
    DISPLAY=$display openbox >/dev/null 2>&1 &
    wm=$!
    sleep 1
    start
    sleep 8 # scoring and search on the spec-only stacks
    first=$(DISPLAY=$display xwininfo -id "$win" | awk '/Width:/ {w=$2} /Height:/ {h=$2} END {print w "x" h}')
    fw=${first%x*}
    fh=${first#*x}
    if [ "$fw" -gt "$sw" ] || [ "$fh" -gt "$sh" ]; then
        echo "FAIL $size: the first window is ${first}, larger than the screen" >&2
        status=1
    fi
    kill "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
    DISPLAY=$display openbox --replace --config-file "$home/maximise.xml" >/dev/null 2>&1 &
    wm=$!
    sleep 1
    start
    sleep 8
    # Maximised: the client area (the window without its frame) must end on the screen; a
    # minimum size larger than the screen would push the status bar and bottom docks off it.
    max=$(DISPLAY=$display xwininfo -id "$win" | awk '/Absolute upper-left X:/ {x=$4} /Absolute upper-left Y:/ {y=$4} /Width:/ {w=$2} /Height:/ {h=$2} END {print x, y, w, h}')
    set -- $max
    if [ $(($1 + $3)) -gt "$sw" ] || [ $(($2 + $4)) -gt "$sh" ]; then
        echo "FAIL $size: maximised, the window reaches $(($1 + $3))x$(($2 + $4)), off the screen" >&2
        status=1
    else
        echo "ok $size: first ${first}, maximised ${3}x${4} at ${1},${2}"
    fi
    DISPLAY=$display import -window root "$out/acsel-studio-$size.png"
    kill "$app" "$wm" "$xvfb" 2>/dev/null || true
    wait "$app" "$wm" "$xvfb" 2>/dev/null || true
done
exit $status

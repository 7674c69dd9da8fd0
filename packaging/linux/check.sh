#!/bin/sh
# Validate the desktop entry and the AppStream metainfo with the freedesktop tools
# (Debian packages desktop-file-utils and appstream; `make system-deps` installs both).
set -eu
here=$(dirname "$0")/../../resources/desktop
for tool in desktop-file-validate appstreamcli; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool is not installed (run: make system-deps)" >&2; exit 1; }
done
desktop-file-validate "$here/io.github.gpu_tpu_app.GpuTpuApp.desktop"
echo "ok    desktop-file-validate $here/io.github.gpu_tpu_app.GpuTpuApp.desktop"
# --no-net: the screenshot URLs are metadata for software centres; nothing here fetches them.
appstreamcli validate --no-net --strict "$here/io.github.gpu_tpu_app.GpuTpuApp.metainfo.xml"

#!/usr/bin/env bash
# Builds folio's OCI image archive from Debian 12's packages (make image; docs/image.md):
#   deploy/image/build.sh BINARY VERSION OUTPUT.tar
# BINARY is the release folio (stripped here), VERSION its tag. The image holds the binary at
# /usr/local/bin/folio, the packages of deploy/image/packages with what they depend on but those of
# deploy/image/left-out (unpacked by mmdebstrap's extract variant: no shell, no package manager, no
# maintainer scripts), a CA bundle,
# the fontconfig cache, a user folio (65532:65532) and nothing else. With the same binary, the same
# SOURCE_DATE_EPOCH and the same mirror content the archive is the same, byte for byte: every file's
# time is SOURCE_DATE_EPOCH, the files are in name order, and umoci is given every date.
# IMAGE_MIRROR names the Debian mirror (a snapshot.debian.org address pins the packages' versions).
set -euo pipefail

binary=${1:?usage: build.sh BINARY VERSION OUTPUT.tar}
version=${2:?usage: build.sh BINARY VERSION OUTPUT.tar}
output=${3:?usage: build.sh BINARY VERSION OUTPUT.tar}
here=$(cd "$(dirname "$0")" && pwd)
mirror=${IMAGE_MIRROR:-http://deb.debian.org/debian}
epoch=${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set (make image sets it to the last commit time)}
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
[ -f "$binary" ] || { echo "build.sh: $binary: no such file" >&2; exit 1; }
[[ $version =~ ^[0-9A-Za-z._-]+$ ]] || { echo "build.sh: $version: a tag is letters, digits, '.', '_' and '-'" >&2; exit 1; }

work=$(mktemp -d /tmp/folio-image.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
packages=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages" | tr -s ' \n' ',' | sed 's/,$//')

# The packages unpacked with what apt says they depend on. While their .deb files are at hand, each
# one's control fields and file list are kept, to take out again what deploy/image/left-out names.
export FOLIO_IMAGE_WORK=$work
mkdir -p "$work/files"
SOURCE_DATE_EPOCH=$epoch mmdebstrap --quiet --variant=extract --mode=root --include="$packages" \
  --extract-hook='for deb in "$1"/var/cache/apt/archives/*.deb; do
      dpkg-deb --field "$deb"; echo "Status: install ok installed"; echo
      dpkg-deb --fsys-tarfile "$deb" | tar --list > "$FOLIO_IMAGE_WORK/files/$(dpkg-deb --field "$deb" Package)"
    done > "$FOLIO_IMAGE_WORK/available"' \
  bookworm "$rootfs" "$mirror"

# The packages kept: those listed and, following Depends and Pre-Depends, what they need but the
# packages left out (an alternative already kept, else the first one unpacked, virtual names
# resolved through Provides). A need nothing unpacked meets stops the build.
left_out=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/left-out" | tr -s ' \n' ' ')
awk -v wanted="$(echo "$packages" | tr ',' ' ')" -v left_out="$left_out" -v kept="$work/kept" '
  function field(line) { sub(/^[^:]*:[ ]*/, "", line); return line }
  function bare(name) { sub(/^[ ]+/, "", name); sub(/[ :(].*$/, "", name); return name }
  function provider(name) { return (name in package) ? name : ((name in provided) ? provided[name] : "") }
  /^Package: / { name = field($0); package[name] = 1 }
  /^(Depends|Pre-Depends): / { needs[name] = needs[name] (needs[name] == "" ? "" : ",") field($0) }
  /^Provides: / { count = split(field($0), list, ","); for (i = 1; i <= count; i++) provided[bare(list[i])] = name }
  END {
    split(left_out, skipped, " "); for (i in skipped) skip[skipped[i]] = 1
    queued = split(wanted, queue, " ")
    for (head = 1; head <= queued; head++) {
      name = queue[head]
      if (name in keep) continue
      if (!(name in package)) { print "build.sh: " name ": not unpacked" > "/dev/stderr"; exit 1 }
      keep[name] = 1
      groups = split(needs[name], group, ",")
      for (g = 1; g <= groups; g++) {
        choices = split(group[g], choice, "|"); chosen = ""; met = 0
        for (c = 1; c <= choices; c++) {
          candidate = provider(bare(choice[c]))
          if (candidate == "") continue
          if (candidate in skip) { met = 1; continue }
          if (candidate in keep) { chosen = candidate; break }
          if (chosen == "") chosen = candidate
        }
        if (chosen != "") queue[++queued] = chosen
        else if (!met) { print "build.sh: " name " needs " group[g] ", which nothing unpacked provides" > "/dev/stderr"; exit 1 }
      }
    }
    for (name in keep) print name > kept
  }' "$work/available"
LC_ALL=C sort -o "$work/kept" "$work/kept"

# What the packages not kept unpacked is taken out again (a file another kept package also holds,
# or one deploy/image/kept-files names, stays), then their folders that are left empty.
for list in "$work"/files/*; do
  name=$(basename "$list")
  grep -qxF "$name" "$work/kept" && cat "$list"
done > "$work/kept-files"
sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' -e 's|^/|./|' "$here/kept-files" >> "$work/kept-files"
LC_ALL=C sort -u -o "$work/kept-files" "$work/kept-files"
for list in "$work"/files/*; do
  name=$(basename "$list")
  grep -qxF "$name" "$work/kept" || cat "$list"
done | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$work/kept-files" > "$work/dropped-files"
grep -v '/$' "$work/dropped-files" | while IFS= read -r file; do rm -f "$rootfs/$file"; done
grep '/$' "$work/dropped-files" | LC_ALL=C sort -r | while IFS= read -r folder; do
  [ -L "$rootfs/${folder%/}" ] || rmdir "$rootfs/$folder" 2>/dev/null || true
done

# dpkg's status names each package kept and its version, so a scanner of the image sees them.
awk -v kept="$work/kept" 'BEGIN { while ((getline name < kept) > 0) keep[name] = 1; RS = ""; ORS = "\n\n" }
  { split($0, lines, "\n"); sub(/^Package: /, "", lines[1]); if (lines[1] in keep) print }' "$work/available" > "$work/status"

# What apt and mmdebstrap leave that the image does not need: their configuration, lists and the
# host's name and resolver (a runtime mounts its own /etc/resolv.conf, /etc/hosts and /dev).
rm -rf "$rootfs"/etc/apt "$rootfs"/etc/dpkg "$rootfs"/var/lib/apt "$rootfs"/var/cache/apt "$rootfs"/var/lib/dpkg \
  "$rootfs"/var/log/* "$rootfs"/etc/resolv.conf "$rootfs"/etc/hostname "$rootfs"/etc/fstab "$rootfs"/dev/*
mkdir -p "$rootfs/var/lib/dpkg" "$rootfs/usr/local/bin" "$rootfs/var/lib/folio" "$rootfs/tmp" "$rootfs/etc/ssl/certs"
mv "$work/status" "$rootfs/var/lib/dpkg/status"
chmod 1777 "$rootfs/tmp"

# The binary, stripped of its symbol tables (Swift's metadata is in sections it keeps).
strip --strip-all -o "$rootfs/usr/local/bin/folio" "$binary"
chmod 0755 "$rootfs/usr/local/bin/folio"

# The user: root owns every file, folio runs the process.
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nfolio:x:65532:65532:folio:/var/lib/folio:/usr/sbin/nologin\n' > "$rootfs/etc/passwd"
printf 'root:x:0:\nfolio:x:65532:\n' > "$rootfs/etc/group"
chown 65532:65532 "$rootfs/var/lib/folio"

# The CA bundle update-ca-certificates would make (no maintainer script runs here): every
# certificate Debian ships, in name order, each ending in a new line.
find "$rootfs/usr/share/ca-certificates" -name '*.crt' -print0 | LC_ALL=C sort -z |
  xargs -0 -r sed -e '$a\' > "$rootfs/etc/ssl/certs/ca-certificates.crt"

# The loader's cache and fontconfig's, made by the host's tools for this root (the same Debian 12
# versions): no process in the image scans the library folders or the 500 font files at its start.
ldconfig -r "$rootfs"
rm -f "$rootfs/var/cache/ldconfig/aux-cache"
find "$rootfs" -newermt "@$epoch" -exec touch --no-dereference --date="@$epoch" {} +
fc-cache --sysroot="$rootfs" --system-only --really-force
find "$rootfs" -newermt "@$epoch" -exec touch --no-dereference --date="@$epoch" {} +

# The layer: one tar, entries in name order, owners numeric, times SOURCE_DATE_EPOCH.
tar --create --file="$work/layer.tar" --directory="$rootfs" --sort=name --numeric-owner \
  --mtime="@$epoch" --clamp-mtime --format=pax --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime .

# The OCI image: one layer, the user, the entry point, folio serve by default.
umoci init --layout "$work/oci"
umoci new --image "$work/oci:$version"
umoci raw add-layer --image "$work/oci:$version" --history.created="$created" \
  --history.created_by="make image (deploy/image/build.sh)" "$work/layer.tar"
umoci config --image "$work/oci:$version" --created="$created" --no-history \
  --author="Folio" --os=linux --architecture=amd64 \
  --config.user=65532:65532 --config.workingdir=/var/lib/folio \
  --config.env=PATH=/usr/local/bin \
  --config.entrypoint=/usr/local/bin/folio --config.cmd=serve \
  --config.label=org.opencontainers.image.title=folio \
  --config.label=org.opencontainers.image.version="$version" \
  --config.label=org.opencontainers.image.created="$created"
umoci gc --layout "$work/oci"

# The archive (what podman load, skopeo copy oci-archive: and ctr images import read), itself in
# name order with fixed times; its manifest's digest is printed.
mkdir -p "$(dirname "$output")"
tar --create --file="$output.partial" --directory="$work/oci" --sort=name --numeric-owner --owner=0 --group=0 \
  --mtime="@$epoch" --format=pax --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime .
mv "$output.partial" "$output"
digest=$(grep -o '"digest":"sha256:[0-9a-f]*"' "$work/oci/index.json" | head -1 | cut -d'"' -f4)
echo "$output: folio:$version $digest ($(du -h "$output" | cut -f1))"

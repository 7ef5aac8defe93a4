#!/bin/sh
# Fetches Debian's bpftool 5.10 (bullseye) and 7.5 (bookworm-backports) with apt-get download and
# unpacks each with dpkg -x into DIR/<package version>/, never touching the system's bpftool or its
# apt sources (a private sources list and cache under DIR). Prints each binary's path.
#   sh scripts/capture/fetch-bpftool.sh /tmp/bpftool-builds
#   npm run capture -- $(sh scripts/capture/fetch-bpftool.sh /tmp/bpftool-builds | sed 's/^/--bpftool /')
set -eu
dir=${1:?usage: fetch-bpftool.sh DIR}
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs"
cat >"$dir/apt/sources.list" <<SOURCES
deb http://deb.debian.org/debian bullseye main
deb http://deb.debian.org/debian bookworm-backports main
SOURCES
apt_opts="-o Dir::Etc::sourcelist=$dir/apt/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$dir/apt/lists -o Dir::Cache=$dir/apt/cache"
# shellcheck disable=SC2086
apt-get $apt_opts update -qq >&2
for release in bullseye bookworm-backports; do
  # shellcheck disable=SC2086
  version=$(apt-cache $apt_opts madison bpftool | awk -v r="$release" '$0 ~ r"/main" {print $3; exit}')
  # shellcheck disable=SC2086
  (cd "$dir/debs" && apt-get $apt_opts download "bpftool=$version" >&2)
  deb=$(ls "$dir"/debs/bpftool_"$(echo "$version" | sed 's/^[0-9]*://; s/+/+/')"_*.deb)
  mkdir -p "$dir/$version"
  dpkg -x "$deb" "$dir/$version"
  echo "$dir/$version/usr/sbin/bpftool"
done

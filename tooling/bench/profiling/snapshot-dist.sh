#!/bin/sh
# Copies the built protocol, client, server and stdio-transport (their package.json and dist) into
# DEST/node_modules/@statemcp, with links to the dependencies they resolve, so that ab-memory.mjs can load this
# build next to another one; seq.mjs (with seq-timing.mjs and raw-client.mjs) and server-dist.mjs are copied to DEST too, so that ab-stdio.mjs runs them
# against this build (bare imports resolve from DEST/node_modules).
#   sh snapshot-dist.sh DEST     (build first; run again after each change into a new DEST)
set -e
DEST=${1:?usage: snapshot-dist.sh DEST}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
rm -rf "$DEST"
mkdir -p "$DEST/node_modules/@statemcp" "$DEST/node_modules/@cfworker"
for p in protocol client server stdio-transport; do
  mkdir -p "$DEST/node_modules/@statemcp/$p"
  cp "$ROOT/packages/$p/package.json" "$DEST/node_modules/@statemcp/$p/"
  cp -r "$ROOT/packages/$p/dist" "$DEST/node_modules/@statemcp/$p/dist"
done
for dep in zod yaml; do ln -s "$(readlink -f "$ROOT/packages/protocol/node_modules/$dep")" "$DEST/node_modules/$dep"; done
for dep in jose oauth4webapi; do ln -s "$(readlink -f "$ROOT/packages/client/node_modules/$dep")" "$DEST/node_modules/$dep"; done
ln -s "$(readlink -f "$ROOT/packages/protocol/node_modules/@cfworker/json-schema")" "$DEST/node_modules/@cfworker/json-schema"
cp "$ROOT/tooling/bench/profiling/seq.mjs" "$ROOT/tooling/bench/profiling/seq-timing.mjs" "$ROOT/tooling/bench/profiling/raw-client.mjs" "$ROOT/tooling/bench/profiling/server-dist.mjs" "$DEST/"

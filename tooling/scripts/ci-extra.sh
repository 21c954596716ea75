#!/usr/bin/env bash
# Extra CI checks, run by .ci/run after set-up, typecheck, lint and test (issue 6):
#   - the official MCP conformance suite against apps/everything-server and apps/everything-client,
#     gated by tooling/conformance/expected-failures.yaml (regressions and stale entries both fail);
#   - the suite's server leg (--suite all, both spec versions) through a composition gateway in front of
#     apps/everything-server (about 35 s), gated by the same baseline;
#   - the suite's authorization-server scenarios (`conformance authorization`) against
#     @statemcp/oauth-proxy in front of a local upstream IdP, signed in headlessly;
#   - the suite's server scenarios (--suite active) through apps/cluster-example: three instances over
#     one Redis behind a round-robin proxy, gated by the same baseline; then the tasks extension's
#     tasks-* scenarios (only in --suite all) through the same kind of cluster, whose tasks run on
#     the instances' job queue (about 2 minutes); then --suite active again with the shared state on
#     a Redis Cluster of three masters with a replica each (15 to 40 s);
#   - the suite's server scenarios (--suite active) through @statemcp/http-transport/lambda's streaming
#     handler, every request turned into a Function URL event by a local emulator, and the Lambda
#     cold-start script;
#   - the suite's server scenarios (--suite active) against the everything server as a Cloudflare Worker
#     with Durable Objects (@statemcp/http-transport/cloudflare) under miniflare (workerd, no nodejs_compat);
#   - the MCP Inspector CLI driving apps/everything-server over stdio and Streamable HTTP;
#   - the quickstart demo, which must exit 0;
#   - the benchmark harness in --quick mode (no timing is asserted);
#   - pack-check: every package builds, packs, passes publint and attw, installs from its tarball
#     outside the workspace and runs stdio and HTTP round trips; `npm create statemcp` from the
#     tarballs, then install, build, test and start of the new project per transport, with npm and
#     pnpm (and once with bun); the browser client bundle has no Node built-ins;
#   - changeset version on a temporary copy of the repository: the next release can be cut;
#   - docs: the TypeDoc API reference (an undocumented public export fails it) and the VitePress site
#     of docs/ (a dead link fails it); pack-check also follows the getting-started guide from an empty
#     directory with npm;
#   - runtimes-check: no Node built-in at module load in any web entry point, and a Streamable HTTP
#     server on `handleFetch` with a statemcp client round trip under Bun, Deno and workerd
#     (miniflare, no nodejs_compat) — all from the npm registry;
#   - bundle-size: the browser client over Streamable HTTP, minified and gzipped, against the budget in
#     tooling/scripts/bundle-size-budget.json (growth past it fails), beside the official v2 and v1 clients.
# Needs only Node 20 and the npm registry (the suite's Node 22 comes from `npx -p node@22`).
set -euo pipefail
cd "$(dirname "$0")/../.."

PNPM="npx -y pnpm@10.34.8"

echo "== bundle-size (the browser client over Streamable HTTP, minified + gzip, against its budget)"
node tooling/scripts/bundle-size.mjs --check --top 8

echo "== conformance"
$PNPM run conformance

echo "== conformance (server leg) through a composition gateway: apps/everything-server mounted behind @statemcp/server/compose"
node tooling/conformance/run.mjs --leg server --through-gateway

echo "== conformance: the authorization-server scenarios against @statemcp/oauth-proxy (headless sign-in)"
$PNPM run conformance:oauth-proxy

echo "== conformance through a 3-instance cluster (round-robin proxy, Redis)"
$PNPM --filter @statemcp/cluster-example conformance

echo "== the tasks extension's conformance scenarios through the cluster (tasks on the instances' job queue)"
$PNPM --filter @statemcp/cluster-example conformance $(for s in lifecycle capability-negotiation wire-fields request-state-removal mrtr-input request-headers dispatch-and-envelope status-notifications required-task-error mrtr-composition; do printf -- '--scenario tasks-%s ' "$s"; done)
echo "== conformance through a 3-instance cluster over a Redis Cluster (3 masters, 1 replica each)"
$PNPM --filter @statemcp/cluster-example conformance:redis-cluster

echo "== conformance (--suite active) through the AWS Lambda streaming handler behind a local Function URL"
$PNPM run conformance:lambda

echo "== conformance (--suite active) against the everything server as a Worker with Durable Objects (miniflare)"
$PNPM run conformance:durable-object

echo "== Lambda cold start (a bundled handler; timings are not checked)"
node tooling/bench/lambda-cold-start.mjs --runs 3

echo "== inspector interop"
$PNPM run inspector-check

echo "== demo"
$PNPM run demo | tail -n 4

echo "== bench --quick (proves the harness runs; timings are not checked)"
$PNPM run bench --quick | grep -A 14 '### Targets'

echo "== pack-check (build, pack, publint, attw, install the tarballs elsewhere, round trips, npm create statemcp, browser bundle)"
$PNPM run pack-check

echo "== changeset version on a copy (the next release can be cut; the tree is untouched)"
node tooling/scripts/changeset-version-check.mjs

echo "== docs (API reference from the doc comments, undocumented exports fail; the VitePress site of the guides)"
$PNPM run docs 2>&1 | tail -n 3

echo "== runtimes-check (no Node built-in at module load; Bun, Deno, workerd round trips)"
$PNPM run runtimes-check

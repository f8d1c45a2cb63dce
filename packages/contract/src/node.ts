/**
 * Options for node itself that every agent process starts with, on node's command line: the image's
 * CMD (`node <these> dist/index.js`, checked against this list by tooling/fleet-config), the
 * `npm start` fleet runner and the tests' and benches' agent processes (tools/fleet). A user's
 * NODE_OPTIONS still apply on top; for the same option node's command line wins.
 *
 * Empty: node's defaults. `--max-semi-space-size=2` (V8's young generation capped at 2 MB per
 * semi-space; node 20 grows it to 16 MB) keeps every agent under 120 MB RSS idle after turns (117
 * against 122 MB on average; both settle near 100 MB idle before any turn), but cost 8–23% of
 * supervisor turns/s in `pnpm bench:supervisor` (4: up to 17%), so it is not set
 * (docs/ARCHITECTURE.md, "Memory"). The benches compare candidates: BENCH_NODE_OPTIONS_VARIANTS.
 */
export const AGENT_NODE_ARGS: readonly string[] = [];

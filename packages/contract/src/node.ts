/**
 * Options for node itself that every agent process starts with, on node's command line: the image's
 * CMD (`node <these> dist/index.js`, checked against this list by tooling/fleet-config), the
 * `npm start` fleet runner and the tests' and benches' agent processes (tools/fleet). A user's
 * NODE_OPTIONS still apply on top; for the same option node's command line wins.
 *
 * `--max-semi-space-size=32`: V8's young generation may grow to two 32 MB semi-spaces (node 20 stops
 * at 16 MB). Under load most of a turn's objects then die before a scavenge has to copy them: an
 * agent spent 9–13% less CPU per turn at 100 concurrent conversations (three runs, medians of 6–8
 * rounds), and idle memory did not move (`pnpm bench:rss`, all 17 agents: 113 against 112 MB mean
 * idle after turns, every agent ≤ 120 MB). Smaller young generations saved a few MB idle but cost
 * supervisor throughput (docs/ARCHITECTURE.md, "Memory"). The benches compare candidates:
 * BENCH_NODE_OPTIONS_VARIANTS.
 */
export const AGENT_NODE_ARGS: readonly string[] = ["--max-semi-space-size=32"];

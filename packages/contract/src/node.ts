/**
 * Options for node itself that every agent process starts with, on node's command line: the image's
 * CMD (`node <these> dist/index.js`, checked against this list by tooling/fleet-config), the
 * `npm start` fleet runner and the tests' and benches' agent processes (tools/fleet). A user's
 * NODE_OPTIONS still apply on top; for the same option node's command line wins.
 *
 * `--max-semi-space-size=32`: V8's young generation may grow to two 32 MB semi-spaces (V8's default
 * stops at 16 MB). Under load most of a turn's objects then die before a scavenge has to copy them: an
 * agent spent 9–13% less CPU per turn at 100 concurrent conversations (three runs, medians of 6–8
 * rounds), and idle memory did not move (`pnpm bench:rss`, all 17 agents: 113 against 112 MB mean
 * idle after turns, every agent ≤ 120 MB). Smaller young generations saved a few MB idle but cost
 * supervisor throughput (this package's README, "Node options"). The benches compare candidates:
 * BENCH_NODE_OPTIONS_VARIANTS.
 *
 * `--max-old-space-size-percentage=75`: V8's old generation may take 75% of the memory the process
 * may use: the container's limit (node reads its cgroup), else the machine's. Without it V8 sizes its
 * heap from the machine's memory, not the container's (4 GB), so under the chart's 768 Mi limit it
 * would keep garbage it need not collect until the kernel killed the pod. 75% leaves the rest for the
 * young generation, code, buffers and Cedar's WebAssembly memory. The limit itself is declared once,
 * where the container is (charts/switchboard values `resources.limits.memory`); `pnpm bench:soak`
 * shows RSS levelling off under it.
 */
export const AGENT_NODE_ARGS: readonly string[] = [
  "--max-semi-space-size=32",
  "--max-old-space-size-percentage=75",
];

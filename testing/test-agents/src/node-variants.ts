import { AGENT_NODE_ARGS } from "@switchboard/contract";

/** One way to run node for a bench: a label for tables and the options on node's command line. */
export interface NodeVariant {
  label: string;
  /** For startAgentProcess's agentNodeArgs: [] is node's own defaults. */
  args: readonly string[];
}

/**
 * The node options a bench compares, from BENCH_NODE_OPTIONS_VARIANTS: variants separated by ";",
 * each `default` (node's own defaults), `shipped` (AGENT_NODE_ARGS, what agents run with) or
 * options for node's command line, e.g. `default;--max-semi-space-size=2;--max-semi-space-size=4`.
 * Default `default;shipped`, or `default;--max-semi-space-size=2` (the candidate measured last)
 * while agents ship with node's defaults.
 */
export function nodeVariants(spec = process.env.BENCH_NODE_OPTIONS_VARIANTS): NodeVariant[] {
  const fallback = AGENT_NODE_ARGS.length > 0 ? "default;shipped" : "default;--max-semi-space-size=2";
  const items = (spec?.trim() ? spec : fallback)
    .split(";")
    .map((item) => item.trim())
    .filter(Boolean);
  return items.map((item) => {
    if (item === "default") return { label: "node defaults", args: [] };
    if (item === "shipped")
      return { label: `shipped: ${AGENT_NODE_ARGS.join(" ") || "(none)"}`, args: AGENT_NODE_ARGS };
    return { label: item, args: item.split(/\s+/) };
  });
}

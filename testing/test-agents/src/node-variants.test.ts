import { AGENT_NODE_ARGS } from "@switchboard/contract";
import { describe, expect, it } from "vitest";
import { nodeVariants } from "./node-variants.js";

describe("nodeVariants (BENCH_NODE_OPTIONS_VARIANTS)", () => {
  it("compares node's defaults with the shipped options (or, shipping none, a smaller young generation)", () => {
    expect(nodeVariants("")).toEqual([
      { label: "node defaults", args: [] },
      AGENT_NODE_ARGS.length > 0
        ? { label: `shipped: ${AGENT_NODE_ARGS.join(" ")}`, args: AGENT_NODE_ARGS }
        : { label: "--max-semi-space-size=2", args: ["--max-semi-space-size=2"] },
    ]);
    expect(nodeVariants("shipped")).toEqual([
      { label: `shipped: ${AGENT_NODE_ARGS.join(" ") || "(none)"}`, args: AGENT_NODE_ARGS },
    ]);
  });

  it("takes node options separated by semicolons", () => {
    expect(nodeVariants(" default ; --max-semi-space-size=4 --max-old-space-size=256;")).toEqual([
      { label: "node defaults", args: [] },
      {
        label: "--max-semi-space-size=4 --max-old-space-size=256",
        args: ["--max-semi-space-size=4", "--max-old-space-size=256"],
      },
    ]);
  });
});

import { main } from "@switchboard/eval";
import { startCaseFakes } from "./index.js";

/**
 * `pnpm eval:fakes`: pnpm eval on a fleet it starts whose vendors are the project's fakes, a fresh
 * one per case (Jira's and GitHub's seeded with the case's `vendors` state); only a model is needed. The fakes'
 * URLs and credentials take the place of any in the environment.
 */
export async function runOnFakes(argv: string[], root: string): Promise<number> {
  const fakes = await startCaseFakes();
  try {
    return await main(
      argv,
      { ...process.env, ...fakes.env },
      { root, out: (line) => process.stdout.write(`${line}\n`) },
      { caseVendors: fakes, vendors: fakes.vendors },
    );
  } finally {
    await fakes.close();
  }
}

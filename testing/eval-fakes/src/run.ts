import { main } from "@switchboard/eval";
import { FAKED_VENDORS, startCaseFakes } from "./index.js";

/**
 * `pnpm eval:fakes`: pnpm eval on a fleet it starts whose Jira and GitHub are the project's fakes,
 * a fresh one per case seeded with the case's `vendors` state; only a model is needed. The fakes'
 * URLs and credentials take the place of any in the environment.
 */
export async function runOnFakes(argv: string[], root: string): Promise<number> {
  const fakes = await startCaseFakes();
  try {
    return await main(
      argv,
      { ...process.env, ...fakes.env },
      { root, out: (line) => process.stdout.write(`${line}\n`) },
      { caseVendors: fakes, vendors: [...FAKED_VENDORS] },
    );
  } finally {
    await fakes.close();
  }
}

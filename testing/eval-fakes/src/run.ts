import { main } from "@switchboard/eval";
import { startCaseFakes } from "./index.js";

/**
 * The fleet's environment on the fakes: the developer's own, less every AWS and Open-Meteo setting
 * (a profile, a per-service endpoint or a key there could send the AWS agent to a real account or the
 * weather agent to a real host), with the fakes' URLs and credentials in place of any vendor's.
 */
export function fakesEnvironment(env: NodeJS.ProcessEnv, fakes: Record<string, string>): NodeJS.ProcessEnv {
  const own = Object.entries(env).filter(
    ([name]) => !name.startsWith("AWS_") && !name.startsWith("WEATHER_"),
  );
  return { ...Object.fromEntries(own), ...fakes };
}

/**
 * `pnpm eval:fakes`: pnpm eval on a fleet it starts whose vendors are the project's fakes, a fresh
 * one per case seeded with the case's `vendors` state (AWS on moto, Open-Meteo included); only a
 * model is needed.
 */
export async function runOnFakes(argv: string[], root: string): Promise<number> {
  const fakes = await startCaseFakes();
  try {
    return await main(
      argv,
      fakesEnvironment(process.env, fakes.env),
      { root, out: (line) => process.stdout.write(`${line}\n`) },
      { caseVendors: fakes, vendors: fakes.vendors },
    );
  } finally {
    await fakes.close();
  }
}

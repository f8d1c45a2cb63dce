import { relative } from "node:path";
import { bundleAgent } from "./bundle.js";

/** bundle-agent: bundles the agent package in `packageDir`; prints what it made, or why it could not. */
export async function main(packageDir: string): Promise<number> {
  try {
    const report = await bundleAgent(packageDir);
    process.stdout.write(
      `bundle-agent: ${relative(packageDir, report.entry)} and ${report.files - 1} chunks from ` +
        `${report.modules} modules in ${report.ms} ms\n`,
    );
    return 0;
  } catch (error) {
    // esbuild has printed each error with its file and line already.
    process.stderr.write(`bundle-agent: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

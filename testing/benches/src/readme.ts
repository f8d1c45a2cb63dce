import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

/** Set to "1", a bench writes its table into its README: numbers there are what a bench printed, never copied. */
export const WRITE_README = "BENCH_WRITE_README";

/**
 * The line above each written table: the day, the Node version and the machine it was measured on,
 * with its load (on a shared machine the load moves the numbers).
 */
export function measuredOn(date = new Date(), env: NodeJS.ProcessEnv = process.env): string {
  const model = cpus()[0]?.model.trim() || "unknown CPU";
  return `_Measured ${date.toISOString().slice(0, 10)} on Node ${process.version}, ${availableParallelism()} cores (${model}, load ${loadavg()[0]?.toFixed(1)} at the end), by \`${benchCommand(env)}\`._`;
}

/** The command as run, with the knobs it was given (BENCH_*, ROUNDS), so the numbers can be made again. */
function benchCommand(env: NodeJS.ProcessEnv): string {
  const knobs = Object.entries(env)
    .filter(([name]) => (name.startsWith("BENCH_") && name !== WRITE_README) || name === "ROUNDS")
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  const script = env.npm_lifecycle_event;
  return [...knobs, script ? `pnpm ${script}` : "the bench"].join(" ");
}

/** `text` with what stands between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` replaced by `body`. */
export function replaceSection(text: string, name: string, body: string): string {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start < 0 || end < 0)
    throw new Error(
      `the README has no section "${name}": add a line ${open} and a line ${close} where its table goes`,
    );
  return `${text.slice(0, start + open.length)}\n${body.trim()}\n${text.slice(end)}`;
}

/**
 * With BENCH_WRITE_README=1, writes `table` (markdown, as the bench printed it) under a measured-on line
 * into the section `name` of the README at `readme`; otherwise does nothing. Returns whether it wrote.
 */
export function recordTable(
  readme: URL | string,
  name: string,
  table: string,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env[WRITE_README] !== "1") return false;
  const path = readme instanceof URL ? fileURLToPath(readme) : readme;
  const text = readFileSync(path, "utf8");
  writeFileSync(path, replaceSection(text, name, `${measuredOn(new Date(), env)}\n\n${table.trim()}`));
  return true;
}

/** What a bench prints as its result: printed as it goes, and written into its README section by `save()`. */
export interface BenchReport {
  print(...text: unknown[]): void;
  /** Writes everything printed so far into the README (BENCH_WRITE_README=1), and says so. */
  save(): void;
}

export function benchReport(
  readme: URL | string,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): BenchReport {
  const printed: string[] = [];
  return {
    print(...text) {
      console.log(...text);
      printed.push(text.map(String).join(" "));
    },
    save() {
      if (recordTable(readme, name, printed.join("\n"), env))
        console.log(
          `\nWritten into ${readme instanceof URL ? fileURLToPath(readme) : readme} (section ${name}).`,
        );
    },
  };
}

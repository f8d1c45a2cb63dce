import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs, parseEnv } from "node:util";
import { isSwitchboardError } from "@switchboard/common";
import { createChatModel } from "@switchboard/llm";
import { type Configuration, type OpenTarget, openTarget } from "./configuration.js";
import { readEvalSettings } from "./env.js";
import { evalInputError } from "./errors.js";
import { type ConfigResult, evaluate } from "./evaluate.js";
import { type GateResult, gate } from "./gate.js";
import { renderHtml } from "./report/html.js";
import { renderMarkdown } from "./report/markdown.js";
import { reportModel } from "./report/rows.js";
import { startTraceCollector } from "./run/traces.js";
import { type Judge, modelJudge } from "./score/judge.js";
import { allCases, loadSets } from "./sets.js";
import type { CaseVendors } from "./vendors/recorder.js";

const USAGE = `pnpm eval [options]
  --set <file|folder|shipped|caipe:single_agent|caipe:multi_agent|caipe:strict_match[/<agent>]>  (repeatable; default shipped)
  --url <supervisor URL>        a running fleet (PLATFORM_ENGINEER_URL); without it the evaluation starts one
  --compare <file.env>          a second configuration: the fleet started with these settings on top
  --compare-url <URL>           a second configuration: another running fleet
  --names <a,b>                 the configurations' names in the report (default baseline,candidate)
  --runs <n>                    runs per case (EVAL_RUNS, default 3)
  --concurrency <n>             case runs at once (EVAL_CONCURRENCY, default 2)
  --baseline <results.json>     gate against an earlier run's results (its first configuration)
  --max-drop <0..1>             the gate's margin (EVAL_MAX_DROP, default 0.05)
  --out <folder>                where report.md, report.html and results.json go (default eval-report)
  --case <id>                   only cases whose key contains this (repeatable)
  --record <folder>             record the vendors the started fleet calls, one file per case (secrets masked)
  --replay <folder>             replay them from there: no vendor is reached, only the model
Exit: 0 passed (or nothing to gate), 1 the gate failed, 2 the evaluation could not run.`;

export interface CliIo {
  out: (line: string) => void;
  /** The repository (for .env and starting a fleet). */
  root: string;
}

/** What a runner on the fakes adds (testing/eval-fakes): each case's own vendors, and which they are. */
export interface CliFakes {
  caseVendors: CaseVendors;
  vendors: string[];
}

/** `pnpm eval`: returns the exit code. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  fakes?: CliFakes,
): Promise<number> {
  try {
    return await run(argv, env, io, fakes);
  } catch (error) {
    io.out(
      isSwitchboardError(error) ? error.message : `The evaluation failed: ${(error as Error).stack ?? error}`,
    );
    return 2;
  }
}

async function run(
  argv: string[],
  given: NodeJS.ProcessEnv,
  io: CliIo,
  fakes: CliFakes | undefined,
): Promise<number> {
  let parsed: ReturnType<typeof parseCli>;
  try {
    parsed = parseCli(argv);
  } catch (error) {
    throw evalInputError(`${(error as Error).message}\n${USAGE}`);
  }
  const { values } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  // Variables set in the shell win over .env, as npm start reads it.
  const envFile = join(io.root, ".env");
  const env: NodeJS.ProcessEnv = {
    ...(existsSync(envFile) ? (parseEnv(readFileSync(envFile, "utf8")) as NodeJS.ProcessEnv) : {}),
    ...given,
  };
  const settings = readEvalSettings(env);
  const number = (flag: string | undefined, fallback: number, name: string, max: number) => {
    if (flag === undefined) return fallback;
    const value = Number(flag);
    if (!Number.isFinite(value) || value < 0 || value > max)
      throw evalInputError(`--${name} ${flag}: give a number from 0 to ${max}.`);
    return value;
  };
  const sets = loadSets(values.set?.length ? values.set : ["shipped"], env);
  const filters = values.case ?? [];
  const cases = allCases(sets).filter((c) => filters.length === 0 || filters.some((f) => c.key.includes(f)));
  if (cases.length === 0) throw evalInputError("No case to run: check --set and --case.");
  const runs = Math.max(
    1,
    Math.round(
      number(values.runs, sets.length === 1 && sets[0]?.runs ? sets[0].runs : settings.EVAL_RUNS, "runs", 50),
    ),
  );
  const concurrency = Math.max(
    1,
    Math.round(number(values.concurrency, settings.EVAL_CONCURRENCY, "concurrency", 64)),
  );
  const maxDrop = number(values["max-drop"], settings.EVAL_MAX_DROP, "max-drop", 1);
  // A run gated against stored results is the candidate; a comparison's first side is the baseline.
  const alone = values.baseline && !values.compare && !values["compare-url"];
  const [nameA = alone ? "candidate" : "baseline", nameB = "candidate"] = (values.names ?? "")
    .split(",")
    .filter(Boolean);
  const token = settings.EVAL_AUTH_TOKEN;

  const url = values.url ?? settings.PLATFORM_ENGINEER_URL;
  if (values.record && values.replay) throw evalInputError("Give --record or --replay, not both.");
  const vendorMode = values.record
    ? { mode: "record" as const, dir: resolve(values.record) }
    : values.replay
      ? { mode: "replay" as const, dir: resolve(values.replay) }
      : undefined;
  if ((vendorMode || fakes) && url)
    throw evalInputError(
      `${vendorMode ? `--${vendorMode.mode}` : "The fakes"} need the fleet the evaluation starts (its vendor URLs point at the proxies): leave out --url and PLATFORM_ENGINEER_URL.`,
    );
  // A started fleet's vendors: recorded, replayed, or (on the fakes) each case's own, behind the proxies.
  const vendorSide: Pick<Extract<Configuration, { root: string }>, "vendors" | "caseVendors"> = {
    ...(vendorMode || fakes
      ? {
          vendors: {
            ...(vendorMode ?? { mode: "forward" as const, dir: resolve("eval-recordings") }),
            ...(fakes ? { names: fakes.vendors } : {}),
          },
        }
      : {}),
    ...(fakes ? { caseVendors: fakes.caseVendors } : {}),
  };
  const running =
    url && settings.EVAL_OTLP_PORT
      ? await startTraceCollector({ port: settings.EVAL_OTLP_PORT, host: settings.EVAL_OTLP_HOST })
      : undefined;
  const base: Configuration = url
    ? { name: nameA, url, ...(token ? { token } : {}), ...(running ? { traces: running } : {}) }
    : {
        name: nameA,
        root: io.root,
        env,
        ...(token ? { token } : {}),
        ...vendorSide,
      };
  const configs: Configuration[] = [base];
  if (values.compare) {
    const file = resolve(values.compare);
    if (!existsSync(file))
      throw evalInputError(
        `--compare ${values.compare}: no such file. Give a .env file of the settings the second configuration changes.`,
      );
    const overlay = parseEnv(readFileSync(file, "utf8")) as NodeJS.ProcessEnv;
    configs.push({
      name: nameB,
      root: io.root,
      env: { ...env, ...overlay },
      ...(token ? { token } : {}),
      ...vendorSide,
    });
  } else if (values["compare-url"])
    configs.push({ name: nameB, url: values["compare-url"], ...(token ? { token } : {}) });

  const judge = await judgeFrom(env);
  io.out(
    `Evaluating ${cases.length} cases × ${runs} runs on ${configs.map((c) => c.name).join(" and ")}${judge ? `, judged by ${judge.name}` : " (no judge model: rubrics undecided)"}.`,
  );
  const results: ConfigResult[] = [];
  try {
    for (const config of configs) {
      // One configuration at a time: two started fleets would share the contract's ports.
      let target: OpenTarget | undefined;
      try {
        target = await openTarget(config, { otlpHost: settings.EVAL_OTLP_HOST });
        for (const { name, error } of target.failed ?? [])
          io.out(
            `${config.name}: the ${name} agent did not start (its cases fail on routing): ${error.split("\n")[0]}`,
          );
        results.push(
          await evaluate(config.name, cases, target, {
            runs,
            concurrency,
            ...(judge ? { judge } : {}),
            onRun: (c, index, score) =>
              io.out(`${config.name} ${c.key} run ${index + 1}: ${score.pass ? "pass" : "FAIL"}`),
          }),
        );
      } finally {
        await target?.close();
        const lost = target?.traces?.passOnProblem();
        if (lost)
          io.out(
            `${config.name}: its traces could not all be passed on to its trace backend (${lost}): the report's trace links may not open; check OTEL_EXPORTER_OTLP_ENDPOINT.`,
          );
      }
    }
  } finally {
    await running?.close();
  }

  let verdict: GateResult | undefined;
  if (values.baseline) {
    const stored = JSON.parse(readFileSync(resolve(values.baseline), "utf8")) as { results?: ConfigResult[] };
    const before = stored.results?.[0];
    if (!before)
      throw evalInputError(
        `${values.baseline} holds no results: give the results.json an earlier run wrote.`,
      );
    verdict = gate(before, results.at(-1) as ConfigResult, maxDrop);
  } else if (results.length === 2)
    verdict = gate(results[0] as ConfigResult, results[1] as ConfigResult, maxDrop);

  const model = reportModel(results, {
    ...(settings.EVAL_TRACE_URL ? { traceUrl: settings.EVAL_TRACE_URL } : {}),
    // A compared .env may send its fleet's traces elsewhere, and say where its links go.
    traceUrls: configs.map((config) =>
      "env" in config ? readEvalSettings(config.env).EVAL_TRACE_URL : settings.EVAL_TRACE_URL,
    ),
    ...(verdict ? { gate: verdict } : {}),
  });
  const out = resolve(values.out ?? "eval-report");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "report.md"), renderMarkdown(model));
  writeFileSync(join(out, "report.html"), renderHtml(model));
  writeFileSync(
    join(out, "results.json"),
    `${JSON.stringify({ results, ...(verdict ? { gate: verdict } : {}) }, null, 2)}\n`,
  );
  for (const config of model.configs) io.out(`${config.name}: ${config.cells.join(" · ")}`);
  io.out(`Report: ${join(out, "report.md")}, ${join(out, "report.html")}`);
  if (verdict) io.out(`Gate ${verdict.pass ? "passed" : "FAILED"}: ${verdict.reason}`);
  return verdict && !verdict.pass ? 1 : 0;
}

function parseCli(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      set: { type: "string", multiple: true },
      case: { type: "string", multiple: true },
      url: { type: "string" },
      compare: { type: "string" },
      "compare-url": { type: "string" },
      names: { type: "string" },
      runs: { type: "string" },
      concurrency: { type: "string" },
      baseline: { type: "string" },
      "max-drop": { type: "string" },
      out: { type: "string" },
      record: { type: "string" },
      replay: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

/** The judge: `EVAL_JUDGE_<variable>` over the shared LLM settings (as any agent's own model); none offline. */
async function judgeFrom(env: NodeJS.ProcessEnv): Promise<Judge | undefined> {
  const choice = await createChatModel({ env, agent: "eval_judge" });
  return choice.offline ? undefined : modelJudge(choice.model, `${choice.provider} ${choice.modelName}`);
}

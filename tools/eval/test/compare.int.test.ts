// `pnpm eval --compare <file.env>` end to end: the harness starts two fleets in one run (supervisor and
// Jira agent as processes, over fake Jira), the second with a .env that changes the model, and gates
// the second against the first. The scripted model plays both models: it knows them by name.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onlyAgents } from "@switchboard/fleet";
import { freePort } from "@switchboard/vitest-config/ports";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import {
  type ChatCompletionRequest,
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConfigResult, main, startTraceCollector, traceDestination } from "../src/index.js";

const repoRoot = join(import.meta.dirname, "..", "..", "..");

/** The model the compared .env names: it searches with get_issue, the wrong tool. */
const CANDIDATE_MODEL = "gpt-regressed";
const regressed = (request: ChatCompletionRequest) => request.model === CANDIDATE_MODEL;

function script() {
  return rules(
    [
      { toolOffered: "call_agent", afterTool: "call_agent", reply: replyFromToolResult() },
      {
        toolOffered: "call_agent",
        lastUser: /.+/s,
        reply: (_r, { userText }) => callTool("call_agent", { agent: "jira", message: userText }),
      },
      { afterTool: true, reply: replyFromToolResult() },
      {
        lastUser: /^show ([A-Z]+-\d+)$/,
        reply: (_r, { match }) => callTool("get_issue", { key: match?.[1] }),
      },
      {
        lastUser: /open issues in ([A-Z]+)/,
        test: (request) => regressed(request),
        reply: (_r, { match }) => callTool("get_issue", { key: `${match?.[1]}-1` }),
      },
      {
        lastUser: /open issues in ([A-Z]+)/,
        reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]} ORDER BY key` }),
      },
    ],
    say("Jira is reachable."),
  );
}

const SET = `
name: compare
cases:
  - id: open-issues
    input: open issues in PLAT
    expect:
      agents: { names: [jira], match: exact }
      tools: [{ name: search_issues, agent: jira, args: { jql: { contains: "project = PLAT" } } }]
  - id: show
    input: show PLAT-1
    expect:
      tools: [{ name: get_issue, agent: jira, args: { key: PLAT-1 } }]
`;

describe("pnpm eval --compare: two fleets the harness starts in one run, side by side and gated", () => {
  let llm: ScriptedLlm;
  let jira: FakeJira;
  /** The trace backend the configurations' own settings name (Jaeger, Langfuse, …): the report links there. */
  let backend: OtlpReceiver;
  const dir = mkdtempSync(join(tmpdir(), "eval-compare-"));
  const out = join(dir, "report");
  const lines: string[] = [];
  let code: number;
  let results: ConfigResult[];
  let report: string;

  beforeAll(async () => {
    [llm, jira, backend] = await Promise.all([
      startScriptedLlm({ script: script() }),
      startFakeJira(),
      startOtlpReceiver(),
    ]);
    writeFileSync(join(dir, "compare.yaml"), SET);
    // The candidate: another model, and CAIPE's Langfuse settings for its traces instead of OTEL_*.
    writeFileSync(
      join(dir, "candidate.env"),
      [
        `OPENAI_MODEL_NAME=${CANDIDATE_MODEL}`,
        "OTEL_EXPORTER_OTLP_ENDPOINT=",
        "ENABLE_TRACING=true",
        `LANGFUSE_HOST=${backend.url}`,
        "LANGFUSE_PUBLIC_KEY=pk-lf-candidate",
        "LANGFUSE_SECRET_KEY=sk-lf-candidate",
        `EVAL_TRACE_URL=${backend.url}/langfuse/trace/{trace_id}`,
        "",
      ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LOG_LEVEL: "warn",
      ...llm.env,
      ATLASSIAN_API_URL: jira.url,
      ATLASSIAN_EMAIL: jira.email,
      ATLASSIAN_TOKEN: jira.token,
      ...onlyAgents(repoRoot, ["jira"]),
      SUPERVISOR_PORT: String(await freePort()),
      JIRA_AGENT_PORT: String(await freePort()),
      A2A_GRPC_PORT: "off",
      OTEL_EXPORTER_OTLP_ENDPOINT: backend.url,
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20backend-token",
      EVAL_TRACE_URL: `${backend.url}/trace/{trace_id}`,
    };
    code = await main(
      [
        ...["--set", join(dir, "compare.yaml"), "--compare", join(dir, "candidate.env")],
        ...["--names", "before,after", "--out", out],
      ],
      { ...env, EVAL_RUNS: "1", EVAL_MAX_DROP: "0.1" },
      { root: repoRoot, out: (line) => lines.push(line) },
    );
    results = (JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as { results: ConfigResult[] })
      .results;
    report = readFileSync(join(out, "report.md"), "utf8");
  });

  afterAll(async () => {
    await Promise.all([llm?.close(), jira?.close(), backend?.close()]);
  });

  it("fails the gate's exit code on the candidate's regression, each fleet scored from its own traces", () => {
    expect(code, lines.join("\n")).toBe(1);
    expect(lines.at(-1)).toBe(
      "Gate FAILED: after passes 50.0% of 2 cases' runs, before 100.0%: a drop of 50.0%, more than the 10.0% allowed (--max-drop).",
    );
    expect(
      results.map((r) => [
        r.name,
        r.cases.map((c) => [c.id, c.runs[0]?.pass, c.runs[0]?.observation.source]),
      ]),
    ).toEqual([
      [
        "before",
        [
          ["open-issues", true, "traces"],
          ["show", true, "traces"],
        ],
      ],
      [
        "after",
        [
          ["open-issues", false, "traces"],
          ["show", true, "traces"],
        ],
      ],
    ]);
    // Each fleet ran its own model: the compared .env's reached the second alone.
    expect(llm.requests.filter(regressed).length).toBeGreaterThan(0);
    expect(results[1]?.cases[0]?.runs[0]?.observation.tools).toEqual([
      { agent: "jira", name: "get_issue", args: { key: "PLAT-1" } },
    ]);
  });

  it("puts both side by side in the report, each run linked to its trace, which its trace backend holds", async () => {
    expect(report).toContain("# Evaluation: before vs after");
    expect(report).toContain("| case | before | after | what failed | traces |");
    const ids = results.map((r) => r.cases.map((c) => c.runs[0]?.observation.traceId as string));
    // Each side's links go where its own settings say (the compared .env names its own EVAL_TRACE_URL).
    const link = (name: string, id: string | undefined) =>
      `[${name} 1](${backend.url}${name === "after" ? "/langfuse" : ""}/trace/${id})`;
    expect(report).toContain(
      `| compare/open-issues | ✅ 1/1 | ❌ 0/1 | after: tools: called jira.get_issue; expected jira.search_issues`,
    );
    expect(report).toContain(`${link("before", ids[0]?.[0])} ${link("after", ids[1]?.[0])} |`);
    expect(report).toContain(
      `| compare/show | ✅ 1/1 | ✅ 1/1 | — | ${link("before", ids[0]?.[1])} ${link("after", ids[1]?.[1])} |`,
    );
    // Every linked trace reached the backend its configuration's own settings name: the first's over
    // OTEL_* with its headers, the second's at Langfuse's endpoint with its keys.
    const langfuse = `Basic ${Buffer.from("pk-lf-candidate:sk-lf-candidate").toString("base64")}`;
    const exported = (path: string, authorization: string) =>
      backend.bodies
        .filter(
          (_, i) =>
            backend.requests[i]?.path === path && backend.requests[i]?.authorization === authorization,
        )
        .join("\n");
    const otel = exported("/v1/traces", "Bearer backend-token");
    const toLangfuse = exported("/api/public/otel/v1/traces", langfuse);
    for (const id of ids[0] ?? []) expect(otel).toContain(id);
    for (const id of ids[1] ?? []) expect(toLangfuse).toContain(id);
    // The HTML report links the same traces.
    expect(readFileSync(join(out, "report.html"), "utf8")).toContain(
      `href="${backend.url}/langfuse/trace/${ids[1]?.[0]}"`,
    );
  });

  it("names a .env to compare that is missing, and runs nothing", async () => {
    const said: string[] = [];
    const missing = join(dir, "nowhere.env");
    expect(
      await main(
        ["--set", join(dir, "compare.yaml"), "--compare", missing],
        {},
        { root: dir, out: (l) => said.push(l) },
      ),
    ).toBe(2);
    expect(said).toEqual([
      `--compare ${missing}: no such file. Give a .env file of the settings the second configuration changes.`,
    ]);
  });

  it("passes a fleet's traces on without ever saying its backend's credentials, when the backend cannot be reached", async () => {
    const down = await freePort();
    const passOn = traceDestination({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://user:pass-in-url@127.0.0.1:${down}/v1/traces?key=in-query`,
    });
    expect(passOn?.headers.authorization).toBe(`Basic ${Buffer.from("user:pass-in-url").toString("base64")}`);
    const collector = await startTraceCollector(passOn ? { passOn } : {});
    const answer = await fetch(`${collector.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ resourceSpans: [] }),
    });
    // The fleet's export is taken whatever becomes of the pass-on.
    expect(answer.status).toBe(200);
    await collector.close();
    expect(collector.passOnProblem()).toBe(`http://127.0.0.1:${down}/v1/traces: ECONNREFUSED`);
  });
});

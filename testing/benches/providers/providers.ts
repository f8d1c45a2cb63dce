// pnpm bench:providers — per LLM provider protocol, against test-llm with a zero-latency scripted model:
// 1. a direct turn's overhead (p50 of invoke() and of a streamed turn, with tools bound): everything
//    here is overhead, since the model itself takes no time;
// 2. the input tokens billed over a 20-turn conversation with prompt caching off and on, from the
//    usage each protocol reports (cache reads and writes priced as Anthropic and Bedrock price them).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createChatModel } from "@switchboard/llm";
import { type ProviderName, rules, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { z } from "zod";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "providers");

const PROVIDERS: ProviderName[] = [
  "openai",
  "azure-openai",
  "anthropic-claude",
  "aws-bedrock",
  "google-gemini",
  "ollama",
];
const CACHE_SETTING: Partial<Record<ProviderName, string>> = {
  "anthropic-claude": "ANTHROPIC_ENABLE_PROMPT_CACHE",
  "aws-bedrock": "AWS_BEDROCK_ENABLE_PROMPT_CACHE",
};
const TURNS = 20;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
// Cache writes cost 1.25x an input token and reads 0.1x (Anthropic's and Bedrock's Claude pricing).
const WRITE_PRICE = 1.25;
const READ_PRICE = 0.1;

const tools = ["search_issues", "get_issue", "create_issue", "add_comment", "transition_issue"].map((name) =>
  tool(async () => "", {
    name,
    description: `Jira: ${name.replaceAll("_", " ")}. ${"Explains the arguments, the result and when to use it. ".repeat(4)}`,
    schema: z.object({ key: z.string().describe("Issue key"), text: z.string().optional().describe("Text") }),
  }),
);
const SYSTEM = `You are the Jira agent of a platform engineering assistant. ${"Follow the team's conventions for issues, comments and transitions; ask before any change. ".repeat(60)}`;

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function overhead(model: BaseChatModel): Promise<{ invoke: number; stream: number }> {
  const bound = model.bindTools?.(tools);
  if (!bound) throw new Error("bindTools missing");
  const input = [new SystemMessage(SYSTEM), new HumanMessage("hello")];
  for (let i = 0; i < 20; i++) await bound.invoke(input);
  const invoke: number[] = [];
  const stream: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    let start = performance.now();
    await bound.invoke(input);
    invoke.push(performance.now() - start);
    start = performance.now();
    for await (const _chunk of await bound.stream(input)) {
      // drained
    }
    stream.push(performance.now() - start);
  }
  return { invoke: p50(invoke), stream: p50(stream) };
}

interface Billed {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  billed: number;
}

async function conversation(model: BaseChatModel): Promise<Billed> {
  const bound = model.bindTools?.(tools);
  if (!bound) throw new Error("bindTools missing");
  const messages: BaseMessage[] = [new SystemMessage(SYSTEM)];
  const total: Billed = { input: 0, cacheRead: 0, cacheWrite: 0, billed: 0 };
  for (let turn = 1; turn <= TURNS; turn++) {
    messages.push(
      new HumanMessage(`Turn ${turn}: what changed on PLAT-${turn} since yesterday, in a few words?`),
    );
    const reply = (await bound.invoke(messages)) as AIMessage;
    messages.push(new AIMessage(reply.text));
    const usage = reply.usage_metadata;
    const read = usage?.input_token_details?.cache_read ?? 0;
    const write = usage?.input_token_details?.cache_creation ?? 0;
    const input = usage?.input_tokens ?? 0;
    total.input += input;
    total.cacheRead += read;
    total.cacheWrite += write;
    total.billed += input - read - write + read * READ_PRICE + write * WRITE_PRICE;
  }
  return total;
}

const llm = await startScriptedLlm({
  script: rules([], (_request, { userText }) =>
    say(`Nothing changed on ${/PLAT-\d+/.exec(userText)?.[0] ?? "it"}.`),
  ),
});
const rows: string[][] = [];
try {
  for (const provider of PROVIDERS) {
    const env = llm.envFor(provider);
    const { model } = await createChatModel({ env });
    const times = await overhead(model);
    const cacheVariable = CACHE_SETTING[provider];
    const off = await conversation(
      (await createChatModel({ env: { ...env, ...(cacheVariable ? { [cacheVariable]: "false" } : {}) } }))
        .model,
    );
    const on = cacheVariable
      ? await conversation((await createChatModel({ env: { ...env, [cacheVariable]: "true" } })).model)
      : undefined;
    rows.push([
      provider,
      llm.calls.at(-1)?.dialect ?? "?",
      times.invoke.toFixed(2),
      times.stream.toFixed(2),
      String(off.input),
      on ? String(on.cacheRead) : "n/a",
      on ? String(on.cacheWrite) : "n/a",
      off.billed.toFixed(0),
      on ? on.billed.toFixed(0) : "n/a",
    ]);
  }
} finally {
  await llm.close();
}

const header = [
  "LLM_PROVIDER",
  "protocol",
  "invoke p50 ms",
  "stream p50 ms",
  `input tok (${TURNS} turns)`,
  "cache read",
  "cache write",
  "billed, cache off",
  "billed, cache on",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
report.print(
  `Zero-latency scripted model, ${SAMPLES} samples per p50; billed = uncached + ${WRITE_PRICE}×write + ${READ_PRICE}×read input tokens\n`,
);
report.print(line(header));
report.print(line(widths.map((w) => "-".repeat(w))));
for (const row of rows) report.print(line(row));
report.save();

import { randomUUID } from "node:crypto";
import { type AgentConnection, connectAgent, type TurnResult } from "@switchboard/a2a-client";
import { type AgentProcess, startAgentProcess, streamTranscript } from "@switchboard-testing/test-agents";
import {
  isSummaryRequest,
  type ProviderName,
  type Rule,
  recallUserMessages,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
  textToSummarize,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { ensurePythonEnv, runPythonA2aClient } from "@switchboard-testing/test-python";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

/** Environment settings for the agent process; `undefined` leaves a variable out. */
export type Env = Record<string, string | undefined>;
/** A text the answer contains (string) or matches (RegExp); a list: all of them. */
export type Expected = string | RegExp | ReadonlyArray<string | RegExp>;
/** A value, or a function of the started service, for values known only once it runs (seeded ids). */
export type FromService<S, T> = T | ((service: S) => T);
type Check<S, A extends unknown[] = []> = (service: S, ...args: A) => void | Promise<void>;

/** The fake the agent talks to instead of the vendor: Jira, GitHub, moto, the template's API. */
export interface BackingService<S> {
  start(): Promise<S>;
  /** Default: the service's own `close()`. */
  stop?(service: S): Promise<void>;
  /** What points the agent at the service: URLs and credentials. */
  env(service: S): Env;
  /** How many requests the service has received so far: the card must cost none. */
  requests?(service: S): number;
}

export interface ConformanceOptions<S, C = unknown> {
  /** The contract name: the card's name, `checkpoints_<name>`, the prefix of the conversation ids. */
  name: string;
  /** The agent package's folder; its dist/index.js is started as a process. */
  packageDir: string;
  /** The card's skill ids, in order. */
  skills: string[];
  /** What the card's description contains. */
  description?: Expected;
  service: BackingService<S>;
  /**
   * The scripted LLM's rules for this agent's prompts (the read, change and streaming prompts, and any
   * the agent's own tests use). The suite adds "what did I ask" recall and answering from a tool result.
   */
  llmRules: Rule[];
  /** What the scripted LLM says when no rule matches. */
  fallback?: string;
  /** A read turn: the prompt, what the answer contains, and checks on the service's side. */
  read: { prompt: string; answer: FromService<S, Expected>; check?: Check<S> };
  /** A change that the agent asks to confirm; leave out for an agent that changes nothing (NetUtils, Weather). */
  change?: {
    prompt: FromService<S, string>;
    /** What the confirmation question contains. */
    question: FromService<S, Expected>;
    /**
     * The changes the service has applied so far, oldest first (issues created, calls received): the
     * approval must append exactly one, which `check` gets.
     */
    applied(service: S): readonly C[] | Promise<readonly C[]>;
    /** What the answer after approval contains. */
    answer?: FromService<S, Expected>;
    /** Checks while the question waits (nothing changed yet). */
    checkPending?: Check<S>;
    /** Checks after the approval, given the answer's text and the change it applied. */
    check?: Check<S, [answer: string, applied: C | undefined]>;
  };
  /** A change the user declines: a different one from `change` (that one has been applied by then). */
  decline?: { prompt: FromService<S, string>; question?: FromService<S, Expected>; check?: Check<S> };
  /** A credential left empty: the task fails naming it, without echoing a secret. Leave out for an agent that needs none. */
  credentials?: {
    /** The variable that is emptied, and that the error names (`set <variable>`). */
    variable: string;
    /** Settings over the normal env instead of emptying `variable`. */
    env?: Env;
    /** Default: the read prompt. */
    prompt?: string;
    /** What the error contains; default `set <variable>`. */
    error?: Expected;
    /** Texts that must appear neither in the answer nor in the agent's logs; default: the variable's normal value. */
    secrets?: (service: S) => string[];
  };
  /** A streamed turn that calls `tool`: its status update comes before the answer. */
  streaming: { prompt: string; tool: string; answer: FromService<S, Expected> };
  /** A turn from the Python a2a-sdk 0.3 client (CAIPE's supervisor); default: the read turn. */
  pythonPeer?: { prompt: string; answer: FromService<S, Expected> };
  /**
   * LLM providers (besides OpenAI, which every test above uses) to run a conversation over, each in its
   * own protocol against the same scripted LLM: the read turn's tool call, the change's confirmation,
   * and a summary of the conversation once it outgrows a small context budget. One agent process each.
   */
  providers?: readonly ProviderName[];
}

/** The running setup the suite shares with an agent's own tests in the same file. */
export interface AgentUnderTest<S> {
  readonly service: S;
  readonly llm: ScriptedLlm;
  readonly mongo: MongoClient;
  readonly dbName: string;
  /** The agent's env against the service, the scripted LLM and the test MongoDB. */
  env(overrides?: Env): Env;
  /** Starts the agent as a process of the test's own; it is stopped after the test. */
  start(overrides?: Env): Promise<AgentProcess>;
  /**
   * Connects to the agent: with settings of the test's own, to a process started for the test;
   * without, to the process the file's tests share (the normal env), as each of them could start.
   */
  connect(overrides?: Env): Promise<AgentConnection>;
  /** Sends the agent (as `connect` chooses it) one turn in a new conversation. */
  ask(text: string, overrides?: Env): Promise<TurnResult>;
  /** A new conversation id. */
  contextId(): string;
}

/** The protocol each provider's requests arrive in at the scripted LLM. */
const DIALECTS: Record<ProviderName, string> = {
  openai: "openai",
  "azure-openai": "openai",
  "anthropic-claude": "anthropic",
  "aws-bedrock": "bedrock",
  "google-gemini": "gemini",
  ollama: "ollama",
};

/** Asserts that `text` contains every string and matches every RegExp of `expected`. */
export function expectText(text: string | undefined, expected: Expected): void {
  const all: ReadonlyArray<string | RegExp> = Array.isArray(expected)
    ? expected
    : [expected as string | RegExp];
  for (const one of all) {
    if (typeof one === "string") expect(text).toContain(one);
    else expect(text).toMatch(one);
  }
}

function stopService<S>(backing: BackingService<S>, service: S): Promise<void> | undefined {
  if (backing.stop) return backing.stop(service);
  const { close } = service as { close?: () => Promise<void> };
  return typeof close === "function" ? close.call(service) : undefined;
}

/** The script the suite runs the agent with: the agent's rules, then recall and answering from tool results. */
export function conformanceRules(llmRules: Rule[]): Rule[] {
  return [
    // A summary that names what the user asked, so "what did I ask" still finds it once summarized.
    {
      test: isSummaryRequest,
      reply: (request) => say(`The user asked: ${userLines(textToSummarize(request)).join(" | ")}`),
    },
    ...llmRules,
    { lastUser: /what did I ask/, reply: recallUserMessages() },
    { afterTool: true, reply: replyFromToolResult() },
  ];
}

function userLines(text: string): string[] {
  return [...text.matchAll(/^(?:human|user|The user asked)[^:]*: (.+)$/gim)].map((m) => m[1] ?? "");
}

/**
 * Registers the conformance tests for one agent package, in the manner of LangGraph's checkpointer
 * `validate()`: call it in a test file with what is particular to the agent. The setup (scripted LLM,
 * backing service, MongoDB) is registered in the calling scope and returned, so the file's own tests
 * for what only this agent does can share it.
 */
export function agentConformance<S, C = unknown>(options: ConformanceOptions<S, C>): AgentUnderTest<S> {
  const { name } = options;
  const dbName = uniqueDbName(name.replaceAll("-", "_"));
  let llm: ScriptedLlm | undefined;
  let service: S | undefined;
  let mongo: MongoClient | undefined;
  const agents: AgentProcess[] = [];
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`agentConformance: the ${what} is not started (use it in a test)`);
    return value;
  };
  const of = <T>(value: FromService<S, T>): T =>
    typeof value === "function" ? (value as (service: S) => T)(ready(service, "service")) : value;
  const requests = () => (options.service.requests ? options.service.requests(agent.service) : 0);

  // One agent process with the normal env serves every test of the file, the suite's and the
  // agent's own, that needs no other settings and no restart (each in its own conversation):
  // starting an agent takes seconds of CPU, and the files used to start one per test. Started by
  // the card test, which comes first, so that test still sees what starting costs the service;
  // stopped after the file.
  let shared: Promise<AgentProcess> | undefined;
  let requestsBeforeShared = 0;
  const sharedAgent = (): Promise<AgentProcess> => {
    if (!shared) {
      requestsBeforeShared = requests();
      shared = startAgentProcess(options.packageDir, { env: agent.env() });
    }
    return shared;
  };
  const connectShared = async (): Promise<AgentConnection> => connectAgent((await sharedAgent()).url);

  const agent: AgentUnderTest<S> = {
    get service() {
      return ready(service, "service");
    },
    get llm() {
      return ready(llm, "scripted LLM");
    },
    get mongo() {
      return ready(mongo, "MongoDB client");
    },
    dbName,
    env: (overrides = {}) => ({
      // No turn runs when the suite stops an agent (SIGTERM, after each test and the file): without a
      // grace period it closes at once instead of staying a second for load balancers to notice
      // (READY_NOTICE_MS), a second per stop across every agent package's suite.
      SHUTDOWN_GRACE_SECONDS: "0",
      ...testMongoEnv(dbName),
      ...agent.llm.env,
      ...options.service.env(agent.service),
      ...overrides,
    }),
    start: async (overrides = {}) => {
      const started = await startAgentProcess(options.packageDir, { env: agent.env(overrides) });
      agents.push(started);
      return started;
    },
    connect: async (overrides = {}) =>
      Object.keys(overrides).length === 0
        ? connectShared()
        : connectAgent((await agent.start(overrides)).url),
    ask: async (text, overrides = {}) =>
      (await agent.connect(overrides)).send({ text, contextId: agent.contextId() }),
    contextId: () => `${name}-${randomUUID()}`,
  };

  beforeAll(async () => {
    [llm, service, mongo] = await Promise.all([
      startScriptedLlm({
        script: rules(conformanceRules(options.llmRules), say(options.fallback ?? `I am the ${name} agent.`)),
      }),
      options.service.start(),
      MongoClient.connect(testMongoUri()),
    ]);
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((process) => process.kill("SIGTERM")));
  });
  afterAll(async () => {
    const sharedProcess = shared;
    shared = undefined;
    await sharedProcess?.then(
      (process) => process.kill("SIGTERM"),
      () => undefined,
    );
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([
      mongo?.close(),
      llm?.close(),
      service === undefined ? undefined : stopService(options.service, service),
    ]);
  });

  describe(`${name} agent conformance`, () => {
    it("publishes a card with its skills and both protocol interfaces, without calling its service", async () => {
      const started = await sharedAgent();
      const { card } = await connectAgent(started.url);
      expect(card).toMatchObject({ name, streaming: true });
      expect(card.skills.map((skill) => skill.id)).toEqual(options.skills);
      // Calls go to the URL connected with, whatever host the card names (the card's is localhost).
      expect(card.url).toBe(`${started.url}/`);
      if (options.description !== undefined) expectText(card.description, options.description);

      const raw = (await (await fetch(`${started.url}/.well-known/agent-card.json`)).json()) as {
        supportedInterfaces?: Array<{ protocolBinding: string; protocolVersion: string; url: string }>;
      };
      const bindings = (raw.supportedInterfaces ?? []).map(
        (i) => `${i.protocolBinding} ${i.protocolVersion}`,
      );
      expect(bindings).toEqual(expect.arrayContaining(["JSONRPC 1.0", "HTTP+JSON 1.0"]));
      expect(raw.supportedInterfaces?.[0]?.url).toBe(`http://localhost:${started.port}/`);
      expect(requests()).toBe(requestsBeforeShared);
    });

    it("answers a read turn through its tool and the scripted LLM", async () => {
      const connection = await connectShared();
      const result = await connection.send({ text: options.read.prompt, contextId: agent.contextId() });
      expect(result.state).toBe("completed");
      expectText(result.text, of(options.read.answer));
      await options.read.check?.(agent.service);
    });

    it(`remembers the conversation across turns of one contextId, in checkpoints_${name}`, async () => {
      const connection = await connectShared();
      const contextId = agent.contextId();
      const first = await connection.send({ text: options.read.prompt, contextId });
      expect(first.state).toBe("completed");
      const second = await connection.send({ text: "what did I ask before?", contextId });
      expect(second.state).toBe("completed");
      expect(second.text).toContain(options.read.prompt);
      const stored = await agent.mongo
        .db(dbName)
        .collection(`checkpoints_${name}`)
        .countDocuments({ thread_id: contextId });
      expect(stored).toBeGreaterThan(0);
    });

    // An agent with no change tools (or no credentials) has nothing to confirm (or to miss): those cases are skipped.
    it.skipIf(!options.change)(
      "asks before a change; after a SIGKILL and restart, approval applies it exactly once",
      async () => {
        const change = ready(options.change, "change");
        let started = await agent.start();
        let connection = await connectAgent(started.url);
        const contextId = agent.contextId();
        const before = (await change.applied(agent.service)).length;
        const asked = await connection.send({ text: of(change.prompt), contextId });
        expect(asked.state).toBe("input-required");
        expectText(asked.question, of(change.question));
        expect(await change.applied(agent.service)).toHaveLength(before);
        await change.checkPending?.(agent.service);

        await started.kill("SIGKILL");
        started = await agent.start();
        connection = await connectAgent(started.url);
        const approved = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
        expect(approved.state).toBe("completed");
        const applied = await change.applied(agent.service);
        expect(applied).toHaveLength(before + 1);
        if (change.answer !== undefined) expectText(approved.text, of(change.answer));
        await change.check?.(agent.service, approved.text ?? "", applied.at(-1));
      },
    );

    it.skipIf(!options.change || !options.decline)("changes nothing when the user declines", async () => {
      const decline = ready(options.decline, "decline");
      const change = ready(options.change, "change");
      const connection = await connectShared();
      const contextId = agent.contextId();
      const before = (await change.applied(agent.service)).length;
      const asked = await connection.send({ text: of(decline.prompt), contextId });
      expect(asked.state).toBe("input-required");
      if (decline.question !== undefined) expectText(asked.question, of(decline.question));
      const declined = await connection.send({ text: "no", contextId, taskId: asked.taskId });
      expect(declined.state).toBe("completed");
      expect(await change.applied(agent.service)).toHaveLength(before);
      await decline.check?.(agent.service);
    });

    it.skipIf(!options.credentials)(
      "fails the task naming the missing credential, without leaking a secret",
      async () => {
        const credentials = ready(options.credentials, "credentials option");
        const normal = options.service.env(agent.service)[credentials.variable];
        const secrets = credentials.secrets?.(agent.service) ?? (normal ? [normal] : []);
        const started = await agent.start(credentials.env ?? { [credentials.variable]: "" });
        const connection = await connectAgent(started.url);
        const result = await connection.send({
          text: credentials.prompt ?? options.read.prompt,
          contextId: agent.contextId(),
        });
        expect(result.state).toBe("failed");
        expectText(result.text, credentials.error ?? `set ${credentials.variable}`);
        for (const secret of secrets) {
          expect(result.text).not.toContain(secret);
          expect(started.logs()).not.toContain(secret);
        }
      },
    );

    it("streams the tool call as a status update before the final answer", async () => {
      const { streaming } = options;
      const connection = await connectShared();
      const kinds = await streamTranscript(connection, {
        text: streaming.prompt,
        contextId: agent.contextId(),
      });
      const toolCall = kinds.indexOf(`status:working:Calling ${streaming.tool}`);
      expect(toolCall).toBeGreaterThan(-1);
      expect(kinds.indexOf("answer")).toBeGreaterThan(toolCall);
      const last = kinds.at(-1) ?? "";
      expect(last).toMatch(/^status:completed:/);
      expectText(last, of(streaming.answer));
    });

    const providers = (options.providers ?? []).filter((provider) => provider !== "openai");
    if (providers.length > 0) {
      describe.each(providers)("over LLM_PROVIDER=%s", (provider) => {
        it("calls its tool, asks before a change and summarizes a long conversation", async () => {
          // The provider's settings, except those the service itself sets (the AWS agent's own keys).
          const serviceEnv = options.service.env(agent.service);
          const llmEnv = Object.fromEntries(
            Object.entries(agent.llm.envFor(provider)).filter(([name]) => !(name in serviceEnv)),
          );
          const from = agent.llm.calls.length;
          // A budget the first two turns outgrow, so the third starts with a summary request.
          const connection = await agent.connect({
            ...llmEnv,
            MAX_CONTEXT_TOKENS: "200",
            MIN_MESSAGES_TO_KEEP: "2",
          });
          const contextId = agent.contextId();

          const read = await connection.send({ text: options.read.prompt, contextId });
          expect(read.state).toBe("completed");
          expectText(read.text, of(options.read.answer));

          const { change } = options;
          if (change) {
            const before = (await change.applied(agent.service)).length;
            const asked = await connection.send({ text: of(change.prompt), contextId });
            expect(asked.state).toBe("input-required");
            expectText(asked.question, of(change.question));
            const approved = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
            expect(approved.state).toBe("completed");
            expect(await change.applied(agent.service)).toHaveLength(before + 1);
          } else {
            expect((await connection.send({ text: options.read.prompt, contextId })).state).toBe("completed");
          }

          const recall = await connection.send({ text: "what did I ask before?", contextId });
          expect(recall.state).toBe("completed");
          expect(recall.text).toContain(options.read.prompt);

          const calls = agent.llm.calls.slice(from);
          const requests = agent.llm.requests.slice(from);
          const dialect = DIALECTS[provider];
          expect(calls.every((call) => call.dialect === dialect)).toBe(true);
          expect(requests.some(isSummaryRequest)).toBe(true);
        });
      });
    }

    describe("with a Python a2a-sdk 0.3 peer", () => {
      // A cold virtualenv takes a minute or two to install: not charged to the test's own timeout.
      beforeAll(() => ensurePythonEnv(), 600_000);

      it("answers the Python client over message/send, keeping its contextId", async () => {
        const turn = options.pythonPeer ?? options.read;
        const started = await sharedAgent();
        const contextId = `caipe-${randomUUID()}`;
        const result = await runPythonA2aClient({ url: started.url, text: turn.prompt, contextId });
        expect(result.contextId).toBe(contextId);
        expect(result.state).toBe("completed");
        expectText(result.text, of(turn.answer));
      });
    });
  });

  return agent;
}

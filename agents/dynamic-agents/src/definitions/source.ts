import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { Logger } from "@switchboard/common";
import { specOf } from "./agent-spec.js";
import { type AppConfig, readAppConfig } from "./app-config.js";
import { checkAgent } from "./caipe-agent.js";
import { configDocuments, storedConfig, storedModel, storedServer } from "./documents.js";
import { fieldPath } from "./expand.js";
import { memoryStore } from "./memory-store.js";
import { mongoStore } from "./mongo-store.js";
import { type Candidate, resolveAgents } from "./resolve.js";
import { LIMITS } from "./rules.js";
import { readDefinitionSettings } from "./settings.js";
import type {
  DefinitionProblem,
  DefinitionSource,
  DefinitionStore,
  Definitions,
  OpenDefinitionsOptions,
  ToolSourceSpec,
} from "./spec.js";
import { watchFile } from "./watch.js";

/** How often the store is asked whether another replica changed it. */
const POLL_MS = 1_000;

/**
 * The file (APP_CONFIG_FILE, watched) and the store (MongoDB, else memory; polled) merged into one
 * source of configured agents. The file's entries are also written to the store as CAIPE's seed
 * writes them (config-driven), so CAIPE's UI and every replica see them.
 */
export async function openDefinitions(
  options: OpenDefinitionsOptions & { pollMs?: number },
): Promise<DefinitionSource> {
  const settings = readDefinitionSettings(options.env);
  const store = options.db ? mongoStore(options.db) : memoryStore();
  const source = new MergedDefinitions(store, settings.file, options.env, options.logger);
  await source.start(options.pollMs ?? POLL_MS);
  return source;
}

class MergedDefinitions implements DefinitionSource {
  private definitions: Definitions = { agents: [], toolSources: [], models: [], problems: [], unused: [] };
  private readonly listeners = new Set<(next: Definitions) => void>();
  private config: AppConfig | undefined;
  /** What is wrong with the file as a whole (missing, not YAML): its last good reading stays. */
  private fileProblem: DefinitionProblem | undefined;
  private fileHash: string | undefined;
  private lastGood = new Map<string, Candidate>();
  private revision: string | undefined;
  private said = "";
  /** One reading at a time, in order: a file change and a poll never interleave. */
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private watcher: { close(): void } | undefined;
  private pollFailing = false;
  /** The file's reading not yet written to the store (it could not be reached). */
  private unsynced: AppConfig | undefined;
  private saidProblems = new Set<string>();

  constructor(
    readonly store: DefinitionStore,
    private readonly file: string | undefined,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logger: Logger,
  ) {}

  async start(pollMs: number): Promise<void> {
    try {
      if (this.file) {
        this.watcher = watchFile(this.file, () => void this.enqueue(() => this.readFile()));
        await this.enqueue(() => this.readFile());
      }
      await this.enqueue(() => this.recompute());
    } catch (error) {
      this.watcher?.close();
      throw error;
    }
    this.timer = setInterval(() => void this.enqueue(() => this.poll()), pollMs);
    this.timer.unref();
  }

  current(): Definitions {
    return this.definitions;
  }

  onChange(listener: (next: Definitions) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  refresh(): Promise<void> {
    return this.enqueue(() => this.recompute());
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.watcher?.close();
    this.listeners.clear();
    await this.queue;
    await this.store.close();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work);
    this.queue = next.catch((error) => {
      this.logger.error({ err: error }, "reading the agent definitions failed; the last ones stay");
    });
    return next;
  }

  /** Reads the file if its contents changed; a file that does not read keeps the last good reading. */
  private async readFile(): Promise<void> {
    const file = this.file as string;
    let text: string;
    try {
      // A file far larger than any app config is not read into memory at all.
      if ((await stat(file)).size > LIMITS.fileBytes) {
        this.fileProblem = {
          field: "APP_CONFIG_FILE",
          message: `${file} is over ${LIMITS.fileBytes / 1024 / 1024} MB: split it, or move agents to the API (everything it defined before stays as it was)`,
        };
        this.fileHash = undefined;
        await this.recompute();
        return;
      }
      text = await readFile(file, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      this.fileProblem = {
        field: "APP_CONFIG_FILE",
        message:
          code === "ENOENT"
            ? `${file} does not exist: create it, or point APP_CONFIG_FILE at CAIPE's app-config.yaml (agents it defined before stay until it is back)`
            : `${file} cannot be read (${code ?? String(error)}): check its permissions`,
      };
      this.fileHash = undefined;
      await this.recompute();
      return;
    }
    const hash = createHash("sha256").update(text).digest("hex");
    if (hash === this.fileHash) return;
    this.fileHash = hash;
    const read = readAppConfig(text, this.env, dirname(file));
    if (!read.ok) {
      this.fileProblem = {
        ...read.problem,
        message: `${file}: ${read.problem.message} (everything it defined before stays as it was)`,
      };
      await this.recompute();
      return;
    }
    this.fileProblem = undefined;
    this.config = read.config;
    this.unsynced = read.config;
    await this.syncFile();
    await this.recompute();
  }

  /**
   * Writes the file's reading to the store, as CAIPE's seed. When the store cannot be written the
   * file's agents are served all the same, and the next poll tries again.
   */
  private async syncFile(): Promise<void> {
    const config = this.unsynced;
    if (!config) return;
    try {
      const { conflicts } = await this.store.syncConfig(configDocuments(config));
      if (conflicts.length > 0) {
        this.logger.warn(
          { ids: conflicts },
          "the file defines ids that entries made through the API hold; the API's are kept",
        );
      }
      if (this.unsynced === config) this.unsynced = undefined;
    } catch (error) {
      this.logger.warn(
        { err: error },
        "the app config could not be written to the definitions store; trying again",
      );
    }
  }

  /** Each problem once, when it first appears (a poll that finds it again says nothing). */
  private sayNewProblems(problems: readonly DefinitionProblem[]): void {
    const now = new Set<string>();
    for (const problem of problems) {
      const key = `${problem.field}\n${problem.message}`;
      now.add(key);
      if (this.saidProblems.has(key)) continue;
      this.logger.warn(
        { ...(problem.agent ? { agent: problem.agent } : {}), field: problem.field },
        `agent definitions: ${problem.field}: ${problem.message}`,
      );
    }
    this.saidProblems = now;
  }

  private async poll(): Promise<void> {
    await this.syncFile();
    let revision: string;
    try {
      revision = await this.store.revision();
    } catch (error) {
      if (!this.pollFailing)
        this.logger.warn({ err: error }, "the definitions store cannot be read; the agents stay as they are");
      this.pollFailing = true;
      return;
    }
    if (this.pollFailing) this.logger.info("the definitions store can be read again");
    this.pollFailing = false;
    if (revision !== this.revision) await this.recompute();
  }

  /** The file's reading and the store's contents, checked together; listeners told of any change. */
  private async recompute(): Promise<void> {
    const revision = await this.store.revision();
    const [storedAgents, storedServers, storedModels] = await Promise.all([
      this.store.listAgents(),
      this.store.listMcpServers(),
      this.store.listModels(),
    ]);
    // Started with a file that does not read: the last good reading is what the file wrote to the store.
    const config =
      this.config ??
      (this.fileProblem ? storedConfig(storedAgents, storedServers, storedModels, this.env) : undefined);
    const problems: DefinitionProblem[] = this.fileProblem ? [this.fileProblem] : [];
    problems.push(...(config?.problems ?? []));

    const toolSources: ToolSourceSpec[] = [...(config?.toolSources ?? [])];
    const disabled = new Set(config?.disabledSources.keys() ?? []);
    const taken = new Set([...toolSources.map((one) => one.id), ...disabled]);
    for (const doc of storedServers) {
      if (doc.config_driven || taken.has(doc._id)) continue;
      const checked = storedServer(doc);
      if (!checked.ok) problems.push(...checked.problems);
      else if (checked.enabled) toolSources.push(checked.spec);
      else disabled.add(checked.spec.id);
    }
    const models = [...(config?.models ?? [])];
    for (const doc of storedModels) {
      if (!doc.config_driven && !models.some((model) => model.modelId === doc._id))
        models.push(storedModel(doc));
    }

    const apiMade = storedAgents.filter((doc) => !doc.config_driven);
    const apiIds = new Set(apiMade.map((doc) => String(doc._id)));
    const candidates: Candidate[] = [];
    const invalid = new Set<string>();
    for (const [id, { at, fields }] of config?.agents ?? []) {
      if (apiIds.has(id)) {
        problems.push({
          agent: id,
          field: fieldPath(at, "id"),
          message: `an agent made through the API has the id "${id}" already, and the file does not replace it: rename this one, or delete that one`,
        });
        continue;
      }
      candidates.push({ spec: specOf(id, fields, "config"), at });
    }
    for (const id of config?.invalid ?? []) if (!apiIds.has(id)) invalid.add(id);
    for (const doc of apiMade) {
      const id = String(doc._id);
      const at = fieldPath("dynamic_agents", id);
      const checked = checkAgent(doc, { at, defaultVisibility: "team", id });
      if (checked.ok) candidates.push({ spec: specOf(id, checked.fields, "api"), at });
      else {
        invalid.add(id);
        problems.push(...checked.problems);
      }
    }

    const resolved = resolveAgents({
      candidates,
      invalid,
      toolSources,
      disabledSources: disabled,
      models,
      lastGood: this.lastGood,
    });
    this.lastGood = resolved.good;
    this.revision = revision;
    const next: Definitions = {
      agents: resolved.agents,
      toolSources,
      models,
      problems: [...problems, ...resolved.problems],
      unused: config?.unused ?? [],
    };
    const said = JSON.stringify(next);
    if (said === this.said) return;
    this.said = said;
    this.definitions = next;
    this.sayNewProblems(next.problems);
    for (const listener of this.listeners) {
      try {
        listener(next);
      } catch (error) {
        this.logger.error({ err: error }, "a listener to the agent definitions failed");
      }
    }
  }
}

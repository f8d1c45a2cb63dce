import { readFileSync } from "node:fs";
import { SwitchboardError } from "@switchboard/common";
import { Cron } from "croner";
import { parse } from "yaml";
import { z } from "zod";
import { unescapedTags } from "./prompt.js";
import type { ClientCredentials } from "./service-token.js";

/** The vendors whose deliveries this service verifies, each as the vendor signs (verify.ts). */
export const PROVIDERS = ["alertmanager", "github", "pagerduty", "generic_hmac"] as const;
export type Provider = (typeof PROVIDERS)[number];

/**
 * The task's own principal: the variables holding its OAuth client's id and secret (CAIPE's tasks act
 * as the one service client, DYNAMIC_AGENTS_OAUTH2_*; here a task may have its own, so a policy grants
 * each task only what it needs). Both or neither; neither: the service's client.
 */
const PrincipalFields = {
  client_id_env: z.string().min(1).optional(),
  client_secret_env: z.string().min(1).optional(),
};

/** CAIPE's webhook trigger, with the secret also taken from the environment (never written in the file). */
const WebhookTrigger = z
  .object({
    type: z.literal("webhook"),
    ...PrincipalFields,
    provider: z.enum(PROVIDERS).default("generic_hmac"),
    secret: z.string().min(1).optional(),
    /** The variable holding the secret: keeps it out of a file that is often committed. */
    secret_env: z.string().min(1).optional(),
    /** A header carrying the delivery's id (CAIPE's dedup_header); the vendor's own by default. */
    dedup_header: z.string().min(1).optional(),
  })
  .strict();

/** CAIPE's cron trigger, with the time zone it is read in (CAIPE reads every schedule in UTC). */
const CronTrigger = z
  .object({
    type: z.literal("cron"),
    ...PrincipalFields,
    /** Five fields, or six with seconds first (croner's syntax). */
    schedule: z.string().min(1),
    /** An IANA zone ("Europe/Berlin"): 09:00 stays 09:00 there across daylight saving. */
    timezone: z.string().min(1).default("UTC"),
  })
  .strict();

const SlackDestination = z.object({ slack: z.object({ channel: z.string().min(1) }).strict() }).strict();
const WebhookDestination = z
  .object({ webhook: z.object({ url: z.url({ protocol: /^https?$/ }) }).strict() })
  .strict();
/** Where a vendor's comment goes may come from the payload (a template), checked when the run starts. */
const target = z.string().min(1);
const JiraCommentDestination = z.object({ jira_comment: z.object({ issue: target }).strict() }).strict();
const GithubCommentDestination = z
  .object({ github_comment: z.object({ repo: target, issue: target }).strict() })
  .strict();
const PagerDutyNoteDestination = z
  .object({ pagerduty_note: z.object({ incident: target }).strict() })
  .strict();
const WebexDestination = z.object({ webex: z.object({ room_id: z.string().min(1) }).strict() }).strict();

/** One of CAIPE's task definitions, as a YAML list item; `agent_url` and `deliver_to` are Switchboard's. */
const TaskSchema = z
  .object({
    id: z.string().regex(/^[\w-]{1,64}$/, "letters, digits, - and _ (it is the webhook URL's last part)"),
    name: z.string().min(1),
    description: z.string().optional(),
    /** Any A2A agent; the supervisor (CAIPE_URL) when absent. */
    agent_url: z.url({ protocol: /^https?$/ }).optional(),
    /** A mustache template filled from the payload; what it fills in is shown to the agent as data. */
    prompt: z.string().min(1),
    trigger: z.discriminatedUnion("type", [WebhookTrigger, CronTrigger]),
    /** A summary line for where the answer goes (the Slack thread's first message), also a template. */
    title: z.string().min(1).optional(),
    deliver_to: z
      .array(
        z.union([
          SlackDestination,
          WebhookDestination,
          JiraCommentDestination,
          GithubCommentDestination,
          PagerDutyNoteDestination,
          WebexDestination,
        ]),
      )
      .default([]),
    enabled: z.boolean().default(true),
    /** CAIPE's: the run's time budget; past it the run is ended, saying so. */
    timeout_seconds: z.number().positive().optional(),
    /** What one turn of the run may spend on the model, its subagents included (agent-runtime's turn/budget.ts). */
    budget: z
      .object({
        model_calls: z.number().int().positive().optional(),
        tokens: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const ConfigSchema = z.object({ tasks: z.array(TaskSchema) }).strict();

/**
 * Where a run's answer goes. A comment's or note's target is a template over the payload (`{{issue.key}}`),
 * filled and checked against the vendor's id shape when the run starts (destinations.ts' `resolve`).
 */
export type Destination =
  | { kind: "slack"; channel: string }
  | { kind: "webhook"; url: string }
  | { kind: "jira_comment"; issue: string }
  | { kind: "github_comment"; repo: string; issue: string }
  | { kind: "pagerduty_note"; incident: string }
  | { kind: "webex"; roomId: string };

function destinationOf(d: z.output<typeof TaskSchema>["deliver_to"][number]): Destination {
  if ("slack" in d) return { kind: "slack", channel: d.slack.channel };
  if ("webhook" in d) return { kind: "webhook", url: d.webhook.url };
  if ("jira_comment" in d) return { kind: "jira_comment", issue: d.jira_comment.issue };
  if ("github_comment" in d)
    return { kind: "github_comment", repo: d.github_comment.repo, issue: d.github_comment.issue };
  if ("pagerduty_note" in d) return { kind: "pagerduty_note", incident: d.pagerduty_note.incident };
  return { kind: "webex", roomId: d.webex.room_id };
}

export interface WebhookSettings {
  kind: "webhook";
  provider: Provider;
  /** The secret the vendor signs with (for Alertmanager, the bearer token its http_config sends). */
  secret: string;
  dedupHeader: string | undefined;
}

export interface ScheduleSettings {
  kind: "cron";
  schedule: string;
  timezone: string;
}

export interface TaskDefinition {
  id: string;
  name: string;
  agentUrl: string | undefined;
  prompt: string;
  title: string | undefined;
  trigger: WebhookSettings | ScheduleSettings;
  destinations: Destination[];
  enabled: boolean;
  timeoutMs: number | undefined;
  /** Model calls and tokens one turn of a run may spend; undefined: no limit of its own. */
  budget: { modelCalls?: number; tokens?: number } | undefined;
  /** The task's own OAuth client (trigger.client_id_env); undefined: the service's. */
  client: ClientCredentials | undefined;
}

/**
 * The tasks in `file`, each with its secret resolved: a task without one (its own, its `secret_env`,
 * or WEBHOOK_SECRET) is refused here, so no delivery is ever taken unverified.
 */
export function loadTasks(
  file: string,
  env: NodeJS.ProcessEnv,
  fallbackSecret: string | undefined,
): Map<string, TaskDefinition> {
  const fail = (message: string) => new SwitchboardError("triggers.config", "user", `${file}: ${message}`);
  let raw: unknown;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(
      `${code === "ENOENT" ? "there is no such file" : `cannot be read (${code ?? String(error)})`}; set TRIGGERS_CONFIG_FILE to the path of the tasks' YAML file (tools/triggers/examples/triggers.yaml is one to start from).`,
    );
  }
  try {
    raw = parse(text);
  } catch (error) {
    throw fail(
      `cannot be read as YAML (${error instanceof Error ? error.message : String(error)}); check TRIGGERS_CONFIG_FILE.`,
    );
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw fail(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(top)"}: ${issue.message}`).join("; "),
    );
  const tasks = new Map<string, TaskDefinition>();
  for (const task of parsed.data.tasks) {
    if (tasks.has(task.id)) throw fail(`task id "${task.id}" is used twice; each names its own webhook URL.`);
    const bare = unescapedTags(task.prompt);
    if (bare.length > 0)
      throw fail(
        `task "${task.id}": the prompt puts ${bare.join(", ")} in unescaped ({{{…}}} or {{&…}}), which would let a payload's text pass as instructions; write {{${bare[0]}}}, which quotes it.`,
      );
    tasks.set(task.id, {
      id: task.id,
      name: task.name,
      agentUrl: task.agent_url,
      prompt: task.prompt,
      title: task.title,
      trigger:
        task.trigger.type === "cron"
          ? scheduleOf(task.id, task.trigger, fail)
          : webhookOf(task.id, task.trigger, env, fallbackSecret, fail),
      destinations: task.deliver_to.map(destinationOf),
      enabled: task.enabled,
      timeoutMs: task.timeout_seconds === undefined ? undefined : task.timeout_seconds * 1000,
      budget: task.budget
        ? {
            ...(task.budget.model_calls !== undefined ? { modelCalls: task.budget.model_calls } : {}),
            ...(task.budget.tokens !== undefined ? { tokens: task.budget.tokens } : {}),
          }
        : undefined,
      client: clientOf(task.id, task.trigger, env, fail),
    });
  }
  return tasks;
}

/** A task's own client, from the variables it names: both set, or the service stops at start naming them. */
function clientOf(
  id: string,
  trigger: { client_id_env?: string | undefined; client_secret_env?: string | undefined },
  env: NodeJS.ProcessEnv,
  fail: (message: string) => SwitchboardError,
): ClientCredentials | undefined {
  const { client_id_env: idEnv, client_secret_env: secretEnv } = trigger;
  if (!idEnv && !secretEnv) return undefined;
  if (!idEnv || !secretEnv)
    throw fail(
      `task "${id}": give both trigger.client_id_env and trigger.client_secret_env (the variables holding its own OAuth client's id and secret), or neither to act as the service's client.`,
    );
  const unset = [idEnv, secretEnv].filter((name) => !env[name]?.trim());
  if (unset.length > 0)
    throw fail(
      `task "${id}" acts as its own client, but ${unset.join(" and ")} ${unset.length > 1 ? "are" : "is"} not set: set ${unset.length > 1 ? "them" : "it"} to the client's ${unset.length > 1 ? "id and secret" : idEnv === unset[0] ? "id" : "secret"} at your identity provider (a confidential client allowed the client-credentials grant).`,
    );
  return {
    id: (env[idEnv] as string).trim(),
    secret: (env[secretEnv] as string).trim(),
    settings: `${idEnv} and ${secretEnv} (task "${id}"'s client)`,
  };
}

function scheduleOf(
  id: string,
  trigger: z.output<typeof CronTrigger>,
  fail: (message: string) => SwitchboardError,
): ScheduleSettings {
  try {
    // Parsed (and its zone checked) once here, so a typo stops the service at start, not at the tick.
    new Cron(trigger.schedule, { timezone: trigger.timezone, paused: true }).nextRun();
  } catch (error) {
    throw fail(
      `task "${id}": trigger.schedule "${trigger.schedule}" in ${trigger.timezone} cannot be read (${error instanceof Error ? error.message : String(error)}); write five cron fields (six with seconds) and an IANA time zone such as Europe/Berlin.`,
    );
  }
  return { kind: "cron", schedule: trigger.schedule, timezone: trigger.timezone };
}

function webhookOf(
  id: string,
  trigger: z.output<typeof WebhookTrigger>,
  env: NodeJS.ProcessEnv,
  fallbackSecret: string | undefined,
  fail: (message: string) => SwitchboardError,
): WebhookSettings {
  if (trigger.secret && trigger.secret_env)
    throw fail(`task "${id}": give trigger.secret or trigger.secret_env, not both.`);
  const fromEnv = trigger.secret_env ? env[trigger.secret_env]?.trim() : undefined;
  if (trigger.secret_env && !fromEnv)
    throw fail(`task "${id}": trigger.secret_env names ${trigger.secret_env}, which is not set.`);
  const secret = trigger.secret ?? fromEnv ?? fallbackSecret;
  if (!secret)
    throw fail(
      `task "${id}" has no secret: set trigger.secret_env (or WEBHOOK_SECRET for every task), so its deliveries can be verified.`,
    );
  return {
    kind: "webhook",
    provider: trigger.provider,
    secret,
    dedupHeader: trigger.dedup_header?.toLowerCase(),
  };
}

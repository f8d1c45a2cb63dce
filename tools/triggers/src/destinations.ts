import { WebClient } from "@slack/web-api";
import Mustache from "mustache";
import type { Destination } from "./config.js";

/** How a turn of a run ended: `input-required` waits for an approver; the rest are final. */
export type RunEnd = "success" | "failed" | "input-required" | "declined";

/** A run's answer, and what started it. */
export interface Outcome {
  taskId: string;
  runId: string;
  title: string;
  status: RunEnd | "expired";
  text: string;
  /** `input-required`: when the change expires unanswered. */
  expiresAt?: Date;
}

/** The thread a run's answers go to (a Slack thread), recorded in its history. */
export type Thread = { channel: string; ts: string };

/** What a destination says before the answer, by how the run ended. */
function leadFor(outcome: Outcome): string {
  switch (outcome.status) {
    case "success":
      return "";
    case "failed":
      return "The run failed: ";
    case "declined":
      return "The change was declined; nothing was done. ";
    case "expired":
      return "The change expired unanswered; nothing was done. ";
    case "input-required":
      return `The run waits for an approver the policy names, until ${outcome.expiresAt?.toISOString() ?? "it expires"} (Approve or Decline here, or on the web chat's Triggered runs page, run ${outcome.runId}): `;
  }
}

/** `&`, `<` and `>` escaped as Slack asks, so text from a payload or an answer cannot mention @channel. */
function slackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The vendors' accounts the answers are written with (each the vendor's agent's own settings). */
export interface VendorAccounts {
  slack?: { botToken: string; apiUrl: string };
  jira?: { url: string; email: string; token: string };
  github?: { apiUrl: string; token: string };
  pagerduty?: { apiUrl: string; apiKey: string; fromEmail: string };
  webex?: { apiUrl: string; token: string };
}

/** The settings each kind of destination needs, named when they are missing. */
const NEEDS: Record<Exclude<Destination["kind"], "webhook">, [keyof VendorAccounts, string]> = {
  slack: ["slack", "SLACK_INTEGRATION_BOT_TOKEN (the Slack relay's bot token)"],
  jira_comment: ["jira", "ATLASSIAN_API_URL, ATLASSIAN_EMAIL and ATLASSIAN_TOKEN (the Jira agent's)"],
  github_comment: ["github", "GITHUB_PERSONAL_ACCESS_TOKEN (the GitHub agent's)"],
  pagerduty_note: ["pagerduty", "PAGERDUTY_API_KEY and PAGERDUTY_FROM_EMAIL (the PagerDuty agent's)"],
  webex: ["webex", "WEBEX_INTEGRATION_BOT_ACCESS_TOKEN or WEBEX_TOKEN (the Webex bot's)"],
};

/** Each vendor's id shape: a target filled from a payload must be one, so it cannot name another path. */
const SHAPES = {
  jira: /^[A-Z][A-Z0-9_]{0,31}-\d{1,12}$/,
  repo: /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/,
  number: /^\d{1,12}$/,
  incident: /^[A-Z0-9]{1,32}$/,
};

/** A target template filled from the payload as plain text (it is checked against its shape after). */
function filled(template: string, payload: unknown, shape: RegExp, what: string): string {
  const value = Mustache.render(template, payload ?? {}, undefined, {
    escape: (text: unknown) => String(text),
  }).trim();
  if (!shape.test(value))
    throw new Error(
      `${what} "${template}" gave ${JSON.stringify(value.slice(0, 80))}, which is not one; nothing was written there.`,
    );
  return value;
}

/**
 * A waiting change's question with Approve and Decline, under the Slack relay's own action ids (its
 * slack/blocks.ts): the relay receives the press and passes it on here with the presser's own token
 * (its relay/triggered-decision.ts), so the agent's policy decides whether they may.
 */
function approvalBlocks(outcome: Outcome): unknown[] {
  const value = `trigger:${outcome.runId}`;
  const button = (action: string, text: string, style: string) => ({
    type: "button",
    action_id: action,
    style,
    text: { type: "plain_text", text },
    value,
  });
  return [
    {
      type: "section",
      block_id: "question",
      text: { type: "mrkdwn", text: `${leadFor(outcome)}${slackText(outcome.text).slice(0, 2_500)}` },
    },
    {
      type: "actions",
      block_id: "decision",
      elements: [
        button("switchboard_approve", "Approve", "primary"),
        button("switchboard_decline", "Decline", "danger"),
      ],
    },
  ];
}

/**
 * A waiting change's question as a Webex Adaptive Card (1.3) with Approve and Decline, in the shape of
 * the Webex bot's own confirmation cards (its webex/card.ts: `action` and `confirmation` submitted).
 * Posted as the Webex bot, so Webex tells the bot of a press and the bot takes the card as its own; it
 * passes the press on here with the presser's own token (the Slack relay's relay/triggered-decision.ts),
 * so the agent's policy decides whether they may.
 */
export function webexApprovalCard(outcome: Outcome): { contentType: string; content: unknown } {
  const data = (action: string) => ({ action, confirmation: `trigger:${outcome.runId}` });
  return {
    contentType: "application/vnd.microsoft.card.adaptive",
    content: {
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      type: "AdaptiveCard",
      version: "1.3",
      // TextRuns, not TextBlocks: a TextBlock renders markdown (links among it), and the question holds
      // the payload's and the agent's text, which must show as written.
      body: [
        { type: "RichTextBlock", inlines: [{ type: "TextRun", text: outcome.title, weight: "Bolder" }] },
        {
          type: "RichTextBlock",
          inlines: [{ type: "TextRun", text: `${leadFor(outcome)}${outcome.text}`.slice(0, 2_500) }],
        },
      ],
      actions: [
        { type: "Action.Submit", title: "Approve", style: "positive", data: data("switchboard_approve") },
        { type: "Action.Submit", title: "Decline", style: "destructive", data: data("switchboard_decline") },
      ],
    },
  };
}

/** A comment's text: the run's title, then how it ended. */
function plain(outcome: Outcome): string {
  return `${outcome.title}\n\n${leadFor(outcome)}${outcome.text}`;
}

export class Destinations {
  private readonly slack: WebClient | undefined;

  constructor(private readonly accounts: VendorAccounts) {
    this.slack = accounts.slack
      ? new WebClient(accounts.slack.botToken, {
          slackApiUrl: accounts.slack.apiUrl,
          retryConfig: { retries: 2 },
        })
      : undefined;
  }

  /** Whether every destination of a task can be reached with these settings (checked at start). */
  missing(destination: Destination): string | undefined {
    if (destination.kind === "webhook") return undefined;
    const [account, settings] = NEEDS[destination.kind];
    return this.accounts[account] ? undefined : `a ${destination.kind} destination needs ${settings}`;
  }

  /**
   * A destination with its targets filled from the payload and checked (a Jira key, `owner/repo` and
   * an issue number, a PagerDuty incident id), when the run starts: stored with the run, so a replica
   * that reports it later (lost, expired) writes to the same place.
   */
  resolve(destination: Destination, payload: unknown): Destination {
    switch (destination.kind) {
      case "jira_comment":
        return {
          ...destination,
          issue: filled(destination.issue, payload, SHAPES.jira, "jira_comment.issue"),
        };
      case "github_comment":
        return {
          ...destination,
          repo: filled(destination.repo, payload, SHAPES.repo, "github_comment.repo"),
          issue: filled(destination.issue, payload, SHAPES.number, "github_comment.issue"),
        };
      case "pagerduty_note":
        return {
          ...destination,
          incident: filled(destination.incident, payload, SHAPES.incident, "pagerduty_note.incident"),
        };
      default:
        return destination;
    }
  }

  /** Opens a run's place at a destination when it starts: a Slack thread (its first message). */
  async open(destination: Destination, title: string): Promise<Thread | undefined> {
    if (destination.kind !== "slack") return undefined;
    const posted = await (this.slack as WebClient).chat.postMessage({
      channel: destination.channel,
      text: `:rotating_light: ${slackText(title)}`,
      unfurl_links: false,
    });
    return { channel: posted.channel ?? destination.channel, ts: posted.ts as string };
  }

  /** Tells a (resolved) destination how a run ended: in its Slack thread, as a comment or note, or to the webhook. */
  async report(destination: Destination, outcome: Outcome, thread: Thread | undefined): Promise<void> {
    switch (destination.kind) {
      case "slack":
        if (!thread) return;
        await (this.slack as WebClient).chat.postMessage({
          channel: thread.channel,
          thread_ts: thread.ts,
          text: `${leadFor(outcome)}${slackText(outcome.text)}`,
          ...(outcome.status === "input-required" ? { blocks: approvalBlocks(outcome) } : {}),
          unfurl_links: false,
        });
        return;
      case "webhook":
        return post(destination.url, {}, outcome);
      case "jira_comment": {
        const { url, email, token } = this.accounts.jira as NonNullable<VendorAccounts["jira"]>;
        const basic = Buffer.from(`${email}:${token}`).toString("base64");
        // Atlassian's document format: one paragraph a line.
        const content = plain(outcome)
          .split("\n")
          .map((line) => ({ type: "paragraph", content: line ? [{ type: "text", text: line }] : [] }));
        return post(
          `${url.replace(/\/+$/, "")}/rest/api/3/issue/${destination.issue}/comment`,
          { authorization: `Basic ${basic}`, accept: "application/json" },
          { body: { type: "doc", version: 1, content } },
        );
      }
      case "github_comment": {
        const { apiUrl, token } = this.accounts.github as NonNullable<VendorAccounts["github"]>;
        return post(
          `${apiUrl.replace(/\/+$/, "")}/repos/${destination.repo}/issues/${destination.issue}/comments`,
          {
            authorization: `Bearer ${token}`,
            accept: "application/vnd.github+json",
            "x-github-api-version": "2022-11-28",
          },
          { body: plain(outcome) },
        );
      }
      case "pagerduty_note": {
        const { apiUrl, apiKey, fromEmail } = this.accounts.pagerduty as NonNullable<
          VendorAccounts["pagerduty"]
        >;
        return post(
          `${apiUrl.replace(/\/+$/, "")}/incidents/${destination.incident}/notes`,
          {
            authorization: `Token token=${apiKey}`,
            accept: "application/vnd.pagerduty+json;version=2",
            from: fromEmail,
          },
          // A note holds at most 65,535 characters.
          { note: { content: plain(outcome).slice(0, 65_000) } },
        );
      }
      case "webex": {
        const { apiUrl, token } = this.accounts.webex as NonNullable<VendorAccounts["webex"]>;
        return post(
          `${apiUrl.replace(/\/+$/, "")}/messages`,
          { authorization: `Bearer ${token}` },
          // Plain text: a payload's or an answer's markup is not rendered (no mentions, no links made).
          // A waiting change also carries its Approve / Decline card (the text is what a client without cards shows).
          {
            roomId: destination.roomId,
            text: plain(outcome).slice(0, 7_000),
            ...(outcome.status === "input-required" ? { attachments: [webexApprovalCard(outcome)] } : {}),
          },
        );
      }
    }
  }
}

/** One JSON POST; a refusal is an error naming where and the status, never the credentials sent. */
async function post(url: string, headers: Record<string, string>, body: unknown): Promise<void> {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    redirect: "error",
    signal: AbortSignal.timeout(10_000),
  });
  await answer.body?.cancel();
  if (!answer.ok)
    throw new Error(`${new URL(url).origin} answered ${answer.status} for ${new URL(url).pathname}.`);
}

import { WebClient } from "@slack/web-api";
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
      return `The run waits for an approver the policy names, until ${outcome.expiresAt?.toISOString() ?? "it expires"} (answer on the web chat's Triggers page, run ${outcome.runId}): `;
  }
}

/** `&`, `<` and `>` escaped as Slack asks, so text from a payload or an answer cannot mention @channel. */
function slackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export class Destinations {
  private readonly slack: WebClient | undefined;

  constructor(slack: { botToken: string; apiUrl: string } | undefined) {
    this.slack = slack
      ? new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 2 } })
      : undefined;
  }

  /** Whether every destination of a task can be reached with these settings (checked at start). */
  missing(destination: Destination): string | undefined {
    return destination.kind === "slack" && !this.slack
      ? "a Slack destination needs SLACK_INTEGRATION_BOT_TOKEN (the Slack relay's bot token)"
      : undefined;
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

  /** Tells a destination how a run ended: in the run's Slack thread (when it got one), or to the webhook. */
  async report(destination: Destination, outcome: Outcome, thread: Thread | undefined): Promise<void> {
    if (destination.kind === "slack") {
      if (!thread) return;
      await (this.slack as WebClient).chat.postMessage({
        channel: thread.channel,
        thread_ts: thread.ts,
        text: `${leadFor(outcome)}${slackText(outcome.text)}`,
        unfurl_links: false,
      });
      return;
    }
    const answer = await fetch(destination.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(outcome),
      redirect: "error",
      signal: AbortSignal.timeout(10_000),
    });
    if (!answer.ok)
      throw new Error(`The webhook ${new URL(destination.url).origin} answered ${answer.status}.`);
  }
}

import { WebClient } from "@slack/web-api";
import type { Destination } from "./config.js";

/** A run's answer, and what started it. */
export interface Outcome {
  taskId: string;
  runId: string;
  title: string;
  status: "success" | "failed" | "input-required";
  text: string;
}

/** Where one run's answer goes: opened when the run starts (a Slack thread is made then), told at its end. */
export interface Delivery {
  /** The Slack thread made for the run, recorded in its history. */
  thread?: { channel: string; ts: string };
  finish(outcome: Outcome): Promise<void>;
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

  async open(destination: Destination, title: string): Promise<Delivery> {
    let thread: Delivery["thread"];
    if (destination.kind === "slack") {
      const posted = await (this.slack as WebClient).chat.postMessage({
        channel: destination.channel,
        text: `:rotating_light: ${slackText(title)}`,
        unfurl_links: false,
      });
      thread = { channel: posted.channel ?? destination.channel, ts: posted.ts as string };
    }
    return { ...(thread ? { thread } : {}), finish: (outcome) => this.report(destination, outcome, thread) };
  }

  /** Tells a destination how a run ended: in the run's Slack thread (when it got one), or to the webhook. */
  async report(destination: Destination, outcome: Outcome, thread: Delivery["thread"]): Promise<void> {
    if (destination.kind === "slack") {
      if (!thread) return;
      const lead =
        outcome.status === "success"
          ? ""
          : outcome.status === "failed"
            ? "The run failed: "
            : "The agent asks (answering a triggered run is not supported yet): ";
      await (this.slack as WebClient).chat.postMessage({
        channel: thread.channel,
        thread_ts: thread.ts,
        text: `${lead}${slackText(outcome.text)}`,
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

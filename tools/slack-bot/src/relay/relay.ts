import { randomUUID } from "node:crypto";
import {
  type AgentConnection,
  type AgentLink,
  APPROVE,
  APPROVER_HEADER,
  collectTurn,
  DECLINE,
  isA2ACallError,
  progressText,
  readQuestion,
  StreamedAnswer,
  type TurnEvent,
  type TurnResult,
} from "@switchboard/a2a-client";
import type { Logger } from "@switchboard/common";
import type { RelayMetrics } from "../telemetry/metrics.js";
import { inTurnSpan } from "../telemetry/tracing.js";
import type {
  ChatPlace,
  ChatPlatform,
  IncomingDecision,
  IncomingMessage,
  OutgoingMessage,
} from "./chat-platform.js";
import { contextIdFor } from "./conversation-id.js";
import type { Identities, UserIdentity } from "./identities.js";
import { LiveMessage } from "./live-message.js";
import { replies } from "./replies.js";
import { claim, type RelayCollections } from "./store.js";
import { decideTriggered, TRIGGERED_PREFIX } from "./triggered-decision.js";

export interface RelayDeps {
  platform: ChatPlatform;
  collections: RelayCollections;
  identities: Identities;
  supervisor: AgentLink;
  metrics: RelayMetrics;
  logger: Logger;
  updateIntervalMs: number;
  turnTimeoutMs: number;
  /** The trigger receiver (TRIGGERS_URL), where a press on a triggered run's question goes. */
  triggersUrl?: URL;
}

interface TurnRequest {
  place: ChatPlace;
  user: string;
  identity: UserIdentity;
  contextId: string;
  text: string;
  taskId?: string;
  /** Approve or Decline pressed: sent as an explicit decision part beside the words. */
  decision?: "approve" | "decline";
  /** With `decision`: the hashes of the arguments the question showed. */
  argsHashes?: string[];
  /** When the chat event arrived, for the latency metrics. */
  receivedAt: number;
  /** Someone other than `user` answering their question: their own token goes with the answer. */
  approver?: { user: string; token: string };
}

/** How a relayed turn ended: the task's state, or that an approver's answer did not count. */
type TurnOutcome = string;
const APPROVAL_REFUSED = "approval-refused";

/**
 * The platform-neutral relay: a chat message becomes a turn with the supervisor, run as the user who
 * wrote it and streamed into a live message in their thread; a question to confirm becomes buttons
 * whose press continues the same task. Everything it must remember (which messages were taken on,
 * which threads are conversations, pending confirmations) is in MongoDB, so any replica, or the bot
 * after a restart, carries on.
 */
export class Relay {
  constructor(private readonly deps: RelayDeps) {}

  /**
   * A user's message. `addressed` when it mentions the bot or is a direct message: that starts (or
   * continues) a conversation; an unaddressed reply continues one only in a thread where this user
   * already talks with the bot.
   */
  async onMessage(message: IncomingMessage, addressed: boolean): Promise<void> {
    await this.sayingFailures(message.place, () => this.relayMessage(message, addressed));
  }

  /**
   * A press of Approve or Decline, counted once, then the same task goes on. The asking user's press
   * is theirs to make; anyone else's goes to the agent with their own identity beside the asker's,
   * and the agent's policy decides whether they may (only a linked user can be such an approver).
   */
  async onDecision(decision: IncomingDecision): Promise<void> {
    await this.sayingFailures(decision.place, () => this.decide(decision));
  }

  /** Runs a handler; anything it could not say itself (MongoDB or the identity provider down) becomes one line in the thread. */
  private async sayingFailures(place: ChatPlace, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.deps.logger.error({ err: error }, "handling a chat event failed");
      await this.deps.platform.post(place, { text: replies.unexpected }).catch(() => {});
    }
  }

  private async relayMessage(message: IncomingMessage, addressed: boolean): Promise<void> {
    const { platform, collections, metrics } = this.deps;
    const receivedAt = Date.now();
    const count = (outcome: string) =>
      metrics.events.inc({ platform: platform.name, kind: "message", outcome });
    const contextId = contextIdFor(platform.name, message.place);
    const threadKey = `${contextId}#${message.user}`;
    if (!addressed && !(await collections.threads.findOne({ _id: threadKey }))) return count("ignored");
    if (!(await claim(collections.claims, message.key))) return count("duplicate");
    const identity = await this.identify(message.place, message.user);
    if (!identity) return count("unlinked");
    count("handled");
    const thread = await collections.threads.findOneAndUpdate(
      { _id: threadKey },
      {
        $set: { updatedAt: new Date() },
        $unset: { pendingTaskId: "" },
        $setOnInsert: {
          workspace: message.place.workspace,
          channel: message.place.channel,
          thread: message.place.thread,
          user: message.user,
        },
      },
      { upsert: true, returnDocument: "before" },
    );
    await this.turn({
      place: message.place,
      user: message.user,
      identity,
      contextId,
      text: message.text,
      ...(thread?.pendingTaskId ? { taskId: thread.pendingTaskId } : {}),
      receivedAt,
    });
  }

  private async decide(decision: IncomingDecision): Promise<void> {
    const { platform, collections, identities, metrics } = this.deps;
    const receivedAt = Date.now();
    const count = (outcome: string) =>
      metrics.events.inc({ platform: platform.name, kind: "decision", outcome });
    const { place, user } = decision;
    if (decision.confirmationId.startsWith(TRIGGERED_PREFIX)) {
      const outcome = await decideTriggered(
        { platform, identities, triggersUrl: this.deps.triggersUrl },
        {
          place,
          user,
          runId: decision.confirmationId.slice(TRIGGERED_PREFIX.length),
          approved: decision.approved,
        },
        (at, who) => this.identify(at, who),
      );
      count(outcome === "decided" ? "handled" : "refused");
      return;
    }
    const record = await collections.confirmations.findOne({ _id: decision.confirmationId });
    if (!record || record.workspace !== place.workspace) {
      count("refused");
      return platform.whisper(place, user, replies.unknownConfirmation);
    }
    const byAsker = record.user === user;
    let approver: { user: string; token: string } | undefined;
    if (!byAsker) {
      // Someone else must act as themselves for the agent to decide on them: a linked identity.
      const presser = await identities.identify(place.workspace, user);
      if (presser?.kind !== "linked") {
        count("refused");
        return platform.whisper(place, user, replies.onlyAsker(platform.mention(record.user)));
      }
      approver = { user, token: presser.token };
    }
    const verdict = decision.approved ? "approved" : "declined";
    const claimed = await collections.confirmations.findOneAndUpdate(
      { _id: record._id, state: "pending" },
      { $set: { state: byAsker ? verdict : "deciding", decidedBy: user, decidedAt: new Date() } },
      { returnDocument: "after" },
    );
    if (!claimed) {
      count("duplicate");
      return platform.whisper(place, user, replies.alreadyDecided);
    }
    count("handled");
    const showDecided = (refused?: boolean) =>
      platform.update(place, record.messageId, {
        text: platform.format(record.question),
        confirmation: {
          id: record._id,
          question: platform.format(record.question),
          ...(record.agent ? { agent: record.agent } : {}),
          decided: { approved: decision.approved, by: user, ...(refused ? { refused } : {}) },
        },
      });
    if (byAsker) await showDecided();
    // The task is the asker's: it goes on as them, whoever pressed.
    const identity = byAsker
      ? await this.identify(place, user)
      : await identities.identify(place.workspace, record.user);
    if (!identity) {
      if (!byAsker) {
        await collections.confirmations.updateOne({ _id: record._id }, { $set: { state: "pending" } });
        await platform.whisper(place, user, replies.askerUnavailable(platform.mention(record.user)));
      }
      return;
    }
    const outcome = await this.turn({
      place,
      user: record.user,
      identity,
      contextId: record.contextId,
      text: decision.approved ? APPROVE : DECLINE,
      decision: decision.approved ? "approve" : "decline",
      ...(record.argsHashes ? { argsHashes: record.argsHashes } : {}),
      taskId: record.taskId,
      receivedAt,
      ...(approver ? { approver } : {}),
    });
    if (byAsker) return;
    const refused = outcome === APPROVAL_REFUSED;
    await collections.confirmations.updateOne(
      { _id: record._id },
      { $set: { state: refused ? "refused" : verdict } },
    );
    await showDecided(refused);
    if (refused) await platform.whisper(place, user, replies.approvalRefused(platform.mention(record.user)));
  }

  /** The user's identity, or the one-time link sent to them (and a word in the thread) when they have none. */
  private async identify(place: ChatPlace, user: string): Promise<UserIdentity | undefined> {
    const { identities, platform } = this.deps;
    const identity = await identities.identify(place.workspace, user);
    if (identity) return identity;
    const link = await identities.linkFor(place, user);
    // The platform as its users read it (slack → Slack, webex → Webex).
    const named = platform.name.charAt(0).toUpperCase() + platform.name.slice(1);
    await platform.whisper(place, user, replies.linkWhisper(link, named));
    await platform.post(place, { text: replies.needsLink(platform.mention(user), named) });
    return undefined;
  }

  private async turn(request: TurnRequest): Promise<TurnOutcome> {
    const { platform, metrics, logger } = this.deps;
    const placeholder = await platform.post(request.place, { text: replies.working });
    metrics.firstUpdate.observe({ platform: platform.name }, (Date.now() - request.receivedAt) / 1000);
    const live = new LiveMessage(
      platform,
      request.place,
      placeholder,
      this.deps.updateIntervalMs,
      logger.child({ contextId: request.contextId }),
    );
    const outcome = await inTurnSpan(
      { "chat.platform": platform.name, "a2a.context_id": request.contextId },
      async (span) => {
        const ended = await this.relayTurn(request, live).catch(async (error: unknown) => {
          logger.error({ err: error, contextId: request.contextId }, "relaying a turn failed");
          await live.finish([{ text: replies.unexpected }]).catch(() => {});
          return "error";
        });
        span.setAttribute("chat.outcome", ended);
        return ended;
      },
    );
    metrics.turns.inc({ platform: platform.name, outcome });
    metrics.answer.observe({ platform: platform.name, outcome }, (Date.now() - request.receivedAt) / 1000);
    return outcome;
  }

  /** Streams one turn into the live message and ends it; returns how it ended. */
  private async relayTurn(request: TurnRequest, live: LiveMessage): Promise<TurnOutcome> {
    const { platform, supervisor } = this.deps;
    let agent: AgentConnection;
    try {
      agent = await supervisor.connect();
    } catch (error) {
      if (!isA2ACallError(error)) throw error;
      await live.finish([{ text: replies.supervisorDown(error) }]);
      return "unreachable";
    }
    const answer = new StreamedAnswer();
    const stall = new AbortController();
    let timer = setTimeout(() => stall.abort(), this.deps.turnTimeoutMs);
    const observe = (event: TurnEvent) => {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), this.deps.turnTimeoutMs);
      const activity = progressText(event, agent.card.name);
      if (activity) live.working(activity);
      const soFar = answer.add(event);
      if (soFar !== undefined) live.streamed(soFar);
    };
    let result: TurnResult;
    try {
      result = await collectTurn(
        observed(
          agent.stream({
            text: request.text,
            contextId: request.contextId,
            ...(request.taskId ? { taskId: request.taskId } : {}),
            ...(request.taskId && request.decision
              ? {
                  decision: request.decision,
                  ...(request.argsHashes ? { argsHashes: request.argsHashes } : {}),
                }
              : {}),
            ...(request.identity.kind === "linked" ? { token: request.identity.token } : {}),
            ...(request.approver
              ? { headers: { [APPROVER_HEADER]: `Bearer ${request.approver.token}` } }
              : {}),
            metadata: { client: `${platform.name}-bot` },
            signal: stall.signal,
          }),
          observe,
        ),
      );
    } catch (error) {
      if (stall.signal.aborted) {
        await live.finish([{ text: replies.timedOut(Math.round(this.deps.turnTimeoutMs / 1000)) }]);
        return "timeout";
      }
      if (!isA2ACallError(error)) throw error;
      if (error.httpStatus === 401 && request.identity.kind === "linked") {
        await this.deps.identities.refused(request.place.workspace, request.user);
        await this.identify(request.place, request.user);
        await live.finish([{ text: replies.refusedToken }]);
        return "unauthorized";
      }
      await live.finish([{ text: replies.supervisorDown(error) }]);
      return error.code === "a2a.timeout" ? "timeout" : "unreachable";
    } finally {
      clearTimeout(timer);
    }
    const ending = await this.ending(request, result, live.messageId);
    await live.finish([ending.message]);
    return ending.refusedApproval ? APPROVAL_REFUSED : result.state;
  }

  /**
   * The message a finished turn leaves (the answer, a question, the buttons of a change, or why it
   * failed), and whether the agent asked again because an approver's answer did not count.
   */
  private async ending(
    request: TurnRequest,
    result: TurnResult,
    messageId: string,
  ): Promise<{ message: OutgoingMessage; refusedApproval?: boolean }> {
    const message = await this.endingMessage(request, result, messageId);
    const question =
      result.state === "input-required" ? readQuestion(result.question ?? result.text) : undefined;
    return { message, ...(question?.refusedApproval && request.approver ? { refusedApproval: true } : {}) };
  }

  private async endingMessage(
    request: TurnRequest,
    result: TurnResult,
    messageId: string,
  ): Promise<OutgoingMessage> {
    const { platform, collections } = this.deps;
    switch (result.state) {
      case "completed":
        return { text: result.text ? platform.format(result.text) : replies.noAnswer };
      case "input-required":
      case "auth-required": {
        const question = readQuestion(result.question ?? result.text);
        if (!question.confirmation) {
          await collections.threads.updateOne(
            { _id: `${request.contextId}#${request.user}` },
            { $set: { pendingTaskId: result.taskId, updatedAt: new Date() } },
          );
          return { text: platform.format(result.question ?? result.text) };
        }
        const id = randomUUID();
        await collections.confirmations.insertOne({
          _id: id,
          workspace: request.place.workspace,
          channel: request.place.channel,
          thread: request.place.thread,
          messageId,
          user: request.user,
          contextId: request.contextId,
          taskId: result.taskId,
          question: question.text,
          ...(result.argsHashes ? { argsHashes: result.argsHashes } : {}),
          ...(question.agent ? { agent: question.agent } : {}),
          state: "pending",
          createdAt: new Date(),
        });
        // Asked again after someone not allowed to decide answered: why leads the new buttons.
        const formatted = platform.format(
          question.refusedApproval ? `${question.refusedApproval}\n${question.text}` : question.text,
        );
        return {
          text: formatted,
          confirmation: { id, question: formatted, ...(question.agent ? { agent: question.agent } : {}) },
        };
      }
      case "rejected":
        return { text: replies.denied(result.text) };
      case "canceled":
        return { text: replies.canceled };
      default:
        return { text: replies.failed(result.text) };
    }
  }
}

async function* observed(events: AsyncIterable<TurnEvent>, observe: (event: TurnEvent) => void) {
  for await (const event of events) {
    observe(event);
    yield event;
  }
}

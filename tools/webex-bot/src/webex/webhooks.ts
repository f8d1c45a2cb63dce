import type { Logger } from "@switchboard/common";
import { claim, type Relay, type RelayCollections, type RelayMetrics } from "@switchboard/slack-bot/relay";
import express, { Router } from "express";
import type { WebexApi, WebexAttachmentAction, WebexPerson } from "./api.js";
import { APPROVE, DECLINE } from "./card.js";
import { CANCEL_LINK, CONFIRM_LINK, type LinkPressDeps, onLinkPress } from "./link-confirmation.js";
import { signedByWebex } from "./signature.js";

/** Where Webex posts the bot's webhooks (messages and attachment actions created). */
export const EVENTS_PATH = "/webex/events";

export interface WebhookDeps {
  api: WebexApi;
  /** The bot itself, as /people/me names it: its own messages are not for it. */
  me: WebexPerson;
  /** The display name a mention starts the message's text with. */
  botName: string;
  secret: string;
  relay: Relay;
  collections: RelayCollections;
  metrics: RelayMetrics;
  logger: Logger;
  /** With AUTH_MODE=jwt: who answers a link card's press (without, a link press decides nothing). */
  links?: LinkPressDeps;
}

/** The part of a webhook request the bot reads (Webex sends ids only: the bot fetches the rest). */
interface Notification {
  resource?: string;
  event?: string;
  data?: { id?: string; personId?: string; roomId?: string };
}

/**
 * Webex's webhook requests. Each is checked against its `X-Spark-Signature` before anything is read
 * (a forged or unsigned one is 401, and nothing runs); then it is answered at once (Webex waits for
 * nothing else) and handled: a message is fetched by id with the bot's token (the notification names
 * it only) and relayed, an attachment action (a card's button) is fetched the same way, so who
 * pressed is what Webex says, never what the request claims. A redelivered or replayed notification
 * is claimed by its message's or action's id and runs once.
 */
export function webhookRoutes(deps: WebhookDeps): Router {
  const router = Router();
  router.post(EVENTS_PATH, express.raw({ type: "*/*", limit: "256kb" }), (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!signedByWebex(deps.secret, raw, req.get("x-spark-signature"))) {
      deps.metrics.events.inc({ platform: "webex", kind: "webhook", outcome: "forged" });
      deps.logger.warn(
        { signed: req.get("x-spark-signature") !== undefined, bytes: raw.length },
        "refused a webhook request whose X-Spark-Signature does not match: nothing was run",
      );
      res
        .status(401)
        .json({ error: "The X-Spark-Signature does not match this body and WEBEX_WEBHOOK_SECRET." });
      return;
    }
    let notification: Notification;
    try {
      notification = JSON.parse(raw.toString("utf8")) as Notification;
    } catch {
      res.status(400).json({ error: "The webhook body is not JSON." });
      return;
    }
    res.status(204).end();
    void handle(deps, notification).catch((error: unknown) => {
      deps.logger.error({ err: error, resource: notification.resource }, "handling a Webex webhook failed");
    });
  });
  return router;
}

async function handle(deps: WebhookDeps, notification: Notification): Promise<void> {
  const { data, resource, event } = notification;
  deps.logger.debug({ resource, event, id: data?.id }, "a Webex webhook arrived");
  const count = (kind: string, outcome: string) =>
    deps.metrics.events.inc({ platform: "webex", kind, outcome });
  if (event !== "created" || !data?.id) return count("webhook", "ignored");
  // The bot's own messages come back as notifications too: never an answer to itself.
  if (data.personId === deps.me.id) return count("message", "own");
  if (resource === "messages") return onMessage(deps, data.id);
  if (resource === "attachmentActions") return onAction(deps, data.id);
  count("webhook", "ignored");
}

async function onMessage(deps: WebhookDeps, id: string): Promise<void> {
  const message = await deps.api.message(id);
  if (message.personId === deps.me.id) return;
  const direct = message.roomType === "direct";
  const addressed = direct || (message.mentionedPeople ?? []).includes(deps.me.id);
  await deps.relay.onMessage(
    {
      place: { workspace: deps.me.orgId, channel: message.roomId, thread: message.parentId ?? message.id },
      key: `webex:${message.id}`,
      user: message.personId,
      text: withoutMention(message.text ?? "", deps.botName),
    },
    addressed,
  );
}

async function onAction(deps: WebhookDeps, id: string): Promise<void> {
  if (!(await claim(deps.collections.claims, `webex:action:${id}`))) {
    deps.metrics.events.inc({ platform: "webex", kind: "decision", outcome: "duplicate" });
    return;
  }
  const action = await deps.api.action(id);
  const pressed = action.inputs?.action;
  const link = action.inputs?.link;
  if ((pressed === CONFIRM_LINK || pressed === CANCEL_LINK) && typeof link === "string") {
    if (!deps.links || !(await ownCard(deps, action, link))) {
      deps.metrics.events.inc({ platform: "webex", kind: "link", outcome: "refused" });
      return;
    }
    return onLinkPress(deps.links, action, pressed, link);
  }
  const confirmationId = action.inputs?.confirmation;
  if ((pressed !== APPROVE && pressed !== DECLINE) || typeof confirmationId !== "string") return;
  const card = await ownCard(deps, action, confirmationId);
  if (!card) {
    deps.metrics.events.inc({ platform: "webex", kind: "decision", outcome: "refused" });
    return;
  }
  await deps.relay.onDecision({
    place: { workspace: deps.me.orgId, channel: card.roomId, thread: card.parentId ?? card.id },
    user: action.personId,
    confirmationId,
    approved: pressed === APPROVE,
  });
}

/**
 * The card pressed, when it is the bot's own, in the space the press came from, and holds `id` (a
 * client sends the inputs: an id copied into someone else's card, or from another space, decides
 * nothing here); undefined otherwise.
 */
async function ownCard(deps: WebhookDeps, action: WebexAttachmentAction, id: string) {
  const card = await deps.api.message(action.messageId);
  const holds = JSON.stringify(card.attachments ?? []).includes(JSON.stringify(id));
  return card.personId === deps.me.id && card.roomId === action.roomId && holds ? card : undefined;
}

/** A group message that mentions the bot starts with its name (as Webex writes the mention): dropped. */
function withoutMention(text: string, botName: string): string {
  const trimmed = text.trim();
  return trimmed.toLowerCase().startsWith(botName.toLowerCase())
    ? trimmed.slice(botName.length).replace(/^[\s,:]+/, "")
    : trimmed;
}

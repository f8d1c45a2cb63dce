import { seedParts } from "../seed.js";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { slackRoutes } from "./routes.js";
import { seedSlack } from "./seed.js";
import type { Message, PostedMessage, SlackState } from "./state.js";

export type { Channel, Message, PostedMessage, SlackState, User } from "./state.js";

/**
 * Parts of the state a test or an evaluation case can seed, each replacing the default part; a
 * channel's messages by its id, newest first as conversations.history returns them.
 */
export interface SlackSeed extends Partial<Pick<SlackState, "channels" | "users">> {
  history?: Record<string, Message[]>;
}

export interface FakeSlack extends VendorServer {
  /** The Web API base, ending in `/api/`: @slack/web-api's `slackApiUrl` and SLACK_API_URL. */
  apiUrl: string;
  /** The bot token it accepts as a bearer token: SLACK_BOT_TOKEN. */
  token: string;
  state: SlackState;
  /** Messages posted through chat.postMessage, oldest first. */
  readonly posted: PostedMessage[];
}

/** Starts a Slack Web API look-alike (conversations, users, chat.postMessage) for the real @slack/web-api client. */
export async function startFakeSlack(
  options: { token?: string; port?: number; seed?: SlackSeed } = {},
): Promise<FakeSlack> {
  const token = options.token ?? "xoxb-fake-slack-token";
  const defaults = seedSlack();
  const { history, ...parts } = seedParts(
    "Slack",
    { ...defaults, history: Object.fromEntries(defaults.history) },
    options.seed,
    ["channels", "users", "history"],
  );
  const state: SlackState = {
    ...defaults,
    ...parts,
    ...(history ? { history: new Map(Object.entries(history)) } : {}),
  };
  const server = await startVendorServer(
    {
      name: "Slack",
      routes: slackRoutes(state),
      checkRequest: ({ headers }) => {
        if (!headers.authorization) throw new VendorHttpError(200, "not_authed");
        if (headers.authorization !== `Bearer ${token}`) throw new VendorHttpError(200, "invalid_auth");
      },
      errorBody: (error) => ({ ok: false, error: error.message }),
    },
    options.port,
  );
  return {
    ...server,
    apiUrl: `${server.url}/api/`,
    token,
    state,
    get posted() {
      return state.posted;
    },
  };
}

import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { slackRoutes } from "./routes.js";
import { seedSlack } from "./seed.js";
import type { PostedMessage, SlackState } from "./state.js";

export type { Channel, Message, PostedMessage, SlackState, User } from "./state.js";

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
export async function startFakeSlack(options: { token?: string; port?: number } = {}): Promise<FakeSlack> {
  const token = options.token ?? "xoxb-fake-slack-token";
  const state = seedSlack();
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

export { type SignedRequestOptions, signedRequest } from "./events-api.js";
export {
  type Ack,
  type FakeSlack,
  type FakeSlackOptions,
  type Said,
  type SayOptions,
  startFakeSlack,
} from "./fake-slack.js";
export {
  blockActions,
  ephemeralBlockActions,
  eventCallback,
  newEventId,
  type SlackEvent,
} from "./payloads.js";
export type { ApiCall } from "./web-api.js";
export type { Ephemeral, SlackMessage, SlackUser, Workspace } from "./workspace.js";

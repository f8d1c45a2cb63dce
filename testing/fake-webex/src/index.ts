export {
  type Delivery,
  type FakeWebex,
  sparkSignature,
  startFakeWebex,
  type WebexAttachmentAction,
  type WebexMessage,
  type WebexPerson,
  type WebexWebhook,
  webexId,
} from "./fake-webex.js";

export type { AttributeValue, ReceivedSpan } from "./otlp-json.js";
export { type OtlpReceiver, startOtlpReceiver } from "./server.js";

export type { AttributeValue, ReceivedLogRecord, ReceivedSpan } from "./otlp-json.js";
export { type OtlpReceiver, startOtlpReceiver } from "./server.js";

// The preset deflate dictionary of LangChain's serialized shapes; never edited once shipped.
/**
 * The preset dictionary stored values are deflated with (zlib's `dictionary` option). A saver
 * document is small and most of it is the same few shapes — LangChain's serialized messages, a
 * checkpoint's version maps, message references — so deflate on its own finds little to reuse;
 * primed with those shapes it stores about half the bytes.
 *
 * NEVER EDIT this text: every document packed with it needs these exact bytes to be read. A
 * better dictionary is a new constant with a new pack suffix (see packing.ts), beside this one.
 * Deflate reaches for nearby text first, so the most common shapes come last.
 */
export const DICTIONARY_1 = Buffer.from(
  [
    `{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],"kwargs":{"id":"msg_","name":"model","content":[{"type":"text","text":""}],"additional_kwargs":{},"response_metadata":{"model_provider":"anthropic","id":"msg_","model":"claude-","stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}},"tool_calls":[],"invalid_tool_calls":[],"usage_metadata":{"input_tokens":1,"output_tokens":1,"total_tokens":1,"input_token_details":{"cache_creation":0,"cache_read":0}}}}`,
    `{"lc":1,"type":"constructor","id":["langchain_core","messages","SystemMessage"],"kwargs":{"content":"","additional_kwargs":{},"response_metadata":{},"id":"`,
    `{"lc":1,"type":"constructor","id":["langchain_core","messages","RemoveMessage"],"kwargs":{"id":"__remove_all__","content":"","additional_kwargs":{},"response_metadata":{}}}`,
    `{"source":"update","step":1,"parents":{},"writes":{"__start__":{"messages":[`,
    `{"v":4,"ts":"2026-01-01T00:00:00.000Z","channel_versions":{"__start__":1,"messages":1,"branch:to:model_request":1,"branch:to:tools":1,"branch:to:HumanInTheLoopMiddleware.after_model":1,"jumpTo":1,"__pregel_tasks":1,"structuredResponse":1},"versions_seen":{"__input__":{},"__start__":{"__start__":1},"model_request":{"branch:to:model_request":1},"HumanInTheLoopMiddleware.after_model":{"branch:to:HumanInTheLoopMiddleware.after_model":1},"tools":{"branch:to:tools":1}}}`,
    `{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],"kwargs":{"id":"chatcmpl-","name":"model","content":"","additional_kwargs":{},"response_metadata":{"model_provider":"openai","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1}},"tool_calls":[],"invalid_tool_calls":[],"usage_metadata":{"input_tokens":1,"output_tokens":1,"total_tokens":1,"input_token_details":{"audio":0,"cache_read":0},"output_token_details":{"audio":0,"reasoning":0}}}}`,
    `{"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"],"kwargs":{"status":"success","content":"","artifact":{"lc":2,"type":"undefined"},"tool_call_id":"call_","name":"","metadata":{"versions":{"@langchain/core":"1.4.0"}},"additional_kwargs":{},"response_metadata":{},"id":"run-`,
    String.raw`{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],"kwargs":{"content":"","additional_kwargs":{"tool_calls":[{"index":0,"id":"call_","type":"function","function":{"name":"","arguments":"{\"`,
    String.raw`"}}]},"response_metadata":{"model_provider":"openai","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}},"tool_call_chunks":[{"name":"","args":"{\"","id":"call_","index":0,"type":"tool_call_chunk"}],"tool_calls":[{"name":"","args":{},"id":"call_","type":"tool_call"}],"id":"chatcmpl-","usage_metadata":{"input_tokens":1,"output_tokens":1,"total_tokens":1,"input_token_details":{"audio":0,"cache_read":0},"output_token_details":{"audio":0,"reasoning":0}},"invalid_tool_calls":[],"name":"model"}}`,
    `{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"","additional_kwargs":{},"response_metadata":{},"id":"`,
    `[{"node":"tools","args":{"messages":[{"__sb_chan":["messages","1f0"],"__sb_more":[{"__sb_msg":"`,
    `{"source":"loop","step":1,"parents":{}}{"source":"input","step":-1,"parents":{}}{"messages":[{"__sb_msg":"`,
  ].join("\n"),
);

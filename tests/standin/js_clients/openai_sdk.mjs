// The openai node SDK against the stand-in, run by tests/standin/test_clients_frameworks.py.
// OPENAI_BASE_URL names the stand-in (the SDK reads it); the key is the local placeholder.
// For "whole" and "streamed": a tool round trip, a forced tool choice, structured output.
// Prints one JSON object: what each step got back. Any error exits non-zero.
import OpenAI from "openai";

const client = new OpenAI({ apiKey: "sk-local-on-the-wire", maxRetries: 0 });
const model = "gpt-4o-mini";
const question = "What's the weather in Paris?";
const tool = (name, description, property) => ({
  type: "function",
  function: {
    name,
    description,
    parameters: {
      type: "object",
      properties: { [property]: { type: "string" } },
      required: [property],
    },
  },
});
const tools = [
  tool("get_weather", "Get the current weather for a city.", "city"),
  tool("lookup_order", "Look up an order by its id.", "order_id"),
];
const weather = {
  type: "json_schema",
  json_schema: {
    name: "weather",
    strict: true,
    schema: {
      type: "object",
      properties: { city: { type: "string" }, temperature_c: { type: "integer" } },
      required: ["city", "temperature_c"],
      additionalProperties: false,
    },
  },
};

async function complete(stream, body) {
  if (!stream) return (await client.chat.completions.create({ model, ...body })).choices[0].message;
  const events = client.chat.completions.stream({
    model,
    ...body,
    stream_options: { include_usage: true },
  });
  return (await events.finalChatCompletion()).choices[0].message;
}

async function run(stream) {
  const messages = [{ role: "user", content: question }];
  const first = await complete(stream, { messages, tools });
  const call = first.tool_calls[0];
  messages.push(
    { role: "assistant", content: first.content, tool_calls: first.tool_calls },
    { role: "tool", tool_call_id: call.id, content: "Sunny, 21 C in Paris" },
  );
  const final = await complete(stream, { messages, tools });
  const forced = await complete(stream, {
    messages: [{ role: "user", content: question }],
    tools,
    tool_choice: { type: "function", function: { name: "lookup_order" } },
  });
  const structured = await complete(stream, {
    messages: [{ role: "user", content: "The weather in Paris, as JSON." }],
    response_format: weather,
  });
  return {
    first_call: { name: call.function.name, arguments: JSON.parse(call.function.arguments) },
    final: final.content,
    forced: forced.tool_calls.map((c) => c.function.name),
    structured: JSON.parse(structured.content),
  };
}

const result = { whole: await run(false), streamed: await run(true) };
console.log(JSON.stringify(result));

// The Vercel AI SDK against the stand-in, run by tests/standin/test_clients_frameworks.py, on its
// Anthropic and Google (Gemini API) providers. STAND_IN_URL is the stand-in's URL; each
// provider gets its base URL from it (the AI SDK's Anthropic base URL ends in /v1, Google's in
// /v1beta) and the local placeholder key. For each provider, generated and streamed: a tool
// loop that runs get_weather and answers, a forced tool choice, structured output.
// Prints one JSON object: what each step got back. Any error exits non-zero.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { generateText, isStepCount, Output, streamText, tool } from "ai";
import { z } from "zod";

const url = process.env.STAND_IN_URL;
const apiKey = "sk-local-on-the-wire";
const models = {
  anthropic: createAnthropic({ baseURL: `${url}/v1`, apiKey })("claude-sonnet-4-6"),
  google: createGoogleGenerativeAI({ baseURL: `${url}/v1beta`, apiKey })("gemini-2.5-flash"),
};
const tools = {
  get_weather: tool({
    description: "Get the current weather for a city.",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny, 21 C in ${city}`,
  }),
  lookup_order: tool({
    description: "Look up an order by its id.",
    inputSchema: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => `Order ${order_id}: delivered`,
  }),
};
const weather = z.object({ city: z.string(), temperature_c: z.number().int() });
const question = "What's the weather in Paris?";

async function ask(stream, options) {
  if (!stream) return await generateText(options);
  const result = streamText(options);
  for await (const _ of result.fullStream) {
    // read to the end: the stream is what is tested
  }
  return {
    text: await result.text,
    steps: await result.steps,
    toolCalls: await result.toolCalls,
    output: await result.output,
  };
}

async function run(model, stream) {
  const loop = await ask(stream, { model, tools, prompt: question, stopWhen: isStepCount(3) });
  const forced = await ask(stream, {
    model,
    tools,
    prompt: question,
    toolChoice: { type: "tool", toolName: "lookup_order" },
  });
  const structured = await ask(stream, {
    model,
    prompt: "The weather in Paris, as JSON.",
    output: Output.object({ schema: weather }),
  });
  return {
    calls: loop.steps.flatMap((step) => step.toolCalls.map((c) => [c.toolName, c.input])),
    final: loop.text,
    forced: forced.toolCalls.map((c) => c.toolName),
    structured: structured.output,
  };
}

const result = {};
for (const [name, model] of Object.entries(models)) {
  result[name] = { whole: await run(model, false), streamed: await run(model, true) };
}
console.log(JSON.stringify(result));

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { type FakeOpenMeteo, startFakeOpenMeteo } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against fake Open-Meteo servers: the forecast API matched and validated
// against Open-Meteo's own OpenAPI description, the geocoding API as documented. Open-Meteo is keyless
// and the agent only reads: there is no change to confirm and no credential to miss.
const agent = agentConformance<FakeOpenMeteo>({
  name: "weather",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["weather_current", "weather_forecast"],
  description: "Open-Meteo",
  service: {
    start: startFakeOpenMeteo,
    env: (meteo) => ({ WEATHER_API_URL: meteo.forecast.url, WEATHER_GEOCODING_API_URL: meteo.geocoding.url }),
    requests: (meteo) => meteo.forecast.requests.length + meteo.geocoding.requests.length,
  },
  llmRules: [
    {
      lastUser: /^weather in ([\w ]+?)(?: in ([A-Z]{2}))?\??$/i,
      reply: (_r, { match }) =>
        callTool("current_weather", { place: match?.[1], ...(match?.[2] ? { country: match[2] } : {}) }),
    },
    {
      lastUser: /^forecast for ([\w ]+?)(?: in ([A-Z]{2}))?$/i,
      reply: (_r, { match }) =>
        callTool("weather_forecast", { place: match?.[1], ...(match?.[2] ? { country: match[2] } : {}) }),
    },
  ],
  fallback: "I tell the weather now and the forecast for a place.",
  read: {
    prompt: "weather in Paris?",
    answer: [
      "Paris, Île-de-France, France (48.85, 2.35) at 2026-06-01T12:00 (Europe/Paris): 18.4 °C (feels like 17.9 °C), overcast",
      "humidity 62%, wind 11.2 km/h (gusts 24.1 km/h)",
      "Other places named Paris: Paris, Texas, United States",
    ],
    check: (meteo) => {
      const forecast = meteo.forecast.requests.find((request) => request.path === "/v1/forecast");
      // Answered 200: the request matched Open-Meteo's description of GET /v1/forecast.
      expect(forecast?.status).toBe(200);
      expect(forecast?.query.get("current")?.split(",")).toContain("weather_code");
      expect(forecast?.query.get("timezone")).toBe("auto");
    },
  },
  streaming: {
    prompt: "forecast for London",
    tool: "weather_forecast",
    answer: "2026-06-01: moderate rain, 9.4–15.1 °C",
  },
});

it("picks the place in the country the user names, and says when there is no such place", async () => {
  const connection = await agent.connect();
  const texas = await connection.send({ text: "forecast for Paris in US", contextId: agent.contextId() });
  expect(texas.text).toContain("Forecast for Paris, Texas, United States (33.66, -95.56) (America/Chicago)");
  expect(texas.text).toContain("2026-06-02: thunderstorm, 21.5–30.4 °C, precipitation 12.2 mm (chance 70%)");
  const search = agent.service.geocoding.requests.at(-1);
  expect(search?.query.get("countryCode")).toBe("US");

  const nowhere = await connection.send({ text: "weather in Atlantis", contextId: agent.contextId() });
  expect(nowhere.state).toBe("completed");
  expect(nowhere.text).toContain('Open-Meteo knows no place named "Atlantis"');
});

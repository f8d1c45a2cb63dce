import type { AgentDefinition } from "@switchboard/agent-runtime";
import { weatherClient } from "./client.js";
import { WEATHER_PROMPT } from "./prompt.js";
import { weatherTools } from "./tools.js";

export const weatherAgent: AgentDefinition = {
  name: "weather",
  title: "Weather",
  description: "Current weather and the forecast for a place, from Open-Meteo.",
  systemPrompt: WEATHER_PROMPT,
  skills: [
    {
      id: "weather_current",
      name: "Current weather",
      description: "The weather now at a place: temperature, conditions, humidity, wind.",
      tags: ["weather", "temperature", "current"],
      examples: ["What is the weather in Paris?", "Is it raining in London?"],
    },
    {
      id: "weather_forecast",
      name: "Weather forecast",
      description: "The daily forecast for up to 16 days: conditions, low and high, precipitation.",
      tags: ["weather", "forecast", "rain"],
      examples: ["Forecast for Berlin this week", "Will it rain in Paris tomorrow?"],
    },
  ],
  tools: (env) => weatherTools(weatherClient(env)),
};

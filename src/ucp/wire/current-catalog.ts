/** 2026-08-25 catalog tools: how their requests are read into the model and their payloads written. */
import type { ToolWire } from "./tool-wire";

export const catalogWire: ToolWire = {
  requests: {},
  responses: {},
};

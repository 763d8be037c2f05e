/** 2026-08-25 cart tools: how their requests are read into the model and their payloads written. */
import type { ToolWire } from "./tool-wire";

export const cartWire: ToolWire = {
  requests: {},
  responses: {},
};

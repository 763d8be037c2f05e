/**
 * TEST-ONLY fault hook for the completion (test/checkout/completion-crash.test.ts): a test
 * sets `completionFault.at` to a point and the next attempt passing it dies there, once, as if
 * the runtime had been killed right after that step was recorded. Nothing in the store sets
 * it; left undefined it costs one comparison per step. Tests share the isolate with the
 * objects (vitest-pool-workers), which is how a test reaches it.
 */
export type CompletionFaultPoint =
  /** complete_in_progress and the attempt recorded, nothing else done. */
  | "marked"
  /** Stock reserved under the attempt id. */
  | "reserved"
  /** Charge captured under the attempt id. */
  | "charged"
  /** Order created; the outcome not yet recorded on the checkout. */
  | "ordered";

export const completionFault: { at: CompletionFaultPoint | undefined } = { at: undefined };

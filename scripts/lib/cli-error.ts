/**
 * A mistake the person running a script can fix (bad argument, missing file, invalid
 * setting). scripts/run.mjs prints its message as one line and exits non-zero, without a
 * stack trace; anything else thrown is a bug and keeps its stack.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

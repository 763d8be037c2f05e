/**
 * Sends started side by side whose answers are handed back together: each send's answer
 * waits until every send started so far has settled, so the writes that follow the answers
 * run in one turn and the object's storage commits (and syncs to disk) once, not once per
 * answer (issue 29: each commit is an fsync on the object's single thread). A send that
 * joins late (after the others settled) simply answers on its own.
 */
export class Together {
  readonly #sends: Promise<unknown>[] = [];

  async send<T>(io: Promise<T>): Promise<T> {
    this.#sends.push(io);
    try {
      return await io;
    } finally {
      await this.#settled();
    }
  }

  async #settled(): Promise<void> {
    for (let seen = -1; seen !== this.#sends.length; ) {
      seen = this.#sends.length;
      await Promise.allSettled(this.#sends);
    }
  }
}

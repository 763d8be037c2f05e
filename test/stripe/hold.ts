/**
 * A switch for crash tests (server.ts only): answers to matching requests wait until the test
 * releases them. `after` (the default): the stand-in does the request first (the PaymentIntent
 * exists and is charged, its Idempotency-Key holds the answer to replay), as when a Worker dies
 * between Stripe acting and Stripe's answer arriving. `before`: the request waits unprocessed,
 * and one whose caller went away meanwhile is dropped: a request lost on the way, which Stripe
 * never saw. The answer, when it goes, is Stripe's own: nothing here changes a shape.
 */

export interface HoldMatch {
  readonly method: string;
  /** The request's path, e.g. /v1/payment_intents (no query). */
  readonly path: string;
  readonly when?: "before" | "after";
}

export interface Hold {
  /** Resolves once a matching request was processed (`after`) or arrived (`before`). */
  readonly reached: Promise<void>;
  /** Lets every held answer go (a caller that went away gets none) and holds no more. */
  release(): void;
}

interface Engaged {
  readonly match: HoldMatch;
  readonly released: Promise<void>;
  readonly reach: () => void;
}

export class AnswerHolds {
  #engaged: Engaged[] = [];

  engage(match: HoldMatch): Hold {
    let reach = () => {};
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      reach = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const engaged: Engaged = { match, released, reach };
    this.#engaged.push(engaged);
    return {
      reached,
      release: () => {
        this.#engaged = this.#engaged.filter((e) => e !== engaged);
        release();
      },
    };
  }

  /** Runs `handle` for `request` under any hold; undefined: the caller went away before Stripe saw it. */
  async pass(
    request: Request,
    handle: () => Promise<Response>,
    callerGone: () => boolean,
  ): Promise<Response | undefined> {
    const path = new URL(request.url).pathname;
    const hold = this.#engaged.find((e) => e.match.method === request.method && e.match.path === path);
    if (!hold) return handle();
    if (hold.match.when === "before") {
      hold.reach();
      await hold.released;
      return callerGone() ? undefined : handle();
    }
    const response = await handle();
    hold.reach();
    await hold.released;
    return response;
  }
}

/**
 * Driving the console's catalog loads in workerd: the upload form (whole file) or the page
 * script's protocol (parts), and the CatalogLoadObject's alarm run step by step.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { CatalogLoadObject } from "../../durable-objects/catalog-load-object";
import { CATALOG_LOAD_NAME, type JobView } from "../../src/catalog/catalog-job";
import { type Browser, csrfOf, ORIGIN, openPage } from "./console";

export function loadsStub() {
  return env.CATALOG_LOAD.get(env.CATALOG_LOAD.idFromName(CATALOG_LOAD_NAME));
}

/** The upload form posted as a browser without script posts it: multipart, the file and `_csrf`. */
export async function uploadForm(browser: Browser, name: string, text: string, extra: Record<string, string> = {}) {
  const { html } = await openPage("/admin/catalog", browser);
  const body = new FormData();
  body.set("_csrf", csrfOf(html));
  body.set("catalog", new File([text], name, { type: "text/csv" }));
  for (const [k, v] of Object.entries(extra)) body.set(k, v);
  const request = new Request(`${ORIGIN}/admin/catalog/upload`, { method: "POST", body });
  const bytes = await request.arrayBuffer();
  return exports.default.fetch(`${ORIGIN}/admin/catalog/upload`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": request.headers.get("content-type") ?? "",
      "content-length": String(bytes.byteLength),
      origin: ORIGIN,
      cookie: browser.cookie ?? "",
      "cf-connecting-ip": browser.ip ?? "",
    },
    body: bytes,
  });
}

/** The page script's protocol: create, the parts (of `partBytes`, as the server says), start. */
export async function uploadInParts(
  browser: Browser,
  name: string,
  text: string,
): Promise<{ id: string; page: string }> {
  const { html } = await openPage("/admin/catalog", browser);
  const csrf = csrfOf(html);
  const headers = { origin: ORIGIN, cookie: browser.cookie ?? "", "cf-connecting-ip": browser.ip ?? "" };
  const bytes = new TextEncoder().encode(text);
  const form = new FormData();
  form.set("_csrf", csrf);
  form.set("file_name", name);
  form.set("file_size", String(bytes.byteLength));
  const created = await exports.default.fetch(`${ORIGIN}/admin/catalog/loads`, { method: "POST", headers, body: form });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const load = (await created.json()) as { id: string; parts: number; part_bytes: number; page: string };
  for (let part = 0; part < load.parts; part++) {
    const slice = bytes.slice(part * load.part_bytes, (part + 1) * load.part_bytes);
    const sent = await exports.default.fetch(`${ORIGIN}${load.page}/parts/${part}`, {
      method: "POST",
      headers: { ...headers, "x-console-csrf": csrf, "content-length": String(slice.byteLength) },
      body: slice,
    });
    if (sent.status !== 200) throw new Error(`part ${part} answered ${sent.status}: ${await sent.text()}`);
  }
  const started = await exports.default.fetch(`${ORIGIN}${load.page}/start`, {
    method: "POST",
    headers: { ...headers, "x-console-csrf": csrf },
  });
  if (started.status !== 202) throw new Error(`start answered ${started.status}: ${await started.text()}`);
  return { id: load.id, page: load.page };
}

export function loadStatus(id: string): Promise<JobView | null> {
  return loadsStub().status(id) as Promise<JobView | null>;
}

/** Cleaning waits for isolates to drop the old manifest, a retry waits seconds; tests let both run at once. */
export async function noDelays(): Promise<void> {
  await runInDurableObject(loadsStub(), (object: CatalogLoadObject) => {
    object.cleanDelayMs = 0;
    object.retryBaseMs = 0;
  });
}

/**
 * Waits while the object's alarms run the load (they fire by themselves), until it is in one
 * of `until` or paused.
 */
export async function runLoad(
  id: string,
  until: readonly JobView["phase"][] = ["done", "refused"],
  timeoutMs = 90_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await loadStatus(id);
    if (!view || until.includes(view.phase) || view.paused || Date.now() > deadline) return view;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface KvControl {
  /** Keys put through the object, in order. */
  readonly puts: string[];
  /** Puts fail while set. */
  failing: boolean;
  /** Product documents after this many wait until release(). */
  holdAfter: number;
  release(): void;
}

/** The namespace the object writes, watched: every put counted, failures and a hold on demand. */
export async function controlKv(): Promise<KvControl> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const control: KvControl = {
    puts: [],
    failing: false,
    holdAfter: Number.POSITIVE_INFINITY,
    release: () => release(),
  };
  await runInDurableObject(loadsStub(), (object: CatalogLoadObject) => {
    const real = env.CATALOG;
    object.kv = new Proxy(real, {
      get(target, prop) {
        if (prop === "put")
          return async (key: string, value: string) => {
            if (
              key.includes(":product:") &&
              control.puts.filter((k) => k.includes(":product:")).length >= control.holdAfter
            )
              await held;
            if (control.failing) throw new Error("KV put failed (injected)");
            control.puts.push(key);
            return target.put(key, value);
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  });
  return control;
}

/** The object writes the real namespace again. */
export async function realKv(): Promise<void> {
  await runInDurableObject(loadsStub(), (object: CatalogLoadObject) => {
    object.kv = env.CATALOG;
  });
}

/** A lean generated catalog: one variant per product, titles from a few words, SKU SKU-<n>. */
export function leanCatalogCsv(products: number, from = 1): string {
  const adjectives = ["Ridge", "Alpine", "Harbor", "Canyon", "Meadow", "Summit", "Cedar", "Delta"];
  const nouns = ["Tee", "Mug", "Lamp", "Sock", "Jacket", "Bottle", "Tent", "Scarf", "Cap"];
  const lines = ["product_id,title,description,variant_id,sku,price,currency,availability,stock"];
  for (let n = from; n < from + products; n++) {
    const title = `${adjectives[n % adjectives.length]} ${nouns[n % nouns.length]} ${n}`;
    lines.push(
      `prod_n${n},${title},A ${title.toLowerCase()},var_n${n},SKU-${n},${500 + (n % 97) * 10},USD,in_stock,${1 + (n % 50)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

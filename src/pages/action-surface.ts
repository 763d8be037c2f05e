/**
 * The challenge page as a payment_authentication Action surface (2026-08-25 payment
 * authentication §Surface Rendering and Notifications; services/payment-actions/
 * embedded.openrpc.json). Framed by the platform that owns the session (or in a native
 * webview), each document first sends `action.ready {id, version}` and waits for its result;
 * then the challenge's buttons work, and a page that shows an outcome sends `action.done`
 * (or `action.error` when the occurrence cannot be worked). Opened top-level, none of this
 * runs and the page works as a plain page. Notifications are advisory: get_checkout says
 * what happened.
 */
import type { MerchantConfig } from "../config";
import { constantTimeEqual } from "../lib/cookies";
import { derivedId } from "../lib/ids";
import type { VerificationView } from "../tools/payment-verification";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { contentSecurityPolicy } from "./respond";

/** What the surface does once the platform accepted it: enable the challenge, or end the occurrence. */
export type SurfacePhase = "challenge" | "done" | "action_expired" | "action_unavailable";

export interface ActionSurface {
  readonly id: string;
  readonly version: string;
  /** The owner platform's origin: the one frame ancestor and postMessage peer we accept. */
  readonly origin: string | undefined;
}

/** The page is a surface when its verification was asked as an Action. */
export function actionSurface(view: VerificationView): ActionSurface | undefined {
  const action = view.verification?.action;
  // An anonymous owner names any profile URL it likes: its origin is no platform the store trusts
  // (DESIGN.md trust model), so its surface is not framed and posts to no one.
  const origin = view.ownerAuthenticated === true ? originOf(view.owner) : undefined;
  return action ? { id: action.id, version: action.version, origin } : undefined;
}

/** The element the script reads (ids and origin as data, never spliced into script text). */
export function surfaceMarker(surface: ActionSurface, phase: SurfacePhase): SafeHtml {
  return html`<div id="ucp-action" hidden data-id="${surface.id}" data-version="${surface.version}" data-origin="${surface.origin ?? ""}" data-phase="${phase}"></div>`;
}

/**
 * A framed surface's form cannot rely on the CSRF cookie: inside another site's frame the
 * browser withholds the store's SameSite=Lax cookie. Its form carries this instead: a MAC
 * of the session and the occurrence under the store's secret, which only a page we rendered
 * for that occurrence holds (and the page's URL is itself the session's secret hand-off).
 */
export const SURFACE_FIELD = "_surface";

export function surfaceProof(config: Pick<MerchantConfig, "idSecret">, checkoutId: string, surface: ActionSurface) {
  return derivedId("surface", config.idSecret, checkoutId, surface.id);
}

/** The same origin rules as every page form (csrf.ts), with the occurrence's MAC for the cookie's token. */
export async function surfaceFormOk(
  request: Request,
  form: FormData,
  config: Pick<MerchantConfig, "idSecret" | "origin">,
  checkoutId: string,
  surface: ActionSurface,
): Promise<boolean> {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null" && origin !== config.origin && origin !== new URL(request.url).origin)
    return false;
  if (request.headers.get("sec-fetch-site") === "cross-site") return false;
  const sent = form.get(SURFACE_FIELD);
  return typeof sent === "string" && constantTimeEqual(sent, await surfaceProof(config, checkoutId, surface));
}

/** The surface may be framed by its owner platform only; every other page keeps frame-ancestors 'none'. */
export function framedBy(ctx: PageContext, surface: ActionSurface, response: Response): Response {
  if (!surface.origin) return response;
  // The page's own policy (Stripe's origins when the bank's step is on it), framing allowed.
  const own = response.headers.get("content-security-policy") ?? contentSecurityPolicy(ctx.nonce);
  const policy = own.replace("frame-ancestors 'none'", `frame-ancestors ${surface.origin}`);
  response.headers.set("content-security-policy", policy);
  // frame-ancestors supersedes it in current browsers; older ones would refuse every frame.
  response.headers.delete("x-frame-options");
  return response;
}

function originOf(profile: string | undefined): string | undefined {
  try {
    const url = profile ? new URL(profile) : undefined;
    return url && (url.protocol === "https:" || url.hostname === "localhost") ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The handshake. Buttons of `form[data-action-gated]` stay disabled until the platform
 * answered action.ready with a result; an error result (or none) leaves them disabled and
 * sends nothing more (payment authentication §Ready Handshake).
 */
export const SURFACE_SCRIPT = `(function () {
  var marker = document.getElementById("ucp-action");
  if (!marker) return;
  var bridge = window.EmbeddedActionProtocolConsumer ||
    (window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.EmbeddedActionProtocolConsumer);
  var framed = window.parent && window.parent !== window;
  if (!bridge && !framed) return;
  var id = marker.getAttribute("data-id");
  var origin = marker.getAttribute("data-origin");
  var phase = marker.getAttribute("data-phase");
  var buttons = document.querySelectorAll("form[data-action-gated] button");
  var i;
  for (i = 0; i < buttons.length; i++) buttons[i].disabled = true;
  function send(message) {
    if (bridge) bridge.postMessage(JSON.stringify(message));
    else if (origin) window.parent.postMessage(message, origin);
  }
  var rpcId = "ready-" + Math.random().toString(36).slice(2);
  var accepted = false;
  function receive(message) {
    if (typeof message === "string") { try { message = JSON.parse(message); } catch (e) { return; } }
    if (accepted || !message || message.jsonrpc !== "2.0" || message.id !== rpcId) return;
    var result = message.result;
    if (!result || typeof result !== "object" || (result.ucp && result.ucp.status === "error")) return;
    accepted = true;
    if (phase === "challenge") {
      for (i = 0; i < buttons.length; i++) buttons[i].disabled = false;
    } else if (phase === "done") {
      send({ jsonrpc: "2.0", method: "action.done", params: { id: id } });
    } else {
      send({ jsonrpc: "2.0", method: "action.error", params: { id: id, error: {
        ucp: { version: marker.getAttribute("data-version"), status: "error" },
        messages: [{ type: "error", code: phase, content: "This payment verification can no longer be completed here.", severity: "unrecoverable" }]
      } } });
    }
  }
  window.EmbeddedActionProtocol = { postMessage: receive };
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent || !origin || event.origin !== origin) return;
    receive(event.data);
  });
  send({ jsonrpc: "2.0", id: rpcId, method: "action.ready", params: { id: id, version: marker.getAttribute("data-version") } });
})();`;

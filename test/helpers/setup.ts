import { beforeAll } from "vitest";
import { seedDemoCatalog } from "./seed-catalog";

// Storage is isolated per test file, so each file starts from the demo catalog.
beforeAll(async () => {
  await seedDemoCatalog();
});

// Redocly's recommended rules on the served OpenAPI document (@redocly/openapi-core, the linter of Redocly's CLI and
// the one openapi-typescript reads documents with): no error allowed. GeneratedClientsIT runs it with `node --test`,
// the document's path in OPENAPI_DOCUMENT.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createConfig, lint } from "@redocly/openapi-core";

test("Redocly's recommended rules report no error", async () => {
  const ref = process.env.OPENAPI_DOCUMENT;
  assert.ok(ref, "OPENAPI_DOCUMENT is not set (GeneratedClientsIT sets it to the served document's file)");
  const problems = await lint({ ref, config: await createConfig({ extends: ["recommended"] }) });
  const errors = problems.filter((p) => p.severity === "error")
    .map((p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`);
  assert.deepEqual(errors, []);
});

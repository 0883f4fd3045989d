// Calls through openapi-fetch, typed by openapi-typescript's default output for the served OpenAPI document: that
// these compile (tsc, strict) is half of the test; GeneratedClientsIT runs the compiled file with `node --test`
// against the server jar, at TICKWHEEL_URL.
import assert from "node:assert/strict";
import { test } from "node:test";
import createClient from "openapi-fetch";
import type { components, paths } from "../../../target/generated-test-sources/openapi-ts/schema.js";

type TimerInput = components["schemas"]["TimerInput"];

const baseUrl = process.env.TICKWHEEL_URL;
if (!baseUrl) {
  throw new Error("TICKWHEEL_URL is not set (GeneratedClientsIT sets it to the server it started)");
}
const tw = createClient<paths>({ baseUrl });

test("create once, fixed-rate and cron timers with only the fields they need", async () => {
  const before = Date.now();
  // the shortest once timer: every other field is optional in the generated type
  const once: TimerInput = { id: "ts-once", topic: "ts", delayMs: 600_000, payload: { invoice: 42 } };
  const created = await tw.POST("/v1/timers", { body: once });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.ok(created.data);
  assert.equal(created.data.id, "ts-once");
  assert.equal(created.data.kind, "once");
  assert.deepEqual(created.data.payload, { invoice: 42 });
  assert.ok(created.data.nextDueAt >= before + 600_000);
  assert.equal(created.response.headers.get("location"), "/v1/timers/ts-once");

  const rate = await tw.POST("/v1/timers", {
    body: { id: "ts-rate", topic: "ts", kind: "fixed-rate", periodMs: 3_600_000, misfire: "skip" },
  });
  assert.equal(rate.response.status, 201, JSON.stringify(rate.error));
  assert.equal(rate.data?.periodMs, 3_600_000);
  assert.equal(rate.data?.misfire, "skip");
  assert.equal(rate.data?.upcoming?.length, 5);

  const cron = await tw.POST("/v1/timers", {
    body: { id: "ts-cron", topic: "ts", kind: "cron", cron: "0 9 * * MON-FRI", timeZone: "Europe/Paris" },
  });
  assert.equal(cron.response.status, 201, JSON.stringify(cron.error));
  assert.equal(cron.data?.timeZone, "Europe/Paris");
  assert.equal(cron.data?.dstGap, "auto");

  // a cron timer without timeZone runs in UTC
  const utc = await tw.PUT("/v1/timers/{id}", {
    params: { path: { id: "ts-cron-utc" } },
    body: { topic: "ts", kind: "cron", cron: "@daily" },
  });
  assert.equal(utc.response.status, 201, JSON.stringify(utc.error));
  assert.equal(utc.data?.timeZone, "UTC");
});

test("get, touch, batch create, batch touch, list, pause and delete", async () => {
  const got = await tw.GET("/v1/timers/{id}", { params: { path: { id: "ts-once" } } });
  assert.equal(got.response.status, 200, JSON.stringify(got.error));
  assert.equal(got.data?.topic, "ts");

  const touched = await tw.POST("/v1/timers/{id}/touch", {
    params: { path: { id: "ts-once" } },
    body: { delayMs: 900_000 },
  });
  assert.equal(touched.response.status, 200, JSON.stringify(touched.error));
  assert.ok((touched.data?.nextDueAt ?? 0) > (got.data?.nextDueAt ?? Infinity));

  const batch = await tw.POST("/v1/timers/batch", {
    body: { timers: [{ id: "ts-b1", topic: "ts", delayMs: 600_000 }, { id: "ts-b2", topic: "ts", delayMs: -1 }] },
  });
  assert.equal(batch.response.status, 200, JSON.stringify(batch.error));
  assert.deepEqual(batch.data?.results?.map((r) => r.status), [201, 400]);
  assert.equal(batch.data?.results?.[0]?.timer?.id, "ts-b1");
  assert.equal(batch.data?.results?.[1]?.error?.field, "delayMs");

  const touchAll = await tw.POST("/v1/timers/touch", { body: { ids: ["ts-b1", "ts-none"] } });
  assert.equal(touchAll.response.status, 200, JSON.stringify(touchAll.error));
  assert.deepEqual(touchAll.data?.results.map((r) => [r.id, r.status]), [["ts-b1", 200], ["ts-none", 404]]);

  const page = await tw.GET("/v1/timers", { params: { query: { topic: "ts", limit: 2 } } });
  assert.equal(page.response.status, 200, JSON.stringify(page.error));
  assert.equal(page.data?.timers.length, 2);
  assert.ok(page.data?.next);
  const rest = await tw.GET("/v1/timers", { params: { query: { topic: "ts", cursor: page.data?.next ?? undefined } } });
  const ids = [...(page.data?.timers ?? []), ...(rest.data?.timers ?? [])].map((t) => t.id).sort();
  assert.deepEqual(ids, ["ts-b1", "ts-cron", "ts-cron-utc", "ts-once", "ts-rate"]);
  assert.equal(rest.data?.next, null);

  const paused = await tw.POST("/v1/timers/{id}/pause", { params: { path: { id: "ts-rate" } } });
  assert.equal(paused.response.status, 200, JSON.stringify(paused.error));
  assert.equal(paused.data?.paused, true);
  assert.deepEqual(paused.data?.upcoming ?? [], []);

  const deleted = await tw.DELETE("/v1/timers/{id}", { params: { path: { id: "ts-b1" } } });
  assert.equal(deleted.response.status, 204);
  const gone = await tw.GET("/v1/timers/{id}", { params: { path: { id: "ts-b1" } } });
  assert.equal(gone.response.status, 404);
  assert.equal(gone.error?.error.code, "not_found");
});

test("a 400 names the field at fault", async () => {
  const bad = await tw.POST("/v1/timers", { body: { id: "ts-bad", kind: "fixed-rate", periodMs: 0 } });
  assert.equal(bad.response.status, 400);
  assert.equal(bad.data, undefined);
  assert.equal(bad.error?.error.code, "invalid_argument");
  assert.equal(bad.error?.error.field, "periodMs");
  assert.match(bad.error?.error.message ?? "", /periodMs/);

  // a field that does not apply to the kind, with a value other than its default, is still refused
  const zone = await tw.POST("/v1/timers", { body: { id: "ts-zone", delayMs: 1000, timeZone: "Europe/Paris" } });
  assert.equal(zone.response.status, 400);
  assert.equal(zone.error?.error.field, "timeZone");
});

// The page's reading of the server's clock (api.js), in node: the countdown is only as right as
// it. Run: node --test tests/play_js/

import assert from "node:assert/strict";
import { test } from "node:test";

import { Api } from "../../service/baohuang/play/static/api.js";

const second = (ms) => Math.floor(ms / 1000) * 1000; // a Date header counts whole seconds

test("a Date header rounded down, or refreshed only once a second, is no skew", () => {
  const api = new Api();
  for (const sent of [1_000_000, 1_000_400, 1_000_999]) {
    api.checkClock(second(sent + 50), sent, sent + 100);
    assert.equal(api.skew, 0, String(sent));
    api.checkClock(second(sent + 50) - 1000, sent, sent + 100); // the server's header of a second ago
    assert.equal(api.skew, 0, String(sent));
  }
});

test("a server clock five seconds ahead or behind is seen, to within a second", () => {
  const api = new Api();
  api.checkClock(second(2_000_300 + 5000), 2_000_250, 2_000_350);
  assert.ok(Math.abs(api.skew - 5) <= 1, String(api.skew));
  api.checkClock(second(2_000_300 - 5000), 2_000_250, 2_000_350);
  assert.ok(Math.abs(api.skew + 5) <= 1, String(api.skew));
});

test("a slow answer says nothing of the clock: its Date may be seconds old", () => {
  const api = new Api();
  api.checkClock(second(3_000_000), 3_000_000, 3_002_600); // answered 2.6 s later: kept as it was
  assert.equal(api.skew, 0);
  api.checkClock(NaN, 3_000_000, 3_000_050); // no Date header
  assert.equal(api.skew, 0);
});

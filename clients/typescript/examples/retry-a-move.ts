// A move sent through a connection that fails twice: the first attempt gets a 503, the answer
// of the second is lost after the service applied it. postMove retries under one
// Idempotency-Key, so the move is applied once and the last attempt gets the original answer.
// Prints what happened as JSON (tests/clients/test_sdk_live.py checks it).
import createClient from "openapi-fetch";

import { connect, postMove, type paths } from "../src/index.js";

const url = process.env.BAOHUANG_URL ?? "http://127.0.0.1:8000";
const platform = connect(url, process.env.BAOHUANG_KEY);
const tableId = process.argv[2] ?? "retry-ts-1";

const dealt = await platform.POST("/v1/deal", { body: { seed: 5, dealer: 0 } });
if (!dealt.data) throw new Error(dealt.error?.detail);
const created = await platform.PUT("/v1/tables/{table_id}", {
  params: { path: { table_id: tableId } },
  body: { snapshot: dealt.data.snapshot },
});
if (!created.data) throw new Error(created.error?.detail);
const auto = await platform.POST("/v1/moves/auto", { body: { snapshot: created.data.snapshot } });
const move = auto.data?.move;
if (!move) throw new Error(auto.error?.detail ?? "no move");

const keys: (string | null)[] = [];
async function flaky(request: Request): Promise<Response> {
  if (!request.url.endsWith("/moves")) return fetch(request);
  keys.push(request.headers.get("Idempotency-Key"));
  if (keys.length === 1) {
    const problem = { type: "about:blank", title: "Service Unavailable", status: 503, detail: "" };
    const headers = { "Content-Type": "application/problem+json", "Retry-After": "0" };
    return new Response(JSON.stringify(problem), { status: 503, headers });
  }
  const answer = await fetch(request);
  if (keys.length === 2) {
    await answer.text(); // applied, but the answer never arrives
    throw new TypeError("the connection dropped before the answer");
  }
  return answer;
}

const token = created.data.seat_tokens[move.seat];
const seat = createClient<paths>({
  baseUrl: url,
  headers: { Authorization: `Bearer ${token}` },
  fetch: flaky,
});
const answer = await postMove(seat, tableId, { move, version: created.data.version });
const after = await platform.GET("/v1/tables/{table_id}", {
  params: { path: { table_id: tableId } },
});
console.log(
  JSON.stringify({
    keys,
    status: answer.response.status,
    version: answer.data?.version,
    replayed: answer.data?.replayed,
    before: created.data.version,
    after: after.data?.version,
  }),
);

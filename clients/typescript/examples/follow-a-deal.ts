// A seat follows its table over Server-Sent Events and the platform over NDJSON while the deal
// is played; afterwards the seat reads the same events as a JSON page, and resumes its stream
// from the middle. Prints what it saw as JSON (tests/clients/test_sdk_live.py checks it).
import {
  connect,
  follow,
  ok,
  postMove,
  ProblemError,
  type LoggedEvent,
  type Schemas,
  type StreamItem,
} from "../src/index.js";

const url = process.env.BAOHUANG_URL ?? "http://127.0.0.1:8000";
const key = process.env.BAOHUANG_KEY;
const platform = connect(url, key);
const tableId = process.argv[2] ?? "follow-ts-1";

const dealt = await platform.POST("/v1/deal", { body: { seed: 7, dealer: 1 } });
if (!dealt.data) throw new Error(dealt.error?.detail);
const created = await platform.PUT("/v1/tables/{table_id}", {
  params: { path: { table_id: tableId } },
  body: { snapshot: dealt.data.snapshot },
});
if (!created.data) throw new Error(created.error?.detail);
const tokens = created.data.seat_tokens;
const seats = tokens.map((token) => connect(url, token));

/** Whose view a table is, read through the field only that view has: `audience` narrows it. */
function whose(table: Schemas["Table"]): string {
  switch (table.audience) {
    case "platform":
      return `platform:${table.view.hands.length}`; // a Snapshot: every hand
    case "seat":
      return `seat:${table.view.seat}`; // a SeatView: its seat and hand
    case "spectator":
      return `spectator:${table.view.counts.length}`; // a PublicView: the counts
  }
}

const opened: string[] = []; // whose view each stream opened with

/** The events of a stream up to `deal_over`, once its opening (if any) has arrived. */
function collect(items: AsyncGenerator<StreamItem>, open: () => void): Promise<LoggedEvent[]> {
  return (async () => {
    const events: LoggedEvent[] = [];
    for await (const item of items) {
      if (item.kind === "opening") opened.push(whose(item.table));
      if (item.kind === "opening") open();
      if (item.kind === "logged") events.push(item.event);
      if (item.kind === "logged" && item.type === "deal_over") break;
    }
    return events;
  })();
}

/** A promise and the function that keeps it (the executor runs at once, so it is set). */
function signal(): { done: Promise<void>; keep: () => void } {
  let keep = () => {};
  const done = new Promise<void>((resolve) => (keep = resolve));
  return { done, keep: () => keep() };
}

const seatOpen = signal();
const platformOpen = signal();
const seatStream = collect(follow(tableId, { baseUrl: url, token: tokens[0] }), seatOpen.keep);
const platformStream = collect(
  follow(tableId, { baseUrl: url, token: key, media: "ndjson" }),
  platformOpen.keep,
);
const spectator = await connect(url, created.data.spectator_token).GET("/v1/tables/{table_id}", {
  params: { path: { table_id: tableId } },
});
if (!spectator.data) throw new Error(spectator.error?.detail);
opened.push(whose(spectator.data));
await Promise.all([seatOpen.done, platformOpen.done]); // both follow before the first move

for (;;) {
  const table = await platform.GET("/v1/tables/{table_id}", {
    params: { path: { table_id: tableId } },
  });
  if (table.data?.audience !== "platform") throw new Error(table.error?.detail ?? "not a platform");
  const view = table.data.view; // audience "platform": the whole snapshot
  if (view.over) break;
  const auto = await platform.POST("/v1/moves/auto", { body: { snapshot: view } });
  const move = auto.data?.move;
  const seat = move ? seats[move.seat] : undefined;
  if (!move || !seat) throw new Error(auto.error?.detail ?? "no move");
  const answer = await postMove(seat, tableId, { move, version: table.data.version });
  if (!answer.data) throw new Error(answer.error?.detail);
}

const [seatEvents, platformEvents] = await Promise.all([seatStream, platformStream]);
const seat0 = seats[0];
if (!seat0) throw new Error("no seat 0");
const paged: LoggedEvent[] = []; // the JSON pages, read until the seat has the whole log
for (let after = "0"; ; ) {
  const page = ok(
    await seat0.GET("/v1/tables/{table_id}/events", {
      params: { path: { table_id: tableId }, query: { after, limit: 200 } },
    }),
  );
  paged.push(...page.events);
  const last = page.events.at(-1); // a logged event: its seq and id are always there
  if (last === undefined || last.seq >= page.last_seq) break;
  after = last.id; // the event's id names its write too (a bare seq works)
}
const middle = seatEvents[Math.floor(seatEvents.length / 2)]?.seq ?? 0;
const resumed = await collect(
  follow(tableId, { baseUrl: url, token: tokens[0], after: middle }),
  () => {},
);

// A table that is not there: the stream's answer is thrown as a typed ProblemError.
let problem: { status: number; code: string | undefined } | undefined;
try {
  for await (const item of follow(`${tableId}-missing`, { baseUrl: url, token: key })) {
    throw new Error(`a stream of a missing table gave ${item.kind}`);
  }
} catch (error) {
  if (!(error instanceof ProblemError)) throw error;
  problem = { status: error.status, code: error.problem.errors?.[0]?.code };
}

const seqs = (events: LoggedEvent[]) => events.map((event) => event.seq);
console.log(
  JSON.stringify({
    seat: seqs(seatEvents),
    platform: seqs(platformEvents),
    page: seqs(paged),
    middle,
    resumed: seqs(resumed),
    seatTypes: [...new Set(seatEvents.map((event) => event.type))].sort(),
    platformTypes: [...new Set(platformEvents.map((event) => event.type))].sort(),
    opened: opened.sort(),
    problem,
  }),
);

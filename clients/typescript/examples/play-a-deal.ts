// Play one deal on a live table: the platform deals and creates the table, each seat plays
// through its own token (the 托管 move, T-10, chosen by the referee). BAOHUANG_URL, optional
// BAOHUANG_KEY (a platform key; none on a development service).
import { connect, postMove } from "../src/index.js";

const url = process.env.BAOHUANG_URL ?? "http://127.0.0.1:8000";
const platform = connect(url, process.env.BAOHUANG_KEY);
const tableId = process.argv[2] ?? "newcomer-ts-1";

const dealt = await platform.POST("/v1/deal", { body: { seed: 2026, dealer: 0 } });
if (!dealt.data) throw new Error(dealt.error?.detail);
const created = await platform.PUT("/v1/tables/{table_id}", {
  params: { path: { table_id: tableId } },
  body: { snapshot: dealt.data.snapshot },
});
if (!created.data) throw new Error(created.error?.detail);
const seats = created.data.seat_tokens.map((token) => connect(url, token));

for (let moves = 0; ; moves++) {
  const table = await platform.GET("/v1/tables/{table_id}", {
    params: { path: { table_id: tableId } },
  });
  if (table.data?.audience !== "platform") throw new Error(table.error?.detail ?? "not a platform");
  const view = table.data.view; // audience "platform": the whole snapshot
  if (view.over) {
    console.log(`deal over after ${moves} moves: positions ${JSON.stringify(view.positions)}`);
    break;
  }
  const auto = await platform.POST("/v1/moves/auto", { body: { snapshot: view } });
  const move = auto.data?.move;
  const seat = move ? seats[move.seat] : undefined;
  if (!move || !seat) throw new Error(auto.error?.detail ?? "no move");
  const answer = await postMove(seat, tableId, { move, version: table.data.version });
  if (answer.data?.audience !== "seat") throw new Error(answer.error?.detail); // its own view
}

// The TypeScript client of baohuang-rules: `paths` and `components` are generated from
// openapi/openapi.json by openapi-typescript (src/schema.d.ts; `npm run generate`, never edited
// by hand), the calls are openapi-fetch's, and live.ts adds what generation cannot: the table
// streams with resume, moves retried under one Idempotency-Key, and error answers thrown as a
// typed ProblemError (`ok`), named as in the Python SDK; fairness.ts checks a committed deal (the
// commitment, and the hands dealt again from the revealed seed).
import createClient, { type Client } from "openapi-fetch";

import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";
export {
  COMMITTED_ALGORITHM,
  type CommittedDeal,
  committedDeal,
  committedDeck,
  commitmentOf,
  dealKey,
  type RulesetLike,
  Sha256Stream,
  verifyCommitment,
} from "./fairness.js";
export {
  follow,
  ok,
  postMove,
  ProblemError,
  type FollowOptions,
  type LoggedEvent,
  type PostMoveOptions,
  type StreamItem,
} from "./live.js";

export type Schemas = components["schemas"];
export type Referee = Client<paths>;

/** A client for `baseUrl`, sending `token` (a platform key, a seat or spectator token) as a
 * bearer credential; without one it calls a development service's open routes. */
export function connect(baseUrl: string, token?: string): Referee {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return createClient<paths>({ baseUrl, headers });
}

// The SDK's check of a committed deal against the published test vectors (docs/dealing.md,
// docs/dealing-vectors.json), the same vectors the service's Python tests check: the
// commitment, the key, the stream's draws, the cards dealt first and the five hands.
// Run: `npx tsc -p tsconfig.json && node --test dist/test/` in clients/typescript.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";

import {
  COMMITTED_ALGORITHM,
  committedDeal,
  committedDeck,
  commitmentOf,
  dealKey,
  type RulesetLike,
  Sha256Stream,
  verifyCommitment,
} from "../src/fairness.js";

interface Vector {
  name: string;
  ruleset: RulesetLike;
  dealer: number;
  seed: string;
  entropy: (string | null)[];
  commitment: string;
  key: string;
  draws: string[];
  dealt_first: string[];
  crown: number;
  hands: string[][];
}

const VECTORS = resolve(process.env.DEALING_VECTORS ?? "../../docs/dealing-vectors.json");

function strings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isVector(value: unknown): value is Vector {
  if (typeof value !== "object" || value === null) return false;
  const v: Record<string, unknown> = { ...value };
  const ruleset = v.ruleset;
  return (
    typeof v.name === "string" &&
    (typeof ruleset === "string" || (typeof ruleset === "object" && ruleset !== null)) &&
    typeof v.dealer === "number" &&
    typeof v.seed === "string" &&
    Array.isArray(v.entropy) &&
    v.entropy.every((item) => item === null || typeof item === "string") &&
    typeof v.commitment === "string" &&
    typeof v.key === "string" &&
    strings(v.draws) &&
    strings(v.dealt_first) &&
    typeof v.crown === "number" &&
    Array.isArray(v.hands) &&
    v.hands.every(strings)
  );
}

function load(): { algorithm: unknown; vectors: Vector[] } {
  const document: unknown = JSON.parse(readFileSync(VECTORS, "utf8"));
  if (typeof document !== "object" || document === null) throw new Error(`${VECTORS}: no object`);
  const { algorithm, vectors }: Record<string, unknown> = { ...document };
  if (!Array.isArray(vectors) || !vectors.every(isVector)) throw new Error(`${VECTORS}: not the vectors`);
  return { algorithm, vectors };
}

const { algorithm, vectors } = load();

test("the vectors are of the algorithm this SDK deals", () => {
  assert.equal(algorithm, COMMITTED_ALGORITHM);
  assert.ok(vectors.length >= 5);
});

for (const vector of vectors) {
  test(`G-4 committed vector: ${vector.name}`, async () => {
    assert.equal(await commitmentOf(vector.seed), vector.commitment);
    assert.ok(await verifyCommitment(vector.seed, vector.commitment));
    const key = await dealKey(vector.seed, vector.entropy);
    assert.equal(Buffer.from(key).toString("hex"), vector.key);
    const stream = new Sha256Stream(key);
    const draws: string[] = [];
    for (const _ of vector.draws) draws.push((await stream.next()).toString(16).padStart(16, "0"));
    assert.deepEqual(draws, vector.draws);
    const deck = await committedDeck(vector.ruleset, vector.seed, vector.entropy);
    assert.deepEqual(deck.slice(0, vector.dealt_first.length), vector.dealt_first);
    const dealt = await committedDeal(vector.ruleset, vector.seed, vector.entropy, vector.dealer);
    assert.equal(dealt.crown, vector.crown);
    assert.deepEqual(dealt.hands, vector.hands);
  });
}

test("G-4 another seed is not the one committed to, and other entropy deals another deal", async () => {
  const [first] = vectors;
  assert.ok(first !== undefined);
  assert.equal(await verifyCommitment("ee".repeat(32), first.commitment), false);
  const other = [...first.entropy];
  other[2] = "01";
  const dealt = await committedDeal(first.ruleset, first.seed, other, first.dealer);
  assert.notDeepEqual(dealt.hands, first.hands);
  await assert.rejects(commitmentOf("AB".repeat(32)), RangeError);
  await assert.rejects(dealKey(first.seed, [null, null]), RangeError);
});

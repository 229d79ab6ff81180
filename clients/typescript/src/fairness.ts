// Committed dealing, checked by the client (docs/dealing.md): the commitment a table showed
// before any card, and the deal dealt again from the seed its `deal_over` reveals and the
// entropy the seats added — so that a seat, or a browser, can check its own deal without
// trusting the service. SHA-256 is the platform's (Web Crypto: Node 18+, and browsers in a
// secure context); the rest is docs/dealing.md's steps, which docs/dealing-vectors.json checks.

/** The committed dealing this module deals again, as records and `deal_committed` name it. */
export const COMMITTED_ALGORITHM = "sha256-ctr/1";

type Base = "classic" | "tribute" | "lianzhong-classic" | "lianzhong-simple";
/** A ruleset as the API names it: a base name, or `{base, deck?, …}` (docs/rules.md, R). */
export type RulesetLike = string | { base: string; deck?: "full" | "short" | null };

/** A deal: five hands, high to low, and the seat first offered the crown (G-4). */
export interface CommittedDeal {
  hands: string[][];
  crown: number;
}

const SEATS = 5;
const LABEL = new TextEncoder().encode("baohuang/deal/1");
const RANKS = "3456789TJQKA2";
const SUITS = "SHCD";
const SJ = 52;
const SJ_SWORD = 53;
const BJ = 56;
const BJ_SCEPTER = 57;
const TWO_64 = 1n << 64n;
const SHORT_BASES = new Set<string>(["lianzhong-classic", "lianzhong-simple"]);
const BASES = new Set<string>(["classic", "tribute", "lianzhong-classic", "lianzhong-simple"]);

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function bytesOf(text: string, what: string, min: number, max: number): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/.test(text) || text.length < 2 * min || text.length > 2 * max) {
    throw new RangeError(`${what}: ${min} to ${max} bytes, in lowercase hex digits`);
  }
  const bytes = new Uint8Array(text.length / 2);
  for (let at = 0; at < bytes.length; at++) bytes[at] = parseInt(text.slice(2 * at, 2 * at + 2), 16);
  return bytes;
}

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", data));
}

function joined(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** Step 2: the commitment to `seed` (64 hex digits): SHA-256 of its 32 bytes, as hex. */
export async function commitmentOf(seed: string): Promise<string> {
  return hex(await sha256(bytesOf(seed, "seed", 32, 32)));
}

/** Whether the revealed `seed` is the one the table committed to before any card. */
export async function verifyCommitment(seed: string, commitment: string): Promise<boolean> {
  return (await commitmentOf(seed)) === commitment;
}

/** Step 4: the key of the stream, from the seed and each seat's entropy (null: none). */
export async function dealKey(seed: string, entropy: (string | null)[]): Promise<Uint8Array> {
  if (entropy.length !== SEATS) throw new RangeError("entropy is given for five seats");
  const parts = [LABEL, bytesOf(seed, "seed", 32, 32)];
  for (const given of entropy) {
    const added = given === null ? new Uint8Array() : bytesOf(given, "entropy", 1, 64);
    parts.push(Uint8Array.of(added.length), added);
  }
  return sha256(joined(parts));
}

/** Step 5: SHA-256 in counter mode over `key`, four big-endian 64-bit draws a block. */
export class Sha256Stream {
  private counter = 0n;
  private block: bigint[] = [];

  constructor(private readonly key: Uint8Array) {}

  async next(): Promise<bigint> {
    let draw = this.block.shift();
    if (draw === undefined) {
      const counter = new Uint8Array(8);
      new DataView(counter.buffer).setBigUint64(0, this.counter, false);
      this.counter += 1n;
      const digest = await sha256(joined([this.key, counter]));
      const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
      this.block = [0, 8, 16, 24].map((at) => view.getBigUint64(at, false));
      draw = this.block.shift();
    }
    if (draw === undefined) throw new Error("unreachable: a block holds four draws");
    return draw;
  }

  /** A uniform integer in [0, n), by rejection (step 4 of SplitMix64's, shared). */
  async below(n: number): Promise<number> {
    const size = BigInt(n);
    const limit = TWO_64 - (TWO_64 % size);
    for (;;) {
      const draw = await this.next();
      if (draw < limit) return Number(draw % size);
    }
  }
}

function resolved(ruleset: RulesetLike): { base: Base; short: boolean } {
  const base = typeof ruleset === "string" ? ruleset : ruleset.base;
  if (!isBase(base)) throw new RangeError(`unknown ruleset ${base}`);
  const deck = typeof ruleset === "string" ? null : (ruleset.deck ?? null);
  return { base, short: deck === null ? SHORT_BASES.has(base) : deck === "short" };
}

function isBase(name: string): name is Base {
  return BASES.has(name);
}

/** Step 2 of docs/dealing.md: the canonical deck, card ids ascending with their copies. */
function canonicalDeck(base: Base, short: boolean): number[] {
  const deck: number[] = [];
  for (let card = short ? 12 : 0; card < SJ; card++) deck.push(card, card, card, card);
  deck.push(SJ, SJ, SJ, base === "lianzhong-simple" ? SJ_SWORD : SJ);
  deck.push(BJ, BJ, BJ);
  if (base !== "tribute") deck.push(BJ_SCEPTER);
  return deck;
}

function code(card: number): string {
  if (card >= SJ) return { [SJ]: "SJ", [SJ_SWORD]: "SJ*", [BJ]: "BJ", [BJ_SCEPTER]: "BJ*" }[card] ?? "?";
  return `${RANKS.charAt(Math.floor(card / 4))}${SUITS.charAt(3 - (card % 4))}`;
}

async function shuffledIds(
  ruleset: RulesetLike,
  seed: string,
  entropy: (string | null)[],
): Promise<{ base: Base; deck: number[] }> {
  const { base, short } = resolved(ruleset);
  const stream = new Sha256Stream(await dealKey(seed, entropy));
  const deck = canonicalDeck(base, short);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    const top = deck[i];
    const drawn = deck[j];
    if (top === undefined || drawn === undefined) throw new Error("unreachable: within the deck");
    deck[i] = drawn;
    deck[j] = top;
  }
  return { base, deck };
}

/** The committed shuffle (steps 1–5, and SplitMix64's step 5 with these draws): the deck in the
 *  order its cards are dealt, as codes. */
export async function committedDeck(
  ruleset: RulesetLike,
  seed: string,
  entropy: (string | null)[],
): Promise<string[]> {
  return (await shuffledIds(ruleset, seed, entropy)).deck.map(code);
}

/** G-4, committed: the deal of `seed` and the seats' `entropy` from `dealer` (docs/dealing.md
 *  steps 1–6): what a committed deal's `deal_over` lets anyone deal again. */
export async function committedDeal(
  ruleset: RulesetLike,
  seed: string,
  entropy: (string | null)[],
  dealer: number,
): Promise<CommittedDeal> {
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= SEATS) throw new RangeError("dealer is a seat, 0–4");
  const { base, deck } = await shuffledIds(ruleset, seed, entropy);
  const hands: number[][] = Array.from({ length: SEATS }, () => []);
  deck.forEach((card, k) => hands[(dealer + k) % SEATS]?.push(card));
  let crown = dealer;
  if (base === "tribute") hands[dealer]?.push(BJ_SCEPTER);
  else crown = hands.findIndex((hand) => hand.includes(BJ_SCEPTER));
  return { hands: hands.map((hand) => hand.sort((a, b) => b - a).map(code)), crown };
}

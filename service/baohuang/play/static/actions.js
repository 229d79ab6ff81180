// Which buttons a seat is shown. A seat holds only its view, not the snapshot that
// POST /v1/moves/legal needs, so the page offers the actions the phase has (docs/clients.md,
// "Moves before play") and the table judges each move: a refusal comes back as a 422 verdict
// with its reason, which the page shows. These lists only keep pointless buttons away.

/** The ruleset of a view with all its options: `ruleset` is a name or {base, …options}, and
 *  `defaults` is GET /v1/rulesets (one entry per base, every option at its default). */
export function rulesetSpec(ruleset, defaults) {
  const named = typeof ruleset === "string" ? { base: ruleset } : ruleset;
  const base = defaults.find((spec) => spec.base === named.base) ?? {};
  return { ...base, ...named };
}

/** The next seat after `seat` that still holds cards (T-1): who may declare 接风 (T-7). */
export function nextHolder(view, seat) {
  for (let step = 1; step <= 5; step++) {
    const next = (seat + step) % 5;
    if (view.counts[next] > 0) return next;
  }
  return null;
}

/** Actions before the first play (G-5 … G-8) for `seat`, in the order the buttons appear. */
export function beforePlayActions(view, seat, spec) {
  if (view.over) return [];
  const mine = view.turn === seat;
  if (view.phase === "crown") {
    if (!mine) return spec.base === "classic" && spec.grab ? ["grab"] : []; // 抢庄, out of turn (G-5)
    return spec.base === "classic" ? ["call", "declare_solo", "decline"] : ["accept", "decline"];
  }
  if (view.phase !== "guard" || !mine) return [];
  switch (view.crown?.stage) {
    case "grab": // 抢独 (G-7)
      return ["grab", "decline"];
    case "call": // the emperor settles the guard (G-2, G-3); 明独 (G-8)
      return spec.base === "lianzhong-simple"
        ? ["call", "declare_solo", "decline"]
        : ["call", "declare_solo"];
    case "declare": {
      // 明保 is the guard's alone, and only the guard's view names the guard (G-8); 造反 is a rebel's
      const actions = view.guard === seat ? ["reveal"] : [];
      if (spec.base === "lianzhong-simple" && view.guard !== seat) actions.push("rebel");
      return [...actions, "decline"];
    }
    default:
      return [];
  }
}

/** Actions in play (T-3 … T-7) for `seat`: play, and against a top play pass, yield, 接风. */
export function playActions(view, seat, spec) {
  if (view.over || view.phase !== "play" || view.turn !== seat) return [];
  const top = view.trick.top;
  if (!top) return ["play"]; // a leader may not pass (T-3)
  const actions = ["play", "pass"];
  if (spec.yield_allowed && view.trick.circle === 1) actions.push("yield"); // 让牌 (T-6)
  if (view.finished.includes(top.seat) && nextHolder(view, top.seat) === seat) actions.push("jiefeng"); // T-7
  return actions;
}

/** Cards `hand` holds three or more of, jokers counted without their mark: what may be called
 *  (G-2; the table refuses a card its ruleset does not allow). */
export function callable(hand) {
  const held = {};
  for (const code of hand) {
    const kind = code.replace("*", "");
    held[kind] = (held[kind] ?? 0) + 1;
  }
  return Object.keys(held).filter((kind) => held[kind] >= 3);
}

// The hand's layout (hand.js), in node: every card of any hand fits the width it is given, each
// showing at least its corner, in as few rows as that allows. Run: node --test tests/play_js/

import assert from "node:assert/strict";
import { test } from "node:test";

import { handLayout } from "../../service/baohuang/play/static/hand.js";

const PHONE = { cardWidth: 44, minStep: 22, maxStep: 47 }; // touch: 2.75rem cards
const DESK = { cardWidth: 38.4, minStep: 20, maxStep: 41.4 };

test("a 44-card hand on a 360 px phone: four rows of eleven, every card within the width", () => {
  const width = 360 - 2 * 6.4 - 2 * 8; // the page's and the hand panel's padding
  assert.deepEqual(handLayout(44, width, PHONE), { rows: 4, perRow: 11, step: 28.7 });
  assert.deepEqual(handLayout(33, width, PHONE), { rows: 3, perRow: 11, step: 28.7 });
  assert.equal(handLayout(26, width, PHONE).rows, 2);
  assert.equal(handLayout(44, 1120, DESK).rows, 1); // a desk: one row
});

test("any hand in any width: inside it, each card's corner showing, in the fewest rows", () => {
  for (const sizes of [PHONE, DESK])
    for (let width = 280; width <= 1400; width += 7)
      for (let count = 2; count <= 44; count++) {
        const { rows, perRow, step } = handLayout(count, width, sizes);
        const label = `${count} cards in ${width} px`;
        assert.ok((perRow - 1) * step + sizes.cardWidth <= width + 1e-9, label); // inside
        assert.ok(step >= sizes.minStep && step <= sizes.maxStep, label); // a corner shows, no gap
        assert.equal(rows, Math.ceil(count / perRow), label);
        assert.ok(perRow * rows - count < rows, label); // as even as can be
        // one row fewer would need a step under minStep
        if (rows > 1) assert.ok((width - sizes.cardWidth) / (Math.ceil(count / (rows - 1)) - 1) < sizes.minStep, label);
      }
});

test("one card, or none: nothing to spread", () => {
  assert.deepEqual(handLayout(1, 300, PHONE), { rows: 1, perRow: 1, step: 47 });
  assert.deepEqual(handLayout(0, 300, PHONE), { rows: 0, perRow: 0, step: 47 });
});

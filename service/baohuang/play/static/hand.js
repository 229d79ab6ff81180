// The own hand, laid out as card apps on a phone lay it: every card on screen at once, the
// cards overlapping so that each shows its corner (rank over suit), in as few rows as that
// allows — one row on a desk, two to four of a 44-card hand on a phone — and never wider apart
// than a small gap. The layout is a function of the card count, the width and the corner's
// width (node tests it); the hand's CSS grid draws it (play.css, ".hand").

/** How `count` cards fit `width` px: each `cardWidth` wide and showing at least `minStep` px
 *  of itself, in as few rows as that allows, the rows as even as can be (the last may be
 *  shorter), spread no wider than `maxStep`. {rows, perRow, step}. */
export function handLayout(count, width, { cardWidth, minStep, maxStep }) {
  if (count <= 1) return { rows: count, perRow: count, step: maxStep };
  const room = Math.max(0, width - cardWidth);
  const fits = Math.max(1, Math.floor(room / minStep) + 1); // cards one row holds at the tightest
  const rows = Math.ceil(count / fits);
  const perRow = Math.ceil(count / rows);
  const step = perRow > 1 ? Math.min(maxStep, room / (perRow - 1)) : maxStep;
  return { rows, perRow, step: Math.floor(step * 10) / 10 };
}

/** The grid of a `.hand` element as the layout wants it for its width: columns `step` wide,
 *  the last as wide as a card (a card overflows its column into the next one, under the card
 *  laid over it). Called after every render and whenever the hand's width changes. */
export function layOut(hand) {
  const card = hand.querySelector(".card");
  if (!card) return;
  const cardWidth = card.getBoundingClientRect().width;
  const style = getComputedStyle(hand);
  const width = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cards = hand.querySelectorAll(".card");
  const { perRow, step } = handLayout(cards.length, width, {
    cardWidth,
    minStep: Math.max(20, corner(cards)),
    maxStep: cardWidth + 3,
  });
  hand.style.gridTemplateColumns = perRow > 1 ? `repeat(${perRow - 1}, ${step}px) ${cardWidth}px` : `${cardWidth}px`;
  hand.dataset.perRow = perRow;
}

/** How much of a card must show: its corner, as wide as the widest rank ("10", "BJ") or suit
 *  line (大王's 王★) of the hand, measured as drawn in the page's font, and a pixel more. The
 *  last card (the highest: the scepter when the hand holds it) lies under none. */
function corner(cards) {
  let widest = 0;
  for (const card of [...cards].slice(0, -1)) {
    const left = card.getBoundingClientRect().left;
    for (const part of card.querySelectorAll(".rank, .suit"))
      widest = Math.max(widest, part.getBoundingClientRect().right - left);
  }
  return Math.ceil(widest) + 1;
}

let watching = null; // the one hand a page shows is watched; a new render's hand replaces it

/** Lay `hand` out now and again whenever its width changes (a phone turned, a window resized). */
export function fitHand(hand) {
  layOut(hand);
  watching?.disconnect();
  let width = hand.clientWidth;
  watching = new ResizeObserver(() => {
    if (hand.clientWidth === width) return; // rows come and go with the layout: only width counts
    width = hand.clientWidth;
    layOut(hand);
  });
  watching.observe(hand);
}

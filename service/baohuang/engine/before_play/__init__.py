"""Before the first play: the deal (G-4), the crown (G-5…G-7), the guard (G-1…G-3, G-8) and the
tribute (P). :mod:`.machine` verifies and applies the moves of the crown and guard phases,
:mod:`.checks` checks a snapshot in those phases."""

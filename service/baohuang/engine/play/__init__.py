"""The play phase: turns and the end of the deal (:mod:`.turns`, T-1…T-9), moves verified and
applied (:mod:`.moves`, T, B-1, K in play), legal moves and 托管 (:mod:`.legal`, T-10), and the
checks of a snapshot in play (:mod:`.checks`)."""

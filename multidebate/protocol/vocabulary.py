"""The word lists the comparison reads lines with: one place for each, so no two modules disagree on a word.

The comparison only advises (docs/verdicts.md: one bold line, word for word, decides); these lists shape how
it explains a difference, proposes a line to copy and recognises a restated position.
"""

from __future__ import annotations

__all__ = ["NEGATORS"]

# A word that turns what follows into its opposite: "use X" and "never X", "skip the index" and "add it".
# (#32 item 3: protocol/terms.py and analysis/words.py each kept a list, and they disagreed on 13 words.)
NEGATORS = frozenset(
    "not no never avoid avoiding without don't dont doesn't doesnt shouldn't shouldnt won't wont isn't isnt "
    "aren't arent cannot can't cant against skip skipping drop dropping reject rejecting nor instead rather "
    "neither".split()
)
